import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  MESSAGE_PAGE_SIZE,
  forwardSchema,
  idOf,
  messageEditSchema,
  messageSchema,
  messageSendSchema,
  messagesPageSchema,
  reactionSchema,
} from "@atende/contracts";
import { authOf } from "../../http/auth.js";
import { parseInput } from "../../http/errors.js";
import { routes } from "../../http/route.js";
import { readMediaForm } from "../../http/upload.js";
import { type MessagesService, createMessagesService } from "./service.js";

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

/** A send answers the message it saved, or the list of them when it sent several files. */
const sentAnswer = z.union([messageSchema, z.array(messageSchema)]);

export function messagesRoutes(app: FastifyInstance, messages: MessagesService) {
  const r = routes(app);
  r.get(
    "/messages/:ticketId",
    {
      errors: ["ERR_NO_TICKET_FOUND", "ERR_TICKET_ACCESS_DENIED"],
      access: "user",
      params: ticketParam,
      query: pageQuery,
      response: messagesPageSchema,
      operationId: "messages.list",
      summary: `A ticket's conversation, newest first, ${MESSAGE_PAGE_SIZE} messages a page`,
    },
    ({ auth, params, query }) => messages.page(auth, params.ticketId, query.pageNumber),
  );
  r.post(
    "/messages/:ticketId",
    {
      errors: [
        "ERR_AUDIO_CONVERSION_FAILED",
        "ERR_CLOUD_MEDIA_TYPE",
        "ERR_CREATING_MESSAGE",
        "ERR_EMPTY_MESSAGE",
        "ERR_FETCH_WAPP_MSG",
        "ERR_MEDIA_TOO_LARGE",
        "ERR_NO_TICKET_FOUND",
        "ERR_TICKET_ACCESS_DENIED",
        "ERR_TICKET_NOT_OPEN",
      ],
      access: "user",
      params: ticketParam,
      bodyDoc: messageSendSchema,
      consumes: ["application/json", "multipart/form-data"],
      status: 201,
      response: sentAnswer,
      operationId: "messages.send",
      summary: "Send a message on a ticket: a text, or files (multipart, under `medias`)",
      examples: {
        text: {
          summary: "A text, signed with the agent's name",
          value: { body: "Olá! Como posso ajudar?", signMessage: true },
        },
        reply: {
          summary: "A reply to a message of the conversation",
          value: { body: "Segue o boleto.", quotedMsg: { id: 4211 } },
        },
      },
    },
    async ({ params: { ticketId } }, req) => {
      let sent;
      if (req.isMultipart()) {
        const { files, fields } = await readMediaForm(req);
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
    {
      errors: ["ERR_NOT_FOUND", "ERR_NOT_MESSAGE_AUTHOR", "ERR_TICKET_ACCESS_DENIED"],
      access: "user",
      params: bigId,
      body: messageEditSchema,
      response: messageSchema,
    },
    ({ auth, params, body }) => messages.edit(auth, params.id, body.body),
  );
  r.delete(
    "/messages/:id",
    { errors: ["ERR_NOT_FOUND", "ERR_NOT_MESSAGE_AUTHOR"], access: "user", params: bigId, status: 204 },
    ({ auth, params }) => messages.remove(auth, params.id),
  );
  r.post(
    "/messages/:id/reactions",
    {
      errors: ["ERR_NOT_FOUND", "ERR_TICKET_ACCESS_DENIED"],
      access: "user",
      params: bigId,
      body: reactionSchema,
      response: messageSchema,
    },
    ({ auth, params, body }) => messages.react(auth, params.id, body.type),
  );
  r.post(
    "/messages/:id/retry",
    {
      errors: ["ERR_NOT_FOUND", "ERR_TICKET_ACCESS_DENIED"],
      access: "user",
      params: bigId,
      response: messageSchema,
    },
    ({ auth, params }) => messages.retry(auth, params.id),
  );
  r.post(
    "/message/forward",
    {
      errors: [
        "ERR_FETCH_WAPP_MSG",
        "ERR_NOT_FOUND",
        "ERR_NO_CONTACT_FOUND",
        "ERR_TICKET_ACCESS_DENIED",
        "ERR_TICKET_NOT_OPEN",
      ],
      access: "user",
      body: forwardSchema,
      response: messageSchema,
      operationId: "messages.forward",
    },
    ({ auth, body }) => messages.forward(auth, body.messageId, body.contactId, body.signMessage),
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
