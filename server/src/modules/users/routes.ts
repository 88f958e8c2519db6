import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  idParam,
  listQuerySchema,
  userCreateSchema,
  userSchema,
  userUpdateSchema,
  usersPageSchema,
} from "@atende/contracts";
import type { Config } from "../../config.js";
import { routes } from "../../http/route.js";
import { setRefreshCookie } from "../sessions/cookie.js";
import { type UsersService, createUsersService } from "./service.js";

export function usersRoutes(app: FastifyInstance, users: UsersService, config: Config) {
  const r = routes(app);
  const manage = "users-page:manage";
  r.get("/users", { access: manage, query: listQuerySchema, response: usersPageSchema }, ({ auth, query }) =>
    users.page(auth, query),
  );
  r.get(
    "/users/list",
    { access: "user", operationId: "users.listAll", response: z.array(userSchema) },
    ({ auth }) => users.list(auth),
  );
  // Anyone reads and edits themselves; the service asks users-page:manage for others.
  r.get(
    "/users/:id",
    {
      errors: ["ERR_NO_PERMISSION", "ERR_NO_USER_FOUND"],
      access: "user",
      params: idParam,
      response: userSchema,
    },
    ({ auth, params }) => users.get(auth, params.id),
  );
  r.post(
    "/users",
    {
      errors: ["ERR_EMAIL_ALREADY_EXISTS", "ERR_NO_QUEUE_FOUND", "ERR_PLAN_USER_LIMIT"],
      access: manage,
      body: userCreateSchema,
      status: 201,
      response: userSchema,
    },
    ({ auth, body }) => users.create(auth, body),
  );
  r.put(
    "/users/:id",
    {
      errors: [
        "ERR_EMAIL_ALREADY_EXISTS",
        "ERR_INVALID_CREDENTIALS",
        "ERR_LAST_ADMIN",
        "ERR_NO_PERMISSION",
        "ERR_NO_USER_FOUND",
      ],
      access: "user",
      params: idParam,
      body: userUpdateSchema,
      response: userSchema,
    },
    async ({ auth, params, body }, req, reply) => {
      const { user, session } = await users.update(auth, params.id, body);
      // One's own new password: this session lives on with a fresh refresh token; all others ended.
      if (session) setRefreshCookie(reply, req, config, session);
      return user;
    },
  );
  r.delete(
    "/users/:id",
    { errors: ["ERR_CANNOT_DELETE_SELF", "ERR_NO_USER_FOUND"], access: manage, params: idParam, status: 204 },
    ({ auth, params }) => users.remove(auth, params.id),
  );
}

/** The users module: the users page and one's own profile. */
export async function usersModule(
  app: FastifyInstance,
  deps: Parameters<typeof createUsersService>[0],
): Promise<UsersService> {
  const users = createUsersService(deps);
  usersRoutes(app, users, deps.config);
  return users;
}
