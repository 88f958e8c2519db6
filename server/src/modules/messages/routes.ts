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
import type { MessagesService, UploadedFile } from "./service.js";

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
async function readMultipart(req: FastifyRequest) {
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

export async function messagesRoutes(app: FastifyInstance, messages: MessagesService, maxFileBytes: number) {
  await app.register(multipart, {
    limits: { fileSize: maxFileBytes, files: 10, fields: 20 },
    throwFileSizeLimit: true,
  });

  app.get("/messages/:ticketId", async (req) =>
    messages.page(
      authOf(req),
      parseInput(ticketParam, req.params, req).ticketId,
      parseInput(pageQuery, req.query, req).pageNumber,
    ),
  );
  app.post("/messages/:ticketId", async (req, reply) => {
    const { ticketId } = parseInput(ticketParam, req.params, req);
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
    return reply.status(201).send(sent.length === 1 ? sent[0] : sent);
  });
  app.post("/messages/edit/:id", async (req) =>
    messages.edit(
      authOf(req),
      parseInput(bigId, req.params, req).id,
      parseInput(messageEditSchema, req.body, req).body,
    ),
  );
  app.delete("/messages/:id", async (req, reply) => {
    await messages.remove(authOf(req), parseInput(bigId, req.params, req).id);
    return reply.status(204).send();
  });
  app.post("/messages/:id/reactions", async (req) =>
    messages.react(
      authOf(req),
      parseInput(bigId, req.params, req).id,
      parseInput(reactionSchema, req.body, req).type,
    ),
  );
  app.post("/messages/:id/retry", async (req) =>
    messages.retry(authOf(req), parseInput(bigId, req.params, req).id),
  );
  app.post("/message/forward", async (req) => {
    const input = parseInput(forwardSchema, req.body, req);
    return messages.forward(authOf(req), input.messageId, input.contactId, input.signMessage);
  });
}
