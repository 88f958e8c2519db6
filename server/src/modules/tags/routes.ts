import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  idParam,
  kanbanPageSchema,
  kanbanQuerySchema,
  listQuerySchema,
  tagCreateSchema,
  tagSchema,
  tagSyncSchema,
  tagUpdateSchema,
  tagsPageSchema,
  ticketSchema,
  ticketIdParam,
  ticketTagParams,
} from "@atende/contracts";
import { routes } from "../../http/route.js";
import { type TagsDeps, type TagsService, createTagsService } from "./service.js";

export function tagsRoutes(app: FastifyInstance, tags: TagsService) {
  const r = routes(app);
  r.get("/tags", { access: "user", query: listQuerySchema, response: tagsPageSchema }, ({ auth, query }) =>
    tags.page(auth, query),
  );
  r.get(
    "/tags/list",
    { access: "user", operationId: "tags.listAll", response: z.array(tagSchema) },
    ({ auth }) => tags.list(auth),
  );
  // The board's lanes: a kanban feature (setting `kanban` on a tag is checked by the service).
  r.get(
    "/tags/kanban",
    { access: "user", plan: "useKanban", response: z.object({ lista: z.array(tagSchema) }) },
    ({ auth }) => tags.kanbanTags(auth),
  );
  r.get(
    "/tags/:id",
    { errors: ["ERR_NO_TAG_FOUND"], access: "user", params: idParam, response: tagSchema },
    ({ auth, params }) => tags.get(auth, params.id),
  );
  r.post(
    "/tags",
    {
      access: "user",
      body: tagCreateSchema,
      status: 201,
      response: tagSchema,
      errors: ["ERR_NO_PERMISSION", "ERR_PLAN_FEATURE_DISABLED", "ERR_TAG_NAME_TAKEN"],
    },
    ({ auth, body }) => tags.create(auth, body),
  );
  r.post(
    "/tags/sync",
    {
      errors: ["ERR_NO_TAG_FOUND", "ERR_NO_TICKET_FOUND", "ERR_TICKET_ACCESS_DENIED"],
      access: "user",
      body: tagSyncSchema,
      response: ticketSchema,
    },
    ({ auth, body }) => tags.sync(auth, body),
  );
  r.put(
    "/tags/:id",
    {
      errors: ["ERR_NO_PERMISSION", "ERR_NO_TAG_FOUND", "ERR_PLAN_FEATURE_DISABLED", "ERR_TAG_NAME_TAKEN"],
      access: "user",
      params: idParam,
      body: tagUpdateSchema,
      response: tagSchema,
    },
    ({ auth, params, body }) => tags.update(auth, params.id, body),
  );
  r.delete(
    "/tags/:id",
    { errors: ["ERR_NO_TAG_FOUND"], access: "user", params: idParam, status: 204 },
    ({ auth, params }) => tags.remove(auth, params.id),
  );

  // The board and its moves: the guard refuses a plan without useKanban (ERR_PLAN_FEATURE_DISABLED).
  const kanban = { access: "user", plan: "useKanban" } as const;
  r.get(
    "/ticket/kanban",
    { ...kanban, query: kanbanQuerySchema, response: kanbanPageSchema },
    ({ auth, query }) => tags.board(auth, query),
  );
  r.delete(
    "/ticket-tags/:ticketId",
    {
      errors: ["ERR_NO_TICKET_FOUND", "ERR_TICKET_ACCESS_DENIED"],
      ...kanban,
      params: ticketIdParam,
      response: ticketSchema,
    },
    ({ auth, params }) => tags.leaveLane(auth, params.ticketId),
  );
  r.put(
    "/ticket-tags/:ticketId/:tagId",
    {
      errors: ["ERR_NO_TAG_FOUND", "ERR_NO_TICKET_FOUND", "ERR_TICKET_ACCESS_DENIED"],
      ...kanban,
      params: ticketTagParams,
      response: ticketSchema,
    },
    ({ auth, params }) => tags.addTag(auth, params.ticketId, params.tagId),
  );
}

/** The tags module: tags, the chat's tag sync and the kanban board. */
export async function tagsModule(app: FastifyInstance, deps: TagsDeps): Promise<TagsService> {
  const tags = createTagsService(deps);
  tagsRoutes(app, tags);
  return tags;
}
