import { type Locator, type Page, expect } from "@playwright/test";
import { BRUNO, DEMO, callApi, loginAs, newPerson, shot, test } from "./helpers";

/**
 * The workspace as two agents live in it: a customer writes from the /simulator phone, Ana (Vendas)
 * answers, transfers to Suporte, Bruno (Suporte) takes it over and resolves it, and the customer's
 * next message opens a new conversation. Every step is seen in the other people's screens live.
 */

interface Whatsapp {
  id: number;
  name: string;
  provider: string;
  status: string;
  queues: { id: number; name: string }[];
}
interface Ticket {
  id: number;
  uuid: string;
  status: string;
  queueId: number | null;
  userId: number | null;
  contact: { id: number; name: string; number: string };
}
interface PhoneMessage {
  id: string;
  kind: string;
  direction: "in" | "out";
  body: string;
  quotedId: string | null;
}

const CONNECTION = "Simulador Vendas (e2e)";

/** A connected simulator connection whose only queue is Vendas, so a new conversation waits in Vendas. */
async function vendasConnection(admin: Page): Promise<Whatsapp> {
  const queues = await callApi<{ id: number; name: string }[]>(admin, "GET", "/queue");
  const vendas = queues.find((q) => q.name === "Vendas")!;
  const list = await callApi<Whatsapp[]>(admin, "GET", "/whatsapp");
  let connection = list.find((w) => w.name === CONNECTION);
  connection ??= await callApi<Whatsapp>(admin, "POST", "/whatsapp", {
    name: CONNECTION,
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
  return connection;
}

async function ticketOf(page: Page, number: string, status: string): Promise<Ticket> {
  let found: Ticket | undefined;
  await expect
    .poll(async () => {
      const res = await callApi<{ tickets: Ticket[] }>(
        page,
        "GET",
        `/tickets?searchParam=${number}&showAll=true&status=${status}`,
      );
      found = res.tickets.find((t) => t.contact.number === number);
      return Boolean(found);
    })
    .toBe(true);
  return found!;
}

const phoneView = (admin: Page, whatsappId: number, number: string) =>
  callApi<PhoneMessage[]>(admin, "GET", `/simulator/${whatsappId}/messages?number=${number}`);

const tab = (page: Page, name: RegExp | string) => page.getByRole("tab", { name });
const ticketItem = (page: Page, name: string) =>
  page.getByRole("list", { name: "Lista de atendimentos" }).getByRole("listitem").filter({ hasText: name });
const chat = (page: Page) => page.getByRole("log", { name: "Mensagens" });
const bubble = (page: Page, text: string): Locator =>
  chat(page).getByRole("article").filter({ hasText: text });

async function openList(page: Page, sub: RegExp) {
  await page.goto("/tickets");
  await tab(page, sub).click();
  await expect(tab(page, sub)).toHaveAttribute("aria-selected", "true");
}

async function badge(page: Page, sub: RegExp): Promise<number> {
  const match = /(\d+)\s*$/.exec((await tab(page, sub).innerText()).trim());
  return match ? Number(match[1]) : 0;
}

/** The phone on /simulator: pick the connection, type the customer's number and name. */
async function openPhone(page: Page, connection: string, number: string, name: string) {
  await page.goto("/simulator");
  await page.getByRole("combobox", { name: "Conexão" }).click();
  await page.getByRole("option", { name: connection }).click();
  await page.getByRole("textbox", { name: "Número do cliente" }).fill(`+${number}`);
  await page.getByRole("textbox", { name: "Nome do cliente" }).fill(name);
}

async function phoneTypes(page: Page, text: string) {
  await page.getByRole("textbox", { name: "Mensagem" }).fill(text);
  await page.getByRole("button", { name: "Enviar" }).click();
}

const phoneConversation = (page: Page) => page.getByRole("list", { name: "Conversa" });

test("two agents and a customer: answer, transfer, take over, resolve, and a new conversation", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const customer = `Joana ${stamp}`;
  const number = `55117${String(stamp).slice(-8)}`;
  const friend = `55116${String(stamp).slice(-8)}`;

  const admin = await newPerson(browser);
  await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
  const connection = await vendasConnection(admin.page);

  const ana = await newPerson(browser);
  await loginAs(ana.page, DEMO.ana.email, DEMO.ana.password);
  await openList(ana.page, /^Aguardando/);
  const anaWaiting = await badge(ana.page, /^Aguardando/);

  const bruno = await newPerson(browser);
  await loginAs(bruno.page, BRUNO.email, BRUNO.password);
  await openList(bruno.page, /^Aguardando/);

  // The customer writes from the simulated phone (the admin plays the phone on /simulator).
  const phone = admin.page;
  await openPhone(phone, CONNECTION, number, customer);
  await phoneTypes(phone, "Oi! Vocês entregam em Campinas?");
  const firstMessage = phoneConversation(phone)
    .getByRole("listitem")
    .filter({ hasText: "Vocês entregam em Campinas?" })
    .first();
  await expect(firstMessage.getByRole("img", { name: "Entregue" })).toBeVisible();

  // It waits in Vendas: Ana sees it live with its badge; Bruno (Suporte) does not.
  const waiting = ticketItem(ana.page, customer);
  await expect(waiting).toBeVisible();
  await expect.poll(() => badge(ana.page, /^Aguardando/)).toBe(anaWaiting + 1);
  await expect(ticketItem(bruno.page, customer)).toHaveCount(0);
  await shot(ana.page, "workspace-1-waiting");

  // Ana accepts from the list; the chat opens and the phone's message turns read.
  await waiting.getByRole("button", { name: `Aceitar: ${customer}` }).click();
  await expect(ana.page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  await expect(ana.page.getByText("Atribuído a Ana")).toBeVisible();
  await expect(firstMessage.getByRole("img", { name: "Lida" })).toBeVisible();
  const anaId = (await ticketOf(phone, number, "open")).userId;

  // Text, an image and a reply to the customer's question.
  const box = ana.page.getByRole("textbox", { name: "Mensagem" });
  await box.fill("Entregamos sim! Em até 2 dias úteis.");
  await box.press("Enter");
  await expect(bubble(ana.page, "Em até 2 dias úteis.")).toBeVisible();
  await ana.page
    .locator('input[type="file"]')
    .first()
    .setInputFiles({
      name: "tabela.png",
      mimeType: "image/png",
      buffer: Buffer.from(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
        "base64",
      ),
    });
  const attach = ana.page.getByRole("dialog", { name: "Enviar 1 arquivo" });
  await attach.getByLabel("Legenda").fill("Tabela de frete");
  await attach.getByRole("button", { name: "Enviar" }).click();
  await expect(bubble(ana.page, "Tabela de frete")).toBeVisible();
  const question = bubble(ana.page, "Vocês entregam em Campinas?");
  await question.hover();
  await question.getByRole("button", { name: "Opções da mensagem" }).click();
  await ana.page.getByRole("menuitem", { name: "Responder" }).click();
  await box.fill("Campinas está na nossa área.");
  await box.press("Enter");
  await expect(
    bubble(ana.page, "Campinas está na nossa área.").getByRole("button", {
      name: "Ir para a mensagem respondida",
    }),
  ).toBeVisible();

  // The phone shows all three, the reply quoting the customer's question.
  await expect(phoneConversation(phone).getByText("Em até 2 dias úteis.", { exact: false })).toBeVisible();
  await expect(phoneConversation(phone).getByText("Tabela de frete")).toBeVisible();
  await expect(phoneConversation(phone).getByText("Campinas está na nossa área.")).toBeVisible();
  const view = await phoneView(phone, connection.id, number);
  expect(view.filter((m) => m.direction === "out").map((m) => m.body)).toEqual([
    expect.stringContaining("Em até 2 dias úteis."),
    expect.stringContaining("Tabela de frete"),
    expect.stringContaining("Campinas está na nossa área."),
  ]);
  expect(view.at(-1)!.quotedId).toBeTruthy();
  await shot(phone, "workspace-2-phone");

  // Reactions both ways: the customer reacts to Ana's answer, Ana reacts to the customer's question.
  const answerOnPhone = phoneConversation(phone)
    .getByRole("listitem")
    .filter({ hasText: "Em até 2 dias úteis." });
  await answerOnPhone.hover();
  await answerOnPhone.getByRole("button", { name: "Ações da mensagem" }).click();
  await phone.getByRole("menuitem", { name: "Reagir com ❤️" }).click();
  await expect(
    bubble(ana.page, "Em até 2 dias úteis.").getByRole("button", { name: "Reações: ❤️" }),
  ).toBeVisible();
  const questionRow = chat(ana.page).locator("[data-message-id]").filter({ hasText: "Campinas?" }).first();
  await questionRow.hover();
  await questionRow.getByRole("button", { name: "Reagir" }).click();
  await ana.page.getByRole("button", { name: "Reagir com 👍" }).click();
  await expect(firstMessage).toContainText("👍");
  const reacted = await phoneView(phone, connection.id, number);
  expect(reacted).toContainEqual(
    expect.objectContaining({ kind: "reaction", direction: "out", body: "👍", quotedId: reacted[0]!.id }),
  );

  // Forward: the customer's friend gets Ana's answer on their own phone.
  await callApi(phone, "POST", `/simulator/${connection.id}/messages`, {
    from: friend,
    name: `Amigo ${stamp}`,
    body: "Oi",
  });
  const friendTicket = await ticketOf(phone, friend, "pending");
  await callApi(ana.page, "PUT", `/tickets/${friendTicket.id}`, { status: "open", userId: anaId });
  const answer = bubble(ana.page, "Em até 2 dias úteis.");
  await answer.hover();
  await answer.getByRole("button", { name: "Opções da mensagem" }).click();
  await ana.page.getByRole("menuitem", { name: "Encaminhar" }).click();
  await ana.page.getByRole("button", { name: "Encaminhar", exact: true }).click();
  const forward = ana.page.getByRole("dialog", { name: "Encaminhar 1 mensagem" });
  await forward.getByRole("textbox", { name: "Buscar contato" }).fill(`Amigo ${stamp}`);
  await forward.getByRole("list", { name: "Contatos" }).getByText(`Amigo ${stamp}`).click();
  await expect(ana.page.getByText(`Mensagem encaminhada para Amigo ${stamp}.`)).toBeVisible();
  await expect
    .poll(async () =>
      (await phoneView(phone, connection.id, friend)).some(
        (m) => m.direction === "out" && m.body.includes("Em até 2 dias úteis."),
      ),
    )
    .toBe(true);

  // Ana transfers to Suporte without choosing an agent: it waits in Suporte, and Bruno sees it live.
  await ana.page.getByRole("button", { name: "Transferir" }).first().click();
  const transfer = ana.page.getByRole("dialog", { name: "Transferir atendimento" });
  await transfer.getByRole("combobox", { name: "Fila" }).click();
  await ana.page.getByRole("option", { name: "Suporte" }).click();
  await transfer.getByRole("button", { name: "Transferir" }).click();
  await expect(ana.page).toHaveURL(/\/tickets$/);
  const atSupport = ticketItem(bruno.page, customer);
  await expect(atSupport).toBeVisible();
  await expect(atSupport).toContainText("Suporte");

  // Ana can no longer open it.
  const transferred = await ticketOf(phone, number, "pending");
  await ana.page.goto(`/tickets/${transferred.uuid}`);
  await expect(ana.page.getByText("Acesso não permitido")).toBeVisible();
  await expect(ana.page).toHaveURL(/\/tickets$/);

  // Bruno accepts, sees the whole conversation, answers and resolves.
  await atSupport.getByRole("button", { name: `Aceitar: ${customer}` }).click();
  await expect(bruno.page.getByText("Atribuído a Bruno")).toBeVisible();
  await expect(bubble(bruno.page, "Campinas está na nossa área.")).toBeVisible();
  const brunoBox = bruno.page.getByRole("textbox", { name: "Mensagem" });
  await brunoBox.fill("Sou o Bruno, do suporte. Algo mais?");
  await brunoBox.press("Enter");
  await expect(phoneConversation(phone).getByText("Algo mais?", { exact: false })).toBeVisible();
  await shot(bruno.page, "workspace-3-bruno");
  await bruno.page.getByRole("button", { name: "Resolver" }).first().click();
  await expect(bruno.page).toHaveURL(/\/tickets$/);
  await expect
    .poll(async () => (await callApi<Ticket>(phone, "GET", `/tickets/${transferred.id}`)).status)
    .toBe("closed");

  // The customer writes again: a new waiting conversation (in Vendas, the connection's queue),
  // and its chat shows where the previous one ended and this one started.
  await phoneTypes(phone, "Obrigada! Mais uma dúvida: qual o prazo de troca?");
  const next = ticketItem(ana.page, customer);
  await openList(ana.page, /^Aguardando/);
  await expect(next).toBeVisible();
  const reopened = await ticketOf(phone, number, "pending");
  expect(reopened.id).not.toBe(transferred.id);
  await next.getByRole("button", { name: `Aceitar: ${customer}` }).click();
  await expect(bubble(ana.page, "qual o prazo de troca?")).toBeVisible();
  // The earlier conversation ended in Suporte: Ana, of Vendas, is not shown it (history follows the queues).
  await expect(bubble(ana.page, "Campinas está na nossa área.")).toHaveCount(0);
  await expect(chat(ana.page).getByText(/Conversa encerrada/)).toHaveCount(0);
  await shot(ana.page, "workspace-4-new-conversation");
  // The admin sees all of it, with where the previous conversation ended and this one started.
  await admin.page.goto(`/tickets/${reopened.uuid}`);
  await expect(chat(admin.page).getByText(/Conversa encerrada/)).toBeVisible();
  await expect(
    chat(admin.page)
      .getByText(/Conversa iniciada/)
      .last(),
  ).toBeVisible();
  await expect(bubble(admin.page, "Campinas está na nossa área.")).toBeVisible();
  await shot(admin.page, "workspace-5-admin-history");

  for (const person of [admin, ana, bruno]) await person.context.close();
});
