import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "@playwright/test";
import { DEMO, callApi, loginAs, newPerson, shot, test } from "./helpers";

/**
 * A customer talks to a Typebot flow on /simulator: the flow greets them by name and offers two
 * choices as a numbered list, the customer answers with a number, the flow's command bubble hands
 * the ticket to a queue, and an agent takes over from the waiting list; the bot says nothing more.
 *
 * The Typebot is a small local server speaking its chat API (startChat / continueChat).
 */

interface Ticket {
  id: number;
  status: string;
  userId: number | null;
  queue: { name: string } | null;
  contact: { number: string };
}

const pageErrors: string[] = [];
test.beforeEach(() => {
  pageErrors.length = 0;
});
test.afterEach(() => {
  expect(pageErrors).toEqual([]);
});

/** Typebot's chat API for one flow; `supportQueueId` is where its command bubble sends "Suporte". */
async function startTypebot(token: string) {
  const calls: { path: string; auth?: string; body: Record<string, unknown> }[] = [];
  const state = { supportQueueId: 0 };
  const bubble = (markdown: string) => ({
    id: String(Math.random()),
    type: "text",
    content: { type: "markdown", markdown },
  });
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += String(c)));
    req.on("end", () => {
      const body = (raw ? JSON.parse(raw) : {}) as Record<string, unknown>;
      calls.push({ path: req.url ?? "", auth: req.headers.authorization, body });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      };
      if (req.headers.authorization !== `Bearer ${token}`) return send(401, { message: "Unauthorized" });
      if (req.url === "/api/v1/typebots/e2e-flow/startChat") {
        const name = (body.prefilledVariables as { pushName?: string }).pushName;
        return send(200, {
          sessionId: "e2e-session",
          typebot: { id: "e2e-flow", version: "6" },
          messages: [bubble(`Olá, **${name}**! Sou o assistente virtual.`)],
          input: {
            id: "i1",
            type: "choice input",
            items: [
              { id: "a", content: "Ver ofertas" },
              { id: "b", content: "Suporte" },
            ],
          },
        });
      }
      if (req.url === "/api/v1/sessions/e2e-session/continueChat") {
        const said = (body.message as { text: string }).text;
        if (said === "Suporte")
          return send(200, {
            messages: [
              bubble("Certo! Vou chamar uma pessoa do _Suporte_."),
              bubble(`#{"queueId":"${state.supportQueueId}"}`),
            ],
          });
        return send(200, {
          messages: [bubble(`Você disse: ${said}`)],
          input: { id: "i2", type: "text input" },
        });
      }
      send(404, { message: "Not found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("a customer talks to a Typebot flow, picks a choice, is handed to a queue and an agent takes over", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const typebot = await startTypebot("e2e-typebot-token");
  const suffix = Date.now() % 100000;
  const number = `55117${String(Date.now()).slice(-8)}`;
  const customer = `Cliente Typebot ${suffix}`;
  const { context, page } = await newPerson(browser);
  page.on("pageerror", (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  // The app is shared with the specs after this one: its connection goes when it ends.
  let connectionId: number | undefined;
  try {
    await loginAs(page, DEMO.admin.email, DEMO.admin.password);
    const queues: { id: number; name: string }[] = [];
    for (const [i, name] of [`Ofertas ${suffix}`, `Assistência ${suffix}`].entries())
      queues.push(
        await callApi(page, "POST", "/queue", {
          name,
          color: `#${(0x203040 + i * 0x101010).toString(16)}`,
          greetingMessage: "",
        }),
      );
    typebot.state.supportQueueId = queues[1]!.id;
    const integration = await callApi<{ id: number }>(page, "POST", "/queueIntegration", {
      type: "typebot",
      name: `Typebot ${suffix}`,
      urlN8N: typebot.url,
      typebotSlug: "e2e-flow",
      typebotExpires: 10,
      typebotDelayMessage: 300,
      authToken: "e2e-typebot-token",
    });
    const connectionName = `Bot ${suffix}`;
    const connection = await callApi<{ id: number }>(page, "POST", "/whatsapp", {
      name: connectionName,
      provider: "simulator",
      greetingMessage: "Olá! Escolha um setor:",
      queueIds: queues.map((q) => q.id),
      integrationId: integration.id,
    });
    connectionId = connection.id;

    // ---- The customer on /simulator.
    await page.goto("/simulator");
    const select = page.getByRole("combobox", { name: "Conexão" });
    await select.click();
    await page.getByRole("option", { name: connectionName, exact: true }).click();
    const notConnected = page.getByRole("alert").filter({ hasText: "Esta conexão não está conectada" });
    await notConnected.getByRole("button", { name: "Escanear com o simulador" }).click();
    await expect(notConnected).toBeHidden();
    await page.getByRole("textbox", { name: "Número do cliente" }).fill(`+${number}`);
    await page.getByRole("textbox", { name: "Nome do cliente" }).fill(customer);
    const input = page.getByRole("textbox", { name: "Mensagem" });
    await expect(input).toBeEnabled();
    const bubbles = page.getByRole("list", { name: "Conversa", exact: true }).getByRole("listitem");
    async function say(text: string, count: number) {
      await input.fill(text);
      await page.getByRole("button", { name: "Enviar" }).click();
      await expect(input).toHaveValue("");
      await expect(bubbles).toHaveCount(count, { timeout: 15_000 });
    }

    // The flow greets by name (markdown bold as WhatsApp's, which the phone shows bold), then the
    // numbered choices.
    await say("oi", 3);
    await expect(bubbles.nth(1)).toContainText(`Olá, ${customer}! Sou o assistente virtual.`);
    await expect(bubbles.nth(2)).toContainText("[ 1 ] - Ver ofertas");
    await expect(bubbles.nth(2)).toContainText("[ 2 ] - Suporte");
    expect(typebot.calls[0]).toMatchObject({
      path: "/api/v1/typebots/e2e-flow/startChat",
      auth: "Bearer e2e-typebot-token",
    });
    await shot(page, "bots-phone-choices");

    // "2" picks Suporte: the flow's command bubble hands the ticket to the Suporte queue.
    await say("2", 5);
    await expect(bubbles.nth(4)).toContainText("Certo! Vou chamar uma pessoa do Suporte.");
    expect(typebot.calls.at(-1)!.body).toMatchObject({ message: { type: "text", text: "Suporte" } });
    const ticketOf = async () =>
      (
        await callApi<{ tickets: Ticket[] }>(page, "GET", "/tickets?status=pending&showAll=true")
      ).tickets.find((t) => t.contact.number === number);
    await expect.poll(async () => (await ticketOf())?.queue?.name).toBe(`Assistência ${suffix}`);
    await shot(page, "bots-phone-handed-over");

    // ---- An agent takes it from the waiting list.
    await page.goto("/tickets");
    const waitingTab = page.getByRole("tab", { name: /^Aguardando/ });
    await waitingTab.click();
    const item = page
      .getByRole("list", { name: "Lista de atendimentos" })
      .getByRole("listitem")
      .filter({ hasText: customer });
    await expect(item).toBeVisible();
    await expect(item).toContainText(`Assistência ${suffix}`);
    await item.getByRole("button", { name: `Aceitar: ${customer}` }).click();
    const box = page.getByRole("textbox", { name: "Mensagem" });
    await expect(box).toBeVisible();
    await box.fill("Olá! Sou do suporte, como posso ajudar?");
    await box.press("Enter");
    await expect(
      page.getByRole("log", { name: "Mensagens" }).getByText("Olá! Sou do suporte, como posso ajudar?"),
    ).toBeVisible();
    await shot(page, "bots-agent-took-over");

    // The bot stays silent from now on.
    const callsBefore = typebot.calls.length;
    const ticket = (
      await callApi<{ tickets: Ticket[] }>(page, "GET", "/tickets?status=open&showAll=true")
    ).tickets.find((t) => t.contact.number === number);
    expect(ticket).toMatchObject({ status: "open" });
    await callApi(page, "POST", `/simulator/${connection.id}/messages`, { from: number, body: "obrigado!" });
    await page.waitForTimeout(1500);
    expect(typebot.calls.length).toBe(callsBefore);
  } finally {
    if (connectionId !== undefined)
      await callApi(page, "DELETE", `/whatsapp/${connectionId}`).catch(() => undefined);
    await context.close();
    await typebot.close();
  }
});
