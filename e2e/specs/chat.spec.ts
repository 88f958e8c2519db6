import { type Locator, type Page, expect, test } from "@playwright/test";
import { DEMO, loginAs, newPerson, shot } from "./helpers";

const BRUNO = { email: "bruno@atende.demo", password: "Agente123" };

/** A call to the API as the user logged in on `page` (their token, from the app's storage). */
async function callApi<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const token = JSON.parse(localStorage.getItem("token") ?? "null") as string;
      const res = await fetch(url, {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    },
    { method, url, body },
  );
}

interface Queue {
  id: number;
  name: string;
}
interface Whatsapp {
  id: number;
  provider: string;
  status: string;
  queues: Queue[];
}
interface Ticket {
  id: number;
  uuid: string;
  status: string;
  contact: { name: string; number: string };
}
interface Message {
  id: number;
  body: string;
  fromMe: boolean;
  quotedMsg: { id: number } | null;
}

/** A connected simulator connection whose only queue is Vendas: a customer's message waits in Vendas. */
async function vendasConnection(admin: Page): Promise<number> {
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
function customerSends(admin: Page, whatsappId: number, input: Record<string, unknown>) {
  return callApi(admin, "POST", `/simulator/${whatsappId}/messages`, input);
}

async function waitingTicketOf(admin: Page, number: string): Promise<Ticket> {
  let found: Ticket | undefined;
  await expect
    .poll(async () => {
      const page = await callApi<{ tickets: Ticket[] }>(
        admin,
        "GET",
        `/tickets?searchParam=${number}&showAll=true&status=pending`,
      );
      found = page.tickets.find((t) => t.contact.number === number);
      return Boolean(found);
    })
    .toBe(true);
  return found!;
}

function chat(page: Page): Locator {
  return page.getByRole("log", { name: "Mensagens" });
}

function bubble(page: Page, text: string): Locator {
  return chat(page).getByRole("article").filter({ hasText: text });
}

/** A 240×160 checkered PNG, as a phone photo would be. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAPAAAACgCAIAAAC9uXYyAAACOklEQVR42u3bsQ0AEBRFUcvYVGUSY5qAgmi8k+hP8v5tlTra+esXj8t94BZDcwVtaK6gHZgraC5X0FxBG5oraENzBe3AXEFzuYLmCtrQXEEbmitoLlfQXK6guYI2NFfQhuYKmssVNJe7DtpY3I9cQXMFbWiuoB2YK2guV9BcQRuaK2hDcwXtwFxBc7mC5gra0FxBG5oraAfmCprLFTRX0IbmCtrQXEFzuYLmcjdBG4vr17ehuYJ2YK6guVxBcwVtaK6gDc0VtANzBc3lCporaENzBW1orqC5XEFzuYLmCtrQXEEbmitoLlfQXK6guRlBG4vr17ehuYJ2YK6guVxBcwVtaK6gDc0VtANzBc3lCporaENzBW1orqC5XEFzuYLmCtrQXEEbmitoLlfQXK6guRlBG4vr17ehuYJ2YK6guVxBcwVtaK6gDc0VtANzBc3lCporaENzBW1orqC5XEFzuYLmCtrQXEEbmitoLlfQXK6guRlBG4vr17ehuYJ2YK6guVxBcwVtaK6gDc0VtANzBc3lCporaENzBW1orqC5XEFzuYLmCtrQXEEbmitoLlfQXK6guRlBG4vr17ehuYJ2YK6guVxBcwVtaK6gDc0VtANzBc3lCporaENzBW1orqC5XEFzuYLmCtrQXEEbmitoLlfQXK6guRlBG4vr17ehuYJ2YK6guVxBcwVtaK6gDc0VtANzBc3lCporaENzBW1orqC5XEFzuYLmCtrQXEEbmitoLlfQXK6guQnuBDtptwX6GkYKAAAAAElFTkSuQmCC",
  "base64",
);

test.describe("the chat window", () => {
  test("an agent accepts a waiting ticket, sends text and an image, replies, sees the customer live, ticks advance, reacts", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const stamp = Date.now();
    const customer = `Maria ${stamp}`;
    const number = `55119${String(stamp).slice(-8)}`;

    const admin = await newPerson(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    const whatsappId = await vendasConnection(admin.page);
    await customerSends(admin.page, whatsappId, {
      from: number,
      name: customer,
      body: "Olá, preciso de ajuda com meu pedido",
    });
    const ticket = await waitingTicketOf(admin.page, number);

    const ana = await newPerson(browser);
    const page = ana.page;
    await loginAs(page, DEMO.ana.email, DEMO.ana.password);
    await page.goto(`/tickets/${ticket.uuid}`);

    // Waiting: the contact's message is there, the box is closed until the ticket is accepted.
    await expect(page.getByRole("heading", { name: customer })).toBeVisible();
    await expect(bubble(page, "Olá, preciso de ajuda com meu pedido")).toBeVisible();
    await expect(page.getByText("Este atendimento está aguardando. Aceite-o para responder.")).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Mensagem" })).toHaveCount(0);
    await page.getByRole("button", { name: "Aceitar" }).first().click();
    await expect(page.getByText("Atribuído a Ana")).toBeVisible();
    await expect(page.getByRole("button", { name: "Resolver" })).toBeVisible();

    // Text: Enter sends; Shift+Enter breaks the line. The agent's name signs it by default.
    const box = page.getByRole("textbox", { name: "Mensagem" });
    await box.fill("Bom dia! Vou verificar seu pedido.");
    await box.press("Shift+Enter");
    await box.pressSequentially("Um momento, por favor.");
    await box.press("Enter");
    const sent = bubble(page, "Vou verificar seu pedido.");
    await expect(sent).toBeVisible();
    await expect(sent).toContainText("Ana:");
    await expect(sent).toContainText("Um momento, por favor.");
    await expect(box).toHaveValue("");

    // Ticks: delivered by the phone, then read once the customer opens the chat.
    await expect(sent.getByRole("img", { name: "Entregue" })).toBeVisible();
    await callApi(admin.page, "POST", `/simulator/${whatsappId}/read?number=${number}`);
    await expect(sent.getByRole("img", { name: "Lida" })).toBeVisible();

    // An image, previewed with a caption before it goes.
    await page.locator('input[type="file"]').first().setInputFiles({
      name: "pedido.png",
      mimeType: "image/png",
      buffer: PNG,
    });
    const attach = page.getByRole("dialog", { name: "Enviar 1 arquivo" });
    await expect(attach.getByRole("img", { name: "pedido.png" })).toBeVisible();
    await attach.getByLabel("Legenda").fill("Foto do seu pedido");
    await attach.getByRole("button", { name: "Enviar" }).click();
    await expect(attach).toBeHidden();
    const photo = bubble(page, "Foto do seu pedido");
    await expect(photo.getByRole("button", { name: "Abrir imagem pedido.png" })).toBeVisible();
    await expect(photo.getByRole("img", { name: "pedido.png" })).toBeVisible();

    // Reply to the customer's message, from its menu.
    const question = bubble(page, "Olá, preciso de ajuda com meu pedido");
    await question.hover();
    await question.getByRole("button", { name: "Opções da mensagem" }).click();
    await page.getByRole("menuitem", { name: "Responder" }).click();
    await expect(page.getByText(`Respondendo a ${customer}`)).toBeVisible();
    await box.fill("Claro! Qual o número do pedido?");
    await box.press("Enter");
    const reply = bubble(page, "Qual o número do pedido?");
    await expect(reply.getByRole("button", { name: "Ir para a mensagem respondida" })).toContainText(
      "Olá, preciso de ajuda com meu pedido",
    );
    await expect(page.getByText(`Respondendo a ${customer}`)).toBeHidden();
    const page1 = await callApi<{ messages: Message[] }>(page, "GET", `/messages/${ticket.id}`);
    const quoted = page1.messages.find((m) => m.body.includes("Qual o número do pedido?"))?.quotedMsg;
    expect(quoted?.id).toBe(
      page1.messages.find((m) => m.body === "Olá, preciso de ajuda com meu pedido")?.id,
    );

    // The customer writes again: it shows up without a reload, and the list follows it to the bottom.
    await customerSends(admin.page, whatsappId, { from: number, body: "É o pedido 4521, obrigada!" });
    const answer = bubble(page, "É o pedido 4521, obrigada!");
    await expect(answer).toBeVisible();
    await expect(answer).toBeInViewport();

    // React to it with a quick emoji.
    const answerRow = chat(page)
      .locator("[data-message-id]")
      .filter({ hasText: "É o pedido 4521, obrigada!" });
    await answerRow.hover();
    await answerRow.getByRole("button", { name: "Reagir" }).click();
    await page.getByRole("button", { name: "Reagir com 👍" }).click();
    await expect(answer.getByRole("button", { name: "Reações: 👍" })).toBeVisible();

    await box.focus();
    await page.mouse.move(0, 0);
    await shot(page, "chat");

    // Forward with nothing chosen gives a notice.
    await answer.getByRole("button", { name: "Opções da mensagem" }).click();
    await page.getByRole("menuitem", { name: "Encaminhar" }).click();
    await expect(page.getByText("1 selecionada")).toBeVisible();
    await page.getByRole("checkbox", { name: /Selecionar mensagem: É o pedido 4521/ }).uncheck();
    await page.getByRole("button", { name: "Encaminhar", exact: true }).click();
    await expect(page.getByText("Selecione ao menos uma mensagem para encaminhar.")).toBeVisible();
    await page.getByRole("button", { name: "Cancelar encaminhamento" }).click();
    await expect(box).toBeVisible();
    await admin.context.close();
    await ana.context.close();
  });

  test("an agent outside the ticket's queue is sent back to /tickets", async ({ browser }) => {
    const stamp = Date.now();
    const number = `55118${String(stamp).slice(-8)}`;
    const admin = await newPerson(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    const whatsappId = await vendasConnection(admin.page);
    await customerSends(admin.page, whatsappId, { from: number, name: `Pedro ${stamp}`, body: "Oi" });
    const ticket = await waitingTicketOf(admin.page, number);

    const bruno = await newPerson(browser);
    await loginAs(bruno.page, BRUNO.email, BRUNO.password);
    await bruno.page.goto(`/tickets/${ticket.uuid}`);
    await expect(bruno.page.getByText("Acesso não permitido")).toBeVisible();
    await expect(bruno.page).toHaveURL(/\/tickets$/);
    await admin.context.close();
    await bruno.context.close();
  });
});
