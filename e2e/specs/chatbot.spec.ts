import { type Locator, type Page, expect } from "@playwright/test";
import { DEMO, callApi, loginAs, newPerson, shot, test } from "./helpers";

/**
 * The chatbot as an admin sets it up and a customer meets it: two queues built on the queues page
 * (one with an options tree), a new simulator connection with a greeting and both queues, paired
 * from /simulator; then the customer walks the menu on the simulated phone (a wrong choice, a right
 * one, an option, '0' back, '#' to the main menu) and the ticket waits in the chosen queue.
 */

interface Ticket {
  id: number;
  status: string;
  userId: number | null;
  queue: { name: string } | null;
  contact: { number: string };
}

const GREETING = "Olá! Escolha um setor:";
const FINANCE_GREETING = "Olá! Você está no Financeiro. Escolha uma opção:";

/** Uncaught errors in the app's pages fail the test. */
const pageErrors: string[] = [];
test.beforeEach(() => {
  pageErrors.length = 0;
});
test.afterEach(() => {
  expect(pageErrors).toEqual([]);
});

/** Opens the add dialog on /queues and fills the queue's data tab. */
async function fillNewQueue(page: Page, q: { name: string; color: string; greeting: string; order: number }) {
  await page.getByRole("button", { name: "Adicionar fila" }).click();
  const dialog = page.getByRole("dialog", { name: "Adicionar fila" });
  await dialog.getByRole("textbox", { name: "Nome" }).fill(q.name);
  await dialog.getByRole("textbox", { name: "Código da cor" }).fill(q.color);
  await dialog.getByRole("textbox", { name: "Mensagem de saudação" }).fill(q.greeting);
  await dialog.getByRole("spinbutton", { name: "Ordem da fila (bot)" }).fill(String(q.order));
  return dialog;
}

async function addOption(page: Page, editDialog: Locator, button: string, title: string, message: string) {
  await editDialog.getByRole("button", { name: button }).click();
  const optionDialog = page.getByRole("dialog").filter({ has: page.getByLabel("Título") });
  await optionDialog.getByRole("textbox", { name: "Título" }).fill(title);
  await optionDialog.getByRole("textbox", { name: "Mensagem" }).fill(message);
  await optionDialog.getByRole("button", { name: "Salvar" }).click();
  await expect(optionDialog).toBeHidden();
}

test.describe("the chatbot", () => {
  test("an admin builds a two-queue menu with an options tree; a customer walks it on /simulator and waits in the chosen queue", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const stamp = Date.now();
    const suffix = stamp % 100000;
    const finance = `Financeiro ${suffix}`;
    const sales = `Comercial ${suffix}`;
    const connectionName = `Atendimento ${suffix}`;
    const customer = `Cliente Bot ${suffix}`;
    const number = `55119${String(stamp).slice(-8)}`;
    const hex = (n: number) => `#${(n % 0xffffff).toString(16).padStart(6, "0")}`;

    const { context, page } = await newPerson(browser);
    page.on("pageerror", (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    await loginAs(page, DEMO.admin.email, DEMO.admin.password);

    // ---- The queues page: Financeiro with its options tree, and Comercial.
    await page
      .getByRole("navigation", { name: "menu" })
      .getByRole("link", { name: "Filas & Chatbot", exact: true })
      .click();
    await expect(page.getByRole("heading", { name: "Filas & Chatbot" })).toBeVisible();
    const financeDialog = await fillNewQueue(page, {
      name: finance,
      color: hex(stamp * 7),
      greeting: FINANCE_GREETING,
      order: 1,
    });
    await financeDialog.getByRole("tab", { name: "Opções do chatbot" }).click();
    await financeDialog.getByRole("button", { name: "Salvar e montar o menu" }).click();
    const editDialog = page.getByRole("dialog", { name: "Editar fila" });
    await expect(editDialog.getByText("Nenhuma opção ainda")).toBeVisible();
    await addOption(page, editDialog, "Adicionar opção", "Boletos", "Sobre boletos, escolha:");
    await addOption(page, editDialog, "Adicionar opção", "Notas fiscais", "Informe o número do pedido.");
    await addOption(
      page,
      editDialog,
      "Adicionar sub-opção: Boletos",
      "Segunda via",
      "A segunda via segue em instantes.",
    );
    const tree = editDialog.getByRole("tree");
    await expect(tree.getByRole("treeitem", { name: "1 › 1 Segunda via" })).toBeVisible();
    await shot(page, "chatbot-queue-options");
    await editDialog.getByRole("button", { name: "Cancelar" }).click();
    await expect(editDialog).toBeHidden();

    const salesDialog = await fillNewQueue(page, {
      name: sales,
      color: hex(stamp * 13 + 99),
      greeting: "Comercial: um vendedor já vem falar com você.",
      order: 2,
    });
    await salesDialog.getByRole("button", { name: "Salvar" }).click();
    await expect(salesDialog).toBeHidden();
    await expect(page.getByRole("row").filter({ hasText: sales })).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: finance })).toContainText(FINANCE_GREETING);

    // ---- A new simulator connection with the greeting and both queues.
    await page
      .getByRole("navigation", { name: "menu" })
      .getByRole("link", { name: "Conexões", exact: true })
      .click();
    await expect(page.getByRole("heading", { name: "Conexões", level: 1 })).toBeVisible();
    await page.getByRole("button", { name: "Adicionar WhatsApp" }).first().click();
    const connDialog = page.getByRole("dialog", { name: "Adicionar WhatsApp" });
    await connDialog.getByRole("textbox", { name: "Nome", exact: true }).fill(connectionName);
    await connDialog.getByRole("combobox", { name: "Provedor" }).click();
    await page.getByRole("option", { name: "Simulador", exact: true }).click();
    await connDialog.getByRole("combobox", { name: "Filas" }).click();
    const listbox = page.getByRole("listbox");
    for (const queue of [finance, sales]) {
      await listbox.getByRole("option", { name: queue, exact: true }).click();
      await expect(listbox.getByRole("option", { name: queue, exact: true })).toHaveAttribute(
        "aria-selected",
        "true",
      );
    }
    await page.keyboard.press("Escape");
    await expect(listbox).toBeHidden();
    await connDialog.getByRole("textbox", { name: "Mensagem de saudação", exact: true }).fill(GREETING);
    await connDialog.getByRole("button", { name: "Salvar" }).click();
    await expect(page.getByText("Conexão salva com sucesso!")).toBeVisible();
    await expect(connDialog).toBeHidden();

    // ---- Paired from /simulator, where the customer then writes.
    await page.goto("/simulator");
    await expect(page.getByRole("heading", { name: "Simulador", level: 1 })).toBeVisible();
    const select = page.getByRole("combobox", { name: "Conexão" });
    await select.click();
    await page.getByRole("option", { name: connectionName, exact: true }).click();
    await expect(select).toHaveText(connectionName);
    const notConnected = page.getByRole("alert").filter({ hasText: "Esta conexão não está conectada" });
    await notConnected.getByRole("button", { name: "Escanear com o simulador" }).click();
    await expect(notConnected).toBeHidden();
    await page.getByRole("textbox", { name: "Número do cliente" }).fill(`+${number}`);
    await page.getByRole("textbox", { name: "Nome do cliente" }).fill(customer);
    const input = page.getByRole("textbox", { name: "Mensagem" });
    await expect(input).toBeEnabled();

    const bubbles = page.getByRole("list", { name: "Conversa", exact: true }).getByRole("listitem");
    /** The customer types and sends; the conversation then holds `count` bubbles. */
    async function say(text: string, count: number) {
      await input.fill(text);
      await page.getByRole("button", { name: "Enviar" }).click();
      await expect(input).toHaveValue("");
      await expect(bubbles).toHaveCount(count);
    }
    const mainMenu = [GREETING, `[ 1 ] - ${finance}`, `[ 2 ] - ${sales}`];
    const financeMenu = [
      FINANCE_GREETING,
      "[ 1 ] - Boletos",
      "[ 2 ] - Notas fiscais",
      "[ # ] - Menu inicial",
    ];
    async function lastSays(lines: string[]) {
      const last = bubbles.last();
      for (const line of lines) await expect(last).toContainText(line);
    }

    // The greeting and the numbered menu of queues.
    await say("oi", 2);
    await lastSays(mainMenu);
    // A wrong choice: one clear notice with the menu again...
    await say("9", 4);
    await lastSays([
      "Opção inválida! Responda apenas com o número de uma das opções abaixo:",
      ...mainMenu.slice(1),
    ]);
    await shot(page, "chatbot-phone-invalid");
    // ...not repeated for the next wrong answer: the right choice's answer comes right after it.
    await say("banana", 5);
    await say("1", 7);
    await expect(bubbles.filter({ hasText: "Opção inválida!" })).toHaveCount(1);
    await lastSays(financeMenu);
    // An option with sub-options.
    await say("1", 9);
    await lastSays([
      "Sobre boletos, escolha:",
      "[ 1 ] - Segunda via",
      "[ 0 ] - Voltar",
      "[ # ] - Menu inicial",
    ]);
    await shot(page, "chatbot-phone-options");
    // '0' goes back one level, '#' to the main menu.
    await say("0", 11);
    await lastSays(financeMenu);
    await say("#", 13);
    await lastSays(mainMenu);
    // The queue again, then the leaf option's answer.
    await say("1", 15);
    await lastSays(financeMenu);
    await say("1", 17);
    await say("1", 19);
    await lastSays(["A segunda via segue em instantes."]);
    await shot(page, "chatbot-phone-done");

    // ---- The ticket waits, unassigned, in the chosen queue.
    const waiting = async () =>
      (await callApi<{ tickets: Ticket[] }>(page, "GET", "/tickets?status=pending")).tickets.find(
        (t) => t.contact.number === number,
      );
    await expect.poll(async () => (await waiting())?.queue?.name).toBe(finance);
    expect(await waiting()).toMatchObject({ status: "pending", userId: null });
    await page.goto("/tickets");
    const waitingTab = page.getByRole("tab", { name: /^Aguardando/ });
    await waitingTab.click();
    await expect(waitingTab).toHaveAttribute("aria-selected", "true");
    const item = page
      .getByRole("list", { name: "Lista de atendimentos" })
      .getByRole("listitem")
      .filter({ hasText: customer });
    await expect(item).toBeVisible();
    await expect(item).toContainText(finance);
    await expect(item.getByRole("button", { name: `Aceitar: ${customer}` })).toBeVisible();
    await shot(page, "chatbot-ticket-waiting");

    await context.close();
  });

  test("one queue order: the queues page, the connection dialog and the menu on /simulator number the queues alike", async ({
    browser,
  }) => {
    const suffix = Date.now() % 100000;
    const number = `55118${String(Date.now()).slice(-8)}`;
    const { context, page } = await newPerson(browser);
    page.on("pageerror", (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    await loginAs(page, DEMO.admin.email, DEMO.admin.password);
    // Zeta and Alfa share a number (then by name), Beta has a larger one: Alfa, Zeta, Beta.
    const made: { id: number; name: string }[] = [];
    for (const [name, orderQueue, color] of [
      [`Zeta ${suffix}`, 5, "#1a2b3c"],
      [`Alfa ${suffix}`, 5, "#2b3c4d"],
      [`Beta ${suffix}`, 9, "#3c4d5e"],
    ] as const)
      made.push(
        await callApi(page, "POST", "/queue", { name, color, orderQueue, greetingMessage: `Fila ${name}` }),
      );
    const expected = [`Alfa ${suffix}`, `Zeta ${suffix}`, `Beta ${suffix}`];
    /** Our queues' names in the order these texts (rows, chips, options) show them. */
    const ours = (texts: string[]) => texts.flatMap((text) => expected.filter((name) => text.includes(name)));
    const connection = await callApi<{ id: number }>(page, "POST", "/whatsapp", {
      name: `Ordem ${suffix}`,
      provider: "simulator",
      greetingMessage: GREETING,
      queueIds: made.map((q) => q.id),
    });

    // The queues page.
    await page.goto("/queues");
    await expect(page.getByRole("row").filter({ hasText: `Beta ${suffix}` })).toBeVisible();
    expect(ours(await page.getByRole("row").allInnerTexts())).toEqual(expected);

    // The connection dialog: its chosen queues and the select's choices.
    await page.goto("/connections");
    await page
      .getByRole("row")
      .filter({ hasText: `Ordem ${suffix}` })
      .getByRole("button", { name: "Editar" })
      .click();
    const dialog = page.getByRole("dialog", { name: "Editar WhatsApp" });
    const queuesField = dialog.getByRole("combobox", { name: "Filas" });
    await expect(queuesField).toContainText(`Beta ${suffix}`);
    expect(ours(await queuesField.locator(".MuiChip-label").allInnerTexts())).toEqual(expected);
    await queuesField.click();
    expect(ours(await page.getByRole("listbox").getByRole("option").allInnerTexts())).toEqual(expected);
    await page.keyboard.press("Escape");
    await dialog.getByRole("button", { name: "Cancelar" }).click();

    // The menu on /simulator numbers them the same; "2" lands in the second.
    await page.goto("/simulator");
    const select = page.getByRole("combobox", { name: "Conexão" });
    await select.click();
    await page.getByRole("option", { name: `Ordem ${suffix}`, exact: true }).click();
    const notConnected = page.getByRole("alert").filter({ hasText: "Esta conexão não está conectada" });
    await notConnected.getByRole("button", { name: "Escanear com o simulador" }).click();
    await expect(notConnected).toBeHidden();
    await page.getByRole("textbox", { name: "Número do cliente" }).fill(`+${number}`);
    const input = page.getByRole("textbox", { name: "Mensagem" });
    const bubbles = page.getByRole("list", { name: "Conversa", exact: true }).getByRole("listitem");
    await input.fill("oi");
    await page.getByRole("button", { name: "Enviar" }).click();
    await expect(bubbles).toHaveCount(2);
    await expect(bubbles.last()).toContainText(
      expected.map((name, i) => `[ ${i + 1} ] - ${name}`).join("\n"),
    );
    await input.fill("2");
    await page.getByRole("button", { name: "Enviar" }).click();
    await expect(bubbles.last()).toContainText(`Fila Zeta ${suffix}`);
    await shot(page, "chatbot-queue-order");
    expect(connection.id).toBeGreaterThan(0);
    await context.close();
  });

  test("with calls not accepted, a call from the /simulator phone is declined and the customer is told", async ({
    browser,
  }) => {
    const stamp = Date.now();
    const number = `55119${String(stamp + 7).slice(-8)}`;
    const { context, page } = await newPerson(browser);
    page.on("pageerror", (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    await loginAs(page, DEMO.admin.email, DEMO.admin.password);
    try {
      // The settings page: calls not accepted, saved on change.
      await page.goto("/settings");
      await page.getByRole("combobox", { name: "Chamadas de voz e vídeo" }).click();
      await page.getByRole("option", { name: "Não aceitar", exact: true }).click();
      await expect(page.getByText("Operação atualizada com sucesso.").first()).toBeVisible();

      // The customer calls the demo connection from the simulated phone.
      await page.goto("/simulator");
      const select = page.getByRole("combobox", { name: "Conexão" });
      await select.click();
      await page.getByRole("option", { name: "Simulador", exact: true }).click();
      await page.getByRole("textbox", { name: "Número do cliente" }).fill(`+${number}`);
      await page.getByRole("textbox", { name: "Nome do cliente" }).fill(`Cliente Liga ${stamp % 100000}`);
      await page.getByRole("button", { name: "Ligar (voz)" }).click();
      const bubbles = page.getByRole("list", { name: "Conversa", exact: true }).getByRole("listitem");
      await expect(bubbles).toHaveCount(2);
      await expect(bubbles.first()).toContainText("Chamada de voz");
      await expect(bubbles.first()).toContainText("Recusada pela empresa");
      await expect(bubbles.last()).toContainText(
        "Mensagem Automática: As chamadas de voz e vídeo estão desabilitadas para este WhatsApp, favor enviar uma mensagem de texto. Obrigado",
      );
      await shot(page, "chatbot-phone-call-declined");

      // The missed call is in the ticket, for the agents.
      const tickets = await callApi<{ tickets: { id: number; contact: { number: string } }[] }>(
        page,
        "GET",
        "/tickets?status=pending",
      );
      const ticket = tickets.tickets.find((t) => t.contact.number === number)!;
      const messages = await callApi<{ messages: { body: string; mediaType: string }[] }>(
        page,
        "GET",
        `/messages/${ticket.id}`,
      );
      expect(messages.messages.find((m) => m.mediaType === "call_log")?.body).toMatch(
        /^Chamada de voz perdida às \d\d:\d\d$/,
      );
    } finally {
      await callApi(page, "PUT", "/settings/call", { value: "enabled" });
      await context.close();
    }
  });
});
