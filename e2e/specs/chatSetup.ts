import { DEMO, callApi, loginAs, newPerson } from "./helpers";
import { type Browser, type Page, expect } from "@playwright/test";

/** What the chat specs share: API calls as a logged-in person, and a customer writing in. */

export { callApi };

export interface Queue {
  id: number;
  name: string;
}
export interface Whatsapp {
  id: number;
  provider: string;
  status: string;
  queues: Queue[];
}
export interface Ticket {
  id: number;
  uuid: string;
  status: string;
  contactId: number;
  contact: { name: string; number: string };
}
export interface Message {
  id: number;
  body: string;
  fromMe: boolean;
  quotedMsg: { id: number } | null;
}

/** A connected simulator connection whose only queue is Vendas: a customer's message waits in Vendas. */
export async function vendasConnection(admin: Page): Promise<number> {
  const vendas = (await callApi<Queue[]>(admin, "GET", "/queue")).find((q) => q.name === "Vendas");
  if (!vendas) throw new Error("the demo queue Vendas is missing");
  const list = await callApi<Whatsapp[]>(admin, "GET", "/whatsapp");
  let connection = list.find(
    (w) => w.provider === "simulator" && w.queues.length === 1 && w.queues[0]!.id === vendas.id,
  );
  connection ??= await callApi<Whatsapp>(admin, "POST", "/whatsapp", {
    name: "Simulador Vendas (e2e)",
    provider: "simulator",
    queueIds: [vendas.id],
  });
  if (connection.status !== "CONNECTED") {
    await callApi(admin, "POST", `/simulator/${connection.id}/scan`);
    const id = connection.id;
    await expect
      .poll(
        async () => (await callApi<Whatsapp[]>(admin, "GET", "/whatsapp")).find((w) => w.id === id)?.status,
      )
      .toBe("CONNECTED");
  }
  return connection.id;
}

/** The customer's phone writes to the connection (the simulator's HTTP API). */
export function customerSends(admin: Page, whatsappId: number, input: Record<string, unknown>) {
  return callApi(admin, "POST", `/simulator/${whatsappId}/messages`, input);
}

/** The customer's ticket in the given status, once it is there. */
export async function ticketOf(admin: Page, number: string, status: string): Promise<Ticket> {
  let found: Ticket | undefined;
  await expect
    .poll(async () => {
      const page = await callApi<{ tickets: Ticket[] }>(
        admin,
        "GET",
        `/tickets?searchParam=${number}&showAll=true&status=${status}`,
      );
      found = page.tickets.find((t) => t.contact.number === number);
      return Boolean(found);
    })
    .toBe(true);
  return found!;
}

export function waitingTicketOf(admin: Page, number: string): Promise<Ticket> {
  return ticketOf(admin, number, "pending");
}

/**
 * The admin logs in, and a customer writes once on the Vendas connection: the admin's browser,
 * the connection and the customer's ticket, waiting in Vendas.
 */
export async function customerWaiting(
  browser: Browser,
  customer: { name: string; number: string; body: string },
) {
  const admin = await newPerson(browser);
  await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
  const whatsappId = await vendasConnection(admin.page);
  await customerSends(admin.page, whatsappId, {
    from: customer.number,
    name: customer.name,
    body: customer.body,
  });
  const ticket = await waitingTicketOf(admin.page, customer.number);
  return { admin, whatsappId, ticket };
}

/** A 240×160 checkered PNG, as a phone photo would be. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAPAAAACgCAIAAAC9uXYyAAACOklEQVR42u3bsQ0AEBRFUcvYVGUSY5qAgmi8k+hP8v5tlTra+esXj8t94BZDcwVtaK6gHZgraC5X0FxBG5oraENzBe3AXEFzuYLmCtrQXEEbmitoLlfQXK6guYI2NFfQhuYKmssVNJe7DtpY3I9cQXMFbWiuoB2YK2guV9BcQRuaK2hDcwXtwFxBc7mC5gra0FxBG5oraAfmCprLFTRX0IbmCtrQXEFzuYLmcjdBG4vr17ehuYJ2YK6guVxBcwVtaK6gDc0VtANzBc3lCporaENzBW1orqC5XEFzuYLmCtrQXEEbmitoLlfQXK6guRlBG4vr17ehuYJ2YK6guVxBcwVtaK6gDc0VtANzBc3lCporaENzBW1orqC5XEFzuYLmCtrQXEEbmitoLlfQXK6guRlBG4vr17ehuYJ2YK6guVxBcwVtaK6gDc0VtANzBc3lCporaENzBW1orqC5XEFzuYLmCtrQXEEbmitoLlfQXK6guRlBG4vr17ehuYJ2YK6guVxBcwVtaK6gDc0VtANzBc3lCporaENzBW1orqC5XEFzuYLmCtrQXEEbmitoLlfQXK6guRlBG4vr17ehuYJ2YK6guVxBcwVtaK6gDc0VtANzBc3lCporaENzBW1orqC5XEFzuYLmCtrQXEEbmitoLlfQXK6guRlBG4vr17ehuYJ2YK6guVxBcwVtaK6gDc0VtANzBc3lCporaENzBW1orqC5XEFzuYLmCtrQXEEbmitoLlfQXK6guQnuBDtptwX6GkYKAAAAAElFTkSuQmCC",
  "base64",
);
