import type { FastifyInstance } from "fastify";
import {
  idParam,
  kanbanQuerySchema,
  listQuerySchema,
  tagCreateSchema,
  tagSyncSchema,
  tagUpdateSchema,
  ticketIdParam,
  ticketTagParams,
} from "@atende/contracts";
import { authOf } from "../../http/auth.js";
import { parseInput } from "../../http/errors.js";
import { type TagsDeps, type TagsService, createTagsService } from "./service.js";

export function tagsRoutes(app: FastifyInstance, tags: TagsService) {
  app.get("/tags", async (req) => tags.page(authOf(req), parseInput(listQuerySchema, req.query, req)));
  app.get("/tags/list", async (req) => tags.list(authOf(req)));
  app.get("/tags/kanban", async (req) => tags.kanbanTags(authOf(req)));
  app.get("/tags/:id", async (req) => tags.get(authOf(req), parseInput(idParam, req.params, req).id));
  app.post("/tags", async (req, reply) =>
    reply.status(201).send(await tags.create(authOf(req), parseInput(tagCreateSchema, req.body, req))),
  );
  app.post("/tags/sync", async (req) => tags.sync(authOf(req), parseInput(tagSyncSchema, req.body, req)));
  app.put("/tags/:id", async (req) =>
    tags.update(
      authOf(req),
      parseInput(idParam, req.params, req).id,
      parseInput(tagUpdateSchema, req.body, req),
    ),
  );
  app.delete("/tags/:id", async (req, reply) => {
    await tags.remove(authOf(req), parseInput(idParam, req.params, req).id);
    return reply.status(204).send();
  });

  app.get("/ticket/kanban", async (req) =>
    tags.board(authOf(req), parseInput(kanbanQuerySchema, req.query, req)),
  );
  app.delete("/ticket-tags/:ticketId", async (req) =>
    tags.leaveLane(authOf(req), parseInput(ticketIdParam, req.params, req).ticketId),
  );
  app.put("/ticket-tags/:ticketId/:tagId", async (req) => {
    const { ticketId, tagId } = parseInput(ticketTagParams, req.params, req);
    return tags.addTag(authOf(req), ticketId, tagId);
  });
}

/** The tags module behind the auth hook: tags, the chat's tag sync and the kanban board. */
export function tagsModule(app: FastifyInstance, deps: TagsDeps): TagsService {
  const tags = createTagsService(deps);
  tagsRoutes(app, tags);
  return tags;
}
