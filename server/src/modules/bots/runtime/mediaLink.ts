import crypto from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { TokenService } from "../../../http/tokens.js";
import { sendError } from "../../../http/errors.js";
import { routes } from "../../../http/route.js";
import type { MediaStore } from "../../../storage/media.js";
import { mimeOf } from "../../../storage/mime.js";

/** How long a bot may fetch a customer's media after the turn that carries it. */
export const MEDIA_LINK_SECONDS = 10 * 60;

const LABEL = "bot-media";

/**
 * A customer's media handed to a bot as a URL it can fetch without a login: signed with the
 * server's secret over the file and an expiry a few minutes ahead, so it opens that one file, for a
 * short while, and nothing else.
 */
export function signedMediaUrl(
  tokens: Pick<TokenService, "keyedHash">,
  baseUrl: string,
  companyId: number,
  mediaPath: string,
  now: Date,
): string {
  const exp = Math.floor(now.getTime() / 1000) + MEDIA_LINK_SECONDS;
  const file = mediaPath.split("/").pop()!;
  const sig = tokens.keyedHash(LABEL, `${companyId}/${file}:${exp}`);
  return `${baseUrl.replace(/\/+$/, "")}/bots/media/${companyId}/${encodeURIComponent(file)}?exp=${exp}&sig=${sig}`;
}

function validSignature(
  tokens: Pick<TokenService, "keyedHash">,
  companyId: string,
  file: string,
  exp: string,
  sig: string,
): boolean {
  const expected = Buffer.from(tokens.keyedHash(LABEL, `${companyId}/${file}:${exp}`));
  const given = Buffer.from(sig);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

/** GET /bots/media/:companyId/:file?exp=&sig=: public, the signature is the credential; else 404. */
export function botMediaRoutes(
  app: FastifyInstance,
  deps: { tokens: Pick<TokenService, "keyedHash">; media: MediaStore; now: () => Date },
) {
  const params = z.object({ companyId: z.string(), file: z.string() });
  const query = z.object({ exp: z.string().default(""), sig: z.string().default("") });
  routes(app).get(
    "/bots/media/:companyId/:file",
    {
      errors: ["ERR_NOT_FOUND"],
      access: "public",
      params,
      query,
      // The file as stored (its type from its name): not JSON.
      produces: "application/octet-stream",
      summary: "A customer's media, for a bot, by a signed link",
    },
    async ({ params: p, query: qs }, req, reply) => {
      const company = Number(p.companyId);
      const live = /^\d+$/.test(qs.exp) && Number(qs.exp) * 1000 > deps.now().getTime();
      const data =
        Number.isInteger(company) &&
        company > 0 &&
        live &&
        validSignature(deps.tokens, p.companyId, p.file, qs.exp, qs.sig)
          ? await deps.media.read(company, `${company}/${p.file}`)
          : null;
      if (!data) return sendError(reply, req, "ERR_NOT_FOUND");
      return reply
        .header("content-type", mimeOf(p.file))
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "private, no-store")
        .send(data);
    },
  );
}
