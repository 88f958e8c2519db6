import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  chatCreateSchema,
  chatMessageSchema,
  chatMessageSendSchema,
  chatMessagesPageSchema,
  chatMessagesQuerySchema,
  chatParam,
  chatReadSchema,
  chatSchema,
  chatUpdateSchema,
  chatsPageSchema,
  chatsQuerySchema,
  messageAnswer,
} from "@atende/contracts";
import { authOf } from "../../http/auth.js";
import { parseInput } from "../../http/errors.js";
import { routes } from "../../http/route.js";
import { readMediaForm } from "../../http/upload.js";
import { type ChatsDeps, type ChatsService, createChatsService } from "./service.js";

const multipartDoc = chatMessageSendSchema.extend({
  medias: z.array(z.string().meta({ format: "binary" })).optional(),
});

export function chatsRoutes(app: FastifyInstance, chats: ChatsService) {
  const r = routes(app);
  // Any user of a company whose plan has the internal chat; the service answers 404 to non-members.
  const chat = { access: "user", plan: "useInternalChat" } as const;
  const byId = { ...chat, params: chatParam } as const;

  r.get("/chats", { ...chat, query: chatsQuerySchema, response: chatsPageSchema }, ({ auth, query }) =>
    chats.page(auth, query),
  );
  r.get("/chats/:id", { errors: ["ERR_NO_CHAT_FOUND"], ...byId, response: chatSchema }, ({ auth, params }) =>
    chats.get(auth, params.id),
  );
  r.post(
    "/chats",
    {
      errors: ["ERR_CHAT_NO_USERS", "ERR_NO_USER_FOUND"],
      ...chat,
      body: chatCreateSchema,
      status: 201,
      response: chatSchema,
    },
    ({ auth, body }) => chats.create(auth, body),
  );
  r.put(
    "/chats/:id",
    {
      errors: ["ERR_CHAT_NO_USERS", "ERR_CHAT_OWNER_ONLY", "ERR_NO_CHAT_FOUND", "ERR_NO_USER_FOUND"],
      ...byId,
      body: chatUpdateSchema,
      response: chatSchema,
    },
    ({ auth, params, body }) => chats.update(auth, params.id, body),
  );
  r.delete(
    "/chats/:id",
    { errors: ["ERR_CHAT_OWNER_ONLY", "ERR_NO_CHAT_FOUND"], ...byId, response: messageAnswer },
    ({ auth, params }) => chats.remove(auth, params.id),
  );
  r.get(
    "/chats/:id/messages",
    {
      errors: ["ERR_NO_CHAT_FOUND"],
      ...byId,
      query: chatMessagesQuerySchema,
      response: chatMessagesPageSchema,
    },
    ({ auth, params, query }) => chats.messages(auth, params.id, query.pageNumber),
  );
  r.post(
    "/chats/:id/messages",
    {
      errors: ["ERR_EMPTY_MESSAGE", "ERR_NO_CHAT_FOUND", "ERR_NO_TICKET_FOUND"],
      ...byId,
      bodyDoc: multipartDoc,
      consumes: ["application/json", "multipart/form-data"],
      status: 201,
      // One message (text, or a single file), or one per file when several are sent.
      response: z.union([chatMessageSchema, z.array(chatMessageSchema)]),
      operationId: "chats.sendMessage",
    },
    async ({ params }, req) => {
      let sent;
      if (req.isMultipart()) {
        const { files, fields } = await readMediaForm(req);
        sent = await chats.send(
          authOf(req),
          params.id,
          parseInput(chatMessageSendSchema, fields, req),
          files,
        );
      } else {
        sent = await chats.send(
          authOf(req),
          params.id,
          parseInput(chatMessageSendSchema, req.body ?? {}, req),
        );
      }
      return sent.length === 1 ? sent[0] : sent;
    },
  );
  // The body's userId is what clients of this API family send; the caller is who has read it.
  r.post(
    "/chats/:id/read",
    { errors: ["ERR_NO_CHAT_FOUND"], ...byId, body: chatReadSchema, response: chatSchema },
    ({ auth, params }) => chats.read(auth, params.id),
  );
}

/** The internal chat module: chats between colleagues, their messages, attachments and mentions. */
export async function chatsModule(
  parent: FastifyInstance,
  deps: ChatsDeps & { maxFileBytes: number },
  /** Built beforehand when a listener needs it before the routes exist (the mentions of notes). */
  chats: ChatsService = createChatsService(deps),
): Promise<ChatsService> {
  await parent.register(async (app) => {
    await app.register(multipart, {
      limits: { fileSize: deps.maxFileBytes, files: 10, fields: 10 },
      throwFileSizeLimit: true,
    });
    chatsRoutes(app, chats);
  });
  return chats;
}
