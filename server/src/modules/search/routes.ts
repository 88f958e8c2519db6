import type { FastifyInstance } from "fastify";
import { paletteResultsSchema, paletteSearchQuerySchema } from "@atende/contracts";
import { routes } from "../../http/route.js";
import { type SearchDeps, createSearchService } from "./service.js";

/** The command palette's search (Ctrl/Cmd+K): tickets and contacts as the caller may see them. */
export async function searchModule(app: FastifyInstance, deps: SearchDeps) {
  const search = createSearchService(deps);
  routes(app).get(
    "/search",
    { access: "user", query: paletteSearchQuerySchema, response: paletteResultsSchema },
    ({ auth, query }) => search.search(auth, query.q),
  );
  return search;
}
