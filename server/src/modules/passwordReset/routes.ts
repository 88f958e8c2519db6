import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { type MailAcceptedDTO, forgotPasswordParamsSchema, resetPasswordSchema } from "@atende/contracts";
import { langOf } from "../../http/errors.js";
import { routes } from "../../http/route.js";
import { type PasswordResetService, RESET_LIMITS, createPasswordResetService } from "./service.js";

const OK: MailAcceptedDTO = { ok: true };
/** The one answer of every step: the request was taken (it tells nothing of the account). */
const accepted = z.object({ ok: z.literal(true) });

export function passwordResetRoutes(app: FastifyInstance, reset: PasswordResetService) {
  const r = routes(app);
  // Step 1, as the spec calls it: the same answer for any e-mail (see requestCode).
  r.post(
    "/forgetpassword/:email",
    {
      access: "public",
      response: accepted,
      params: forgotPasswordParamsSchema,
      rateLimit: RESET_LIMITS.codesPerIp,
      summary: "E-mails a 6-digit code to reset the password (the same answer for any e-mail)",
    },
    async ({ params }, req) => {
      await reset.requestCode(params.email, langOf(req));
      return OK;
    },
  );
  // Step 2, as our web app calls it: the values in a JSON body.
  r.post(
    "/resetpasswords",
    {
      errors: ["ERR_INVALID_RESET_CODE"],
      access: "public",
      response: accepted,
      body: resetPasswordSchema,
      rateLimit: RESET_LIMITS.triesPerIp,
      summary: "Sets a new password with the e-mailed code; ends every session of the user",
    },
    async ({ body }) => {
      await reset.reset(body);
      return OK;
    },
  );
  // Step 2 as older clients call it, with the secrets in the path: kept, and never logged
  // (http/redact.ts hides the whole path of /resetpasswords/...).
  r.post(
    "/resetpasswords/:email/:token/:newPassword",
    {
      errors: ["ERR_INVALID_RESET_CODE"],
      access: "public",
      response: accepted,
      params: resetPasswordSchema,
      rateLimit: RESET_LIMITS.triesPerIp,
      operationId: "resetpasswords.createInPath",
      summary: "Older clients' form of POST /resetpasswords (prefer the JSON body: paths end up in logs)",
    },
    async ({ params }) => {
      await reset.reset(params);
      return OK;
    },
  );
}

/** Password reset by an e-mailed code (and the invitation code of a new admin). */
export async function passwordResetModule(
  app: FastifyInstance,
  deps: Parameters<typeof createPasswordResetService>[0],
): Promise<PasswordResetService> {
  const reset = createPasswordResetService(deps);
  app.addHook("onClose", async () => reset.close());
  passwordResetRoutes(app, reset);
  return reset;
}
