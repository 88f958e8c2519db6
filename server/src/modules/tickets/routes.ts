import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  TICKET_PAGE_SIZE,
  closeAllSchema,
  idParam,
  ticketCreateSchema,
  ticketListQuerySchema,
  ticketSchema,
  ticketUpdateSchema,
  ticketsPageSchema,
  uuidValue,
} from "@atende/contracts";
import { routes } from "../../http/route.js";
import { type TicketsService, createTicketsService } from "./service.js";

const uuidParam = z.object({ uuid: uuidValue });
/** POST /tickets/closeAll: how many tickets it closed. */
const closeAllAnswer = z.object({ closed: z.number().int().nonnegative() });

export function ticketsRoutes(app: FastifyInstance, tickets: TicketsService) {
  const r = routes(app);
  // Who sees which ticket is the service's (queues, showAll, spy): a ticket out of sight is a 404.
  const byId = { access: "user", params: idParam, response: ticketSchema } as const;
  r.get(
    "/tickets",
    {
      access: "user",
      query: ticketListQuerySchema,
      response: ticketsPageSchema,
      summary: `The tickets the caller sees, newest activity first, ${TICKET_PAGE_SIZE} a page`,
      examples: {
        open: {
          summary: "Open tickets of two queues, second page",
          value: { status: "open", queueIds: [1, 2], pageNumber: 2 },
        },
        search: {
          summary: "Pending tickets whose contact or messages match a text",
          value: { status: "pending", searchParam: "boleto", showAll: true },
        },
      },
    },
    ({ auth, query }) => tickets.list(auth, query),
  );
  r.get(
    "/tickets/u/:uuid",
    {
      errors: ["ERR_NO_TICKET_FOUND", "ERR_TICKET_ACCESS_DENIED"],
      access: "user",
      params: uuidParam,
      response: ticketSchema,
      operationId: "tickets.getByUuid",
      summary: "A ticket by its uuid",
    },
    ({ auth, params }) => tickets.getByUuid(auth, params.uuid),
  );
  r.get(
    "/tickets/:id",
    { errors: ["ERR_NO_TICKET_FOUND", "ERR_TICKET_ACCESS_DENIED"], ...byId, summary: "A ticket" },
    ({ auth, params }) => tickets.get(auth, params.id),
  );
  r.post(
    "/tickets",
    {
      errors: [
        "ERR_CREATING_TICKET",
        "ERR_NO_CONTACT_FOUND",
        "ERR_NO_PERMISSION",
        "ERR_NO_QUEUE_FOUND",
        "ERR_NO_USER_FOUND",
        "ERR_NO_WAPP_FOUND",
        "ERR_OTHER_OPEN_TICKET",
      ],
      access: "user",
      body: ticketCreateSchema,
      status: 201,
      response: ticketSchema,
      summary: "Open a ticket for a contact",
    },
    ({ auth, body }) => tickets.create(auth, body),
  );
  r.post(
    "/tickets/closeAll",
    { access: "tickets-manager:closeAll", body: closeAllSchema, response: closeAllAnswer },
    async ({ auth, body }) => ({
      closed: await tickets.closeAll(auth, body.status, body.selectedQueueIds),
    }),
  );
  r.put(
    "/tickets/:id",
    {
      errors: [
        "ERR_NO_PERMISSION",
        "ERR_NO_QUEUE_FOUND",
        "ERR_NO_TICKET_FOUND",
        "ERR_NO_USER_FOUND",
        "ERR_NO_WAPP_FOUND",
        "ERR_OTHER_OPEN_TICKET",
        "ERR_PLAN_FEATURE_DISABLED",
        "ERR_TICKET_ACCESS_DENIED",
      ],
      ...byId,
      body: ticketUpdateSchema,
      summary: "Accept, transfer, return to pending or close a ticket",
    },
    ({ auth, params, body }) => tickets.update(auth, params.id, body),
  );
  r.delete(
    "/tickets/:id",
    {
      errors: ["ERR_NO_TICKET_FOUND"],
      access: "ticket-options:deleteTicket",
      params: idParam,
      status: 204,
      summary: "Delete a ticket and its messages",
    },
    ({ auth, params }) => tickets.remove(auth, params.id),
  );
}

/** The tickets module: the ticket list, opening, changing and closing tickets. */
export async function ticketsModule(
  app: FastifyInstance,
  deps: Parameters<typeof createTicketsService>[0],
): Promise<TicketsService> {
  const tickets = createTicketsService(deps);
  ticketsRoutes(app, tickets);
  return tickets;
}
