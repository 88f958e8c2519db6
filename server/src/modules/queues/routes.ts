import type { FastifyInstance } from "fastify";
import { asc, eq } from "drizzle-orm";
import type { QueueDTO } from "@atende/contracts";
import type { Db } from "../../db/client.js";
import { queues } from "../../db/schema/index.js";
import { authOf } from "../../http/auth.js";

/** The company's queues, for pickers. Creating and editing queues is the queues page's work. */
export function listQueues(db: Db, companyId: number): Promise<QueueDTO[]> {
  return db
    .select({ id: queues.id, name: queues.name, color: queues.color })
    .from(queues)
    .where(eq(queues.companyId, companyId))
    .orderBy(asc(queues.name));
}

export function queuesRoutes(app: FastifyInstance, db: Db) {
  app.get("/queue", async (req) => listQueues(db, authOf(req).companyId));
}
