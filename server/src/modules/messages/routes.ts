import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  forwardSchema,
  idOf,
  messageEditSchema,
  messageSendSchema,
  reactionSchema,
  validationMessage,
} from "@atende/contracts";
import { authOf } from "../../http/auth.js";
import { AppError, langOf, parseInput } from "../../http/errors.js";
import { routes } from "../../http/route.js";
import { type MessagesService, type UploadedFile, createMessagesService } from "./service.js";

const ticketParam = z.object({ ticketId: idOf() });
/** Messages' ids are bigints. */
const bigId = z.object({ id: idOf(Number.MAX_SAFE_INTEGER) });
const pageQuery = z.object({ pageNumber: idOf(100_000).optional().default(1) });
/** The multipart form's fields: the caption, the signature flag and the replied message's id. */
const multipartFields = z.object({
  body: z.string().optional(),
  signMessage: z.string().optional(),
  quotedMsgId: z.preprocess((v) => (v === "" ? undefined : v), idOf(Number.MAX_SAFE_INTEGER).optional()),
});

/** A multipart send: files under "medias", the caption and options as fields. */
export async function readMultipart(req: FastifyRequest) {
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  for await (const part of req.parts()) {
    if (part.type === "file") {
      if (part.fieldname !== "medias") {
        part.file.resume(); // drain what we ignore, or the request never ends
        continue;
      }
      files.push({ filename: part.filename || "file", mimetype: part.mimetype, data: await part.toBuffer() });
    } else {
      fields[part.fieldname] = String(part.value);
    }
  }
  return { files, fields };
}

export function messagesRoutes(app: FastifyInstance, messages: MessagesService) {
  const r = routes(app);
  r.get(
    "/messages/:ticketId",
    { access: "user", params: ticketParam, query: pageQuery },
    ({ auth, params, query }) => messages.page(auth, params.ticketId, query.pageNumber),
  );
  r.post(
    "/messages/:ticketId",
    {
      access: "user",
      params: ticketParam,
      bodyDoc: messageSendSchema,
      consumes: ["application/json", "multipart/form-data"],
      status: 201,
    },
    async ({ params: { ticketId } }, req) => {
      let sent;
      if (req.isMultipart()) {
        // A malformed or cut-short body (no boundary, unexpected end, too many parts) or an empty
        // file: bad input, not a crash, with its field message in the caller's language.
        const invalidMedias = () =>
          new AppError("ERR_VALIDATION", {
            fields: { medias: validationMessage("validation.invalid", langOf(req)) },
          });
        const { files, fields } = await readMultipart(req).catch((err: { code?: string }) => {
          if (err.code === "FST_REQ_FILE_TOO_LARGE") throw new AppError("ERR_MEDIA_TOO_LARGE");
          if (err instanceof AppError) throw err;
          throw invalidMedias();
        });
        if (files.some((f) => f.data.length === 0)) throw invalidMedias();
        const form = parseInput(multipartFields, fields, req);
        const input = parseInput(
          messageSendSchema,
          { body: form.body ?? "", signMessage: form.signMessage },
          req,
        );
        sent = await messages.send(
          authOf(req),
          ticketId,
          { ...input, quotedMsgId: form.quotedMsgId ?? null },
          files,
        );
      } else {
        const input = parseInput(messageSendSchema, req.body, req);
        sent = await messages.send(authOf(req), ticketId, {
          ...input,
          quotedMsgId: input.quotedMsg?.id ?? null,
        });
      }
      return sent.length === 1 ? sent[0] : sent;
    },
  );
  r.post(
    "/messages/edit/:id",
    { access: "user", params: bigId, body: messageEditSchema },
    ({ auth, params, body }) => messages.edit(auth, params.id, body.body),
  );
  r.delete("/messages/:id", { access: "user", params: bigId, status: 204 }, ({ auth, params }) =>
    messages.remove(auth, params.id),
  );
  r.post(
    "/messages/:id/reactions",
    { access: "user", params: bigId, body: reactionSchema },
    ({ auth, params, body }) => messages.react(auth, params.id, body.type),
  );
  r.post("/messages/:id/retry", { access: "user", params: bigId }, ({ auth, params }) =>
    messages.retry(auth, params.id),
  );
  r.post("/message/forward", { access: "user", body: forwardSchema }, ({ auth, body }) =>
    messages.forward(auth, body.messageId, body.contactId, body.signMessage),
  );
}

/** The messages module: a ticket's messages, sending (JSON or multipart), edits, reactions, forwards. */
export async function messagesModule(
  parent: FastifyInstance,
  deps: Parameters<typeof createMessagesService>[0] & { maxFileBytes: number },
): Promise<MessagesService> {
  const messages = createMessagesService(deps);
  await parent.register(async (app) => {
    await app.register(multipart, {
      limits: { fileSize: deps.maxFileBytes, files: 10, fields: 20 },
      throwFileSizeLimit: true,
    });
    messagesRoutes(app, messages);
  });
  return messages;
}
