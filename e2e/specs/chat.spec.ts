import { type Locator, type Page, expect } from "@playwright/test";
import { type Message, PNG, callApi, customerSends, customerWaiting } from "./chatSetup";
import {
  BRUNO,
  DEMO,
  dropLiveChannel,
  loginAs,
  newPerson,
  restoreLiveChannel,
  shot,
  watchLiveChannel,
  test,
} from "./helpers";

function chat(page: Page): Locator {
  return page.getByRole("log", { name: "Mensagens" });
}

function bubble(page: Page, text: string): Locator {
  return chat(page).getByRole("article").filter({ hasText: text });
}

test.describe("the chat window", () => {
  test("an agent accepts a waiting ticket, sends text and an image, replies, sees the customer live, ticks advance, reacts", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const stamp = Date.now();
    const customer = `Maria ${stamp}`;
    const number = `55119${String(stamp).slice(-8)}`;

    const { admin, whatsappId, ticket } = await customerWaiting(browser, {
      name: customer,
      number,
      body: "Olá, preciso de ajuda com meu pedido",
    });

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

    // Tags: picked from the company's, saved at once, still there after a reload.
    const urgent = await callApi<{ id: number }>(admin.page, "POST", "/tags", {
      name: `Urgente ${stamp}`,
      color: "#E53935",
    });
    const vip = await callApi<{ id: number }>(admin.page, "POST", "/tags", {
      name: `VIP ${stamp}`,
      color: "#FDD835",
    });
    const tagBar = page.getByRole("group", { name: "Tags" });
    const tagInput = page.getByRole("combobox", { name: "Tags do atendimento" });
    await tagInput.fill(`Urgente ${stamp}`);
    const saved = page.waitForResponse((r) => r.url().endsWith("/tags/sync") && r.ok());
    await page.getByRole("option", { name: `Urgente ${stamp}` }).click();
    await saved;
    await expect(tagBar.getByText(`Urgente ${stamp}`)).toBeVisible();
    await page.reload();
    await expect(tagBar.getByText(`Urgente ${stamp}`)).toBeVisible();
    // Live: another agent adds a tag to the ticket, then the tag is renamed and recoloured.
    await callApi(admin.page, "POST", "/tags/sync", { ticketId: ticket.id, tags: [urgent.id, vip.id] });
    await expect(tagBar.getByText(`VIP ${stamp}`)).toBeVisible();
    await callApi(admin.page, "PUT", `/tags/${urgent.id}`, { name: `Prioridade ${stamp}`, color: "#8E24AA" });
    await expect(tagBar.getByText(`Prioridade ${stamp}`)).toBeVisible();
    await expect(tagBar.getByText(`Urgente ${stamp}`)).toHaveCount(0);
    await expect(tagBar.getByRole("button", { name: `Prioridade ${stamp}` })).toHaveCSS(
      "background-color",
      "rgb(142, 36, 170)",
    );

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
    // The list previews it on one line, the signature without its asterisks.
    const item = page
      .getByRole("list", { name: "Lista de atendimentos" })
      .getByRole("listitem")
      .filter({ hasText: customer });
    await expect(item).toContainText("Ana: Bom dia! Vou verificar seu pedido. Um momento, por favor.");

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

  test("with the chat open, what happened while the live channel was away shows once it is back", async ({
    browser,
  }) => {
    const stamp = Date.now();
    const customer = `Rita ${stamp}`;
    const number = `55117${String(stamp).slice(-8)}`;
    const { admin, whatsappId, ticket } = await customerWaiting(browser, {
      name: customer,
      number,
      body: "Bom dia, tem alguém aí?",
    });
    const tag = await callApi<{ id: number }>(admin.page, "POST", "/tags", {
      name: `Retorno ${stamp}`,
      color: "#43A047",
    });

    const ana = await newPerson(browser);
    await watchLiveChannel(ana.context);
    const page = ana.page;
    await loginAs(page, DEMO.ana.email, DEMO.ana.password);
    await page.goto(`/tickets/${ticket.uuid}`);
    await expect(bubble(page, "Bom dia, tem alguém aí?")).toBeVisible();
    await customerSends(admin.page, whatsappId, {
      from: number,
      body: "Foto do produto",
      media: { filename: "produto.png", mimetype: "image/png", dataBase64: PNG.toString("base64") },
    });
    const photo = bubble(page, "Foto do produto").getByRole("img", { name: "produto.png" });
    await expect(photo).toBeVisible();
    const mediaAsked: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/media/")) mediaAsked.push(request.url());
    });

    // The connection drops; the customer writes twice and the ticket gets a tag meanwhile.
    await dropLiveChannel(page);
    await customerSends(admin.page, whatsappId, { from: number, body: "Mandei enquanto vocês estavam fora" });
    await customerSends(admin.page, whatsappId, { from: number, body: "E mais esta" });
    await callApi(admin.page, "POST", "/tags/sync", { ticketId: ticket.id, tags: [tag.id] });
    // Stored, so those events went out while nobody was listening.
    await expect
      .poll(async () => {
        const stored = await callApi<{ messages: { body: string }[] }>(
          admin.page,
          "GET",
          `/messages/${ticket.id}`,
        );
        return stored.messages.some((m) => m.body === "E mais esta");
      })
      .toBe(true);
    await expect(bubble(page, "Mandei enquanto vocês estavam fora")).toHaveCount(0);
    const tagBar = page.getByRole("group", { name: "Tags" });
    await expect(tagBar.getByText(`Retorno ${stamp}`)).toHaveCount(0);

    // Back: the open chat, its tags and the list catch up without a reload, in order.
    await restoreLiveChannel(page);
    await expect(bubble(page, "E mais esta")).toBeVisible({ timeout: 15_000 });
    await expect(bubble(page, "Mandei enquanto vocês estavam fora")).toBeVisible();
    const bodies = await chat(page).getByRole("article").allInnerTexts();
    const at = (text: string) => bodies.findIndex((b) => b.includes(text));
    expect(at("Bom dia, tem alguém aí?")).toBeGreaterThanOrEqual(0);
    expect(at("Mandei enquanto vocês estavam fora")).toBeGreaterThan(at("Bom dia, tem alguém aí?"));
    expect(at("E mais esta")).toBeGreaterThan(at("Mandei enquanto vocês estavam fora"));
    await expect(tagBar.getByText(`Retorno ${stamp}`)).toBeVisible();
    // A picture already shown is neither fetched again nor redrawn.
    await expect(photo).toBeVisible();
    expect(mediaAsked).toEqual([]);
    await shot(page, "chat-after-reconnect");
    await page.getByRole("tab", { name: /^Aguardando/ }).click();
    const item = page
      .getByRole("list", { name: "Lista de atendimentos" })
      .getByRole("listitem")
      .filter({ hasText: customer });
    await expect(item).toContainText("E mais esta");
    await admin.context.close();
    await ana.context.close();
  });

  test("a chat in a background tab catches up only once it is shown, so nothing is read unseen", async ({
    browser,
  }) => {
    const stamp = Date.now();
    const customer = `Lia ${stamp}`;
    const number = `55116${String(stamp).slice(-8)}`;
    const { admin, whatsappId, ticket } = await customerWaiting(browser, {
      name: customer,
      number,
      body: "Oi, vocês abrem sábado?",
    });
    const ana = await newPerson(browser);
    await watchLiveChannel(ana.context);
    // The tab can be sent to the background and brought back, as switching tabs does.
    await ana.context.addInitScript(() => {
      const tab = window as unknown as { __hidden: boolean };
      tab.__hidden = false;
      Object.defineProperty(Document.prototype, "visibilityState", {
        configurable: true,
        get: () => (tab.__hidden ? "hidden" : "visible"),
      });
      Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => tab.__hidden });
    });
    const showTab = (hidden: boolean) =>
      page.evaluate((value) => {
        (window as unknown as { __hidden: boolean }).__hidden = value;
        document.dispatchEvent(new Event("visibilitychange"));
      }, hidden);
    const page = ana.page;
    await loginAs(page, DEMO.ana.email, DEMO.ana.password);
    await page.goto(`/tickets/${ticket.uuid}`);
    await page.getByRole("button", { name: "Aceitar" }).first().click();
    await expect(page.getByText("Atribuído a Ana")).toBeVisible();
    const unread = async () =>
      (
        await callApi<{ tickets: { id: number; unreadMessages: number }[] }>(
          admin.page,
          "GET",
          `/tickets?searchParam=${number}&showAll=true&status=open`,
        )
      ).tickets.find((t) => t.id === ticket.id)?.unreadMessages;
    await expect.poll(unread).toBe(0);

    await showTab(true);
    await dropLiveChannel(page);
    await customerSends(admin.page, whatsappId, { from: number, body: "Preciso ir amanhã cedo" });
    await restoreLiveChannel(page);
    // Back online in the background: the message waits unread, the customer sees no blue ticks.
    await page.waitForTimeout(3_000);
    await expect(bubble(page, "Preciso ir amanhã cedo")).toHaveCount(0);
    expect(await unread()).toBe(1);

    await showTab(false);
    await expect(bubble(page, "Preciso ir amanhã cedo")).toBeVisible();
    await expect.poll(unread).toBe(0);
    await admin.context.close();
    await ana.context.close();
  });

  test("an agent outside the ticket's queue is sent back to /tickets", async ({ browser }) => {
    const stamp = Date.now();
    const number = `55118${String(stamp).slice(-8)}`;
    const { admin, ticket } = await customerWaiting(browser, { name: `Pedro ${stamp}`, number, body: "Oi" });

    const bruno = await newPerson(browser);
    await loginAs(bruno.page, BRUNO.email, BRUNO.password);
    await bruno.page.goto(`/tickets/${ticket.uuid}`);
    await expect(bruno.page.getByText("Acesso não permitido")).toBeVisible();
    await expect(bruno.page).toHaveURL(/\/tickets$/);
    await admin.context.close();
    await bruno.context.close();
  });
});
