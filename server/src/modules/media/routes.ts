import type { FastifyInstance } from "fastify";
import type { Deps } from "../../deps.js";
import { z } from "zod";
import type { AuthContext } from "../../http/auth.js";
import { sendError } from "../../http/errors.js";
import { routes } from "../../http/route.js";
import type { TicketsService } from "../tickets/service.js";
import { readsAnyFile, ticketsAllowFile } from "./policy.js";
import { mimeOf } from "../../storage/mime.js";
import { carriedOutsideTickets, ticketsCarrying } from "./queries.js";
import { chatsCarrying, memberOfAny } from "../chats/queries.js";

/**
 * Media of the caller's own company, and of a ticket only to who may see it (`mayReadFile`); any
 * other file answers 404 as if it did not exist.
 */
export async function mediaModule(
  app: FastifyInstance,
  { db, media, tickets }: Pick<Deps, "db" | "media"> & { tickets: Pick<TicketsService, "scopeOf"> },
) {
  async function mayRead(actor: AuthContext, filePath: string): Promise<boolean> {
    // An internal chat's attachment is its members' alone, whoever else asks.
    const inChats = await chatsCarrying(db, actor.companyId, filePath);
    if (inChats.length) return memberOfAny(db, actor.companyId, actor.userId, inChats);
    if (readsAnyFile(actor)) return true;
    const carrying = await ticketsCarrying(db, actor.companyId, filePath);
    if (ticketsAllowFile(actor, await tickets.scopeOf(actor), carrying)) return true;
    return carriedOutsideTickets(db, actor.companyId, filePath);
  }

  // The params are read as they come: any other shape is a file that does not exist (404).
  const fileParams = z.object({ companyId: z.string(), file: z.string() });
  routes(app).get(
    "/media/:companyId/:file",
    {
      errors: ["ERR_NOT_FOUND"],
      access: "user",
      params: fileParams,
      produces: "application/octet-stream",
      summary: "A stored file (a message's media, a queue's attachment), with its own content type",
    },
    async ({ auth: actor, params }, req, reply) => {
      const { companyId, file } = params;
      const filePath = `${companyId}/${file}`;
      // Streamed from the disk or the bucket as it is read: a 64 MiB video is never held whole.
      const found =
        Number(companyId) === actor.companyId && (await mayRead(actor, filePath))
          ? await media.open(actor.companyId, filePath)
          : null;
      if (!found) return sendError(reply, req, "ERR_NOT_FOUND");
      return reply
        .header("content-type", mimeOf(file))
        .header("content-length", found.size)
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "default-src 'none'; sandbox")
        .header("cache-control", "private, max-age=86400")
        .send(found.stream);
    },
  );
}
