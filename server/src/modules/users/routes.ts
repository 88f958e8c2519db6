import type { FastifyInstance } from "fastify";
import { idParam, listQuerySchema, userCreateSchema, userUpdateSchema } from "@atende/contracts";
import { authOf } from "../../http/auth.js";
import { parseInput } from "../../http/errors.js";
import type { Config } from "../../config.js";
import { setRefreshCookie } from "../auth/routes.js";
import type { UsersService } from "./service.js";

export function usersRoutes(app: FastifyInstance, users: UsersService, config: Config) {
  app.get("/users", async (req) => users.page(authOf(req), parseInput(listQuerySchema, req.query, req)));
  app.get("/users/list", async (req) => users.list(authOf(req)));
  app.get("/users/:id", async (req) => users.get(authOf(req), parseInput(idParam, req.params, req).id));
  app.post("/users", async (req, reply) => {
    const user = await users.create(authOf(req), parseInput(userCreateSchema, req.body, req));
    return reply.status(201).send(user);
  });
  app.put("/users/:id", async (req, reply) => {
    const { user, session } = await users.update(
      authOf(req),
      parseInput(idParam, req.params, req).id,
      parseInput(userUpdateSchema, req.body, req),
    );
    // One's own new password: this session lives on with a fresh refresh token; all others ended.
    if (session) setRefreshCookie(reply, req, config, session);
    return user;
  });
  app.delete("/users/:id", async (req, reply) => {
    await users.remove(authOf(req), parseInput(idParam, req.params, req).id);
    return reply.status(204).send();
  });
}
