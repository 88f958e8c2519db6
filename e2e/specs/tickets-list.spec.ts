import { type Locator, type Page, expect } from "@playwright/test";
import {
  BRUNO,
  DEMO,
  callApi,
  dropLiveChannel,
  loginAs,
  newPerson,
  openContext,
  restoreLiveChannel,
  shot,
  watchLiveChannel,
  test,
} from "./helpers";
import { vendasConnection } from "./chatSetup";

function waitingTab(page: Page): Locator {
  return page.getByRole("tab", { name: /^Aguardando/ });
}

function attendingTab(page: Page): Locator {
  return page.getByRole("tab", { name: /^Atendendo/ });
}

/** The number in a sub-tab's badge (0 when the badge is hidden). */
async function badgeCount(tab: Locator): Promise<number> {
  const match = /(\d+)\s*$/.exec((await tab.innerText()).trim());
  return match ? Number(match[1]) : 0;
}

function ticketList(page: Page): Locator {
  return page.getByRole("list", { name: "Lista de atendimentos" });
}

function ticketItem(page: Page, name: string): Locator {
  return ticketList(page).getByRole("listitem").filter({ hasText: name });
}

interface Alerts {
  notifications: { title: string; body: string }[];
  sounds: number;
  volumes: number[];
}

/**
 * Runs in the page before the app: records each browser Notification (then shows it as usual),
 * each sound started through the Web Audio API and each gain it is played at.
 */
function spyOnAlerts() {
  const alerts = { notifications: [] as Alerts["notifications"], sounds: 0, volumes: [] as number[] };
  const spied = window as unknown as { __alerts: typeof alerts; __lastNotification: Notification | null };
  spied.__alerts = alerts;
  spied.__lastNotification = null;
  const RealNotification = window.Notification;
  window.Notification = class extends RealNotification {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options);
      alerts.notifications.push({ title, body: options?.body ?? "" });
      spied.__lastNotification = this;
    }
  };
  const RealGain = window.GainNode;
  window.GainNode = class extends RealGain {
    constructor(context: BaseAudioContext, options?: GainOptions) {
      super(context, options);
      if (options?.gain) alerts.volumes.push(options.gain);
    }
  };
  const start = AudioScheduledSourceNode.prototype.start;
  AudioScheduledSourceNode.prototype.start = function (this: AudioScheduledSourceNode, when?: number) {
    alerts.sounds += 1;
    return start.call(this, when);
  };
}

async function alertsOf(page: Page): Promise<Alerts> {
  return page.evaluate(() => (window as unknown as { __alerts: Alerts }).__alerts);
}

async function openTickets(page: Page) {
  await page.goto("/tickets");
  await expect(attendingTab(page)).toBeVisible();
}

test.describe("the tickets list", () => {
  test("a customer message shows up live in Aguardando for Vendas, accept opens it, search finds it, Suporte never sees it", async ({
    browser,
  }) => {
    const stamp = Date.now();
    const customer = `Cliente ${stamp}`;
    const number = `55119${String(stamp).slice(-8)}`;
    // One word only letters: the search matches whole words and their beginnings.
    const words = `orcamento${String(stamp).replace(/\d/g, (d) => "abcdefghij"[Number(d)]!)}`;

    const admin = await newPerson(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    const whatsappId = await vendasConnection(admin.page);
    await openTickets(admin.page);
    await waitingTab(admin.page).click();

    const ana = await newPerson(browser);
    await loginAs(ana.page, DEMO.ana.email, DEMO.ana.password);
    await openTickets(ana.page);
    await waitingTab(ana.page).click();
    await expect(waitingTab(ana.page)).toHaveAttribute("aria-selected", "true");
    const anaWaitingBefore = await badgeCount(waitingTab(ana.page));

    const bruno = await newPerson(browser);
    await loginAs(bruno.page, BRUNO.email, BRUNO.password);
    await openTickets(bruno.page);
    await waitingTab(bruno.page).click();
    const brunoWaitingBefore = await badgeCount(waitingTab(bruno.page));

    // The customer writes: nobody reloads anything.
    await callApi(admin.page, "POST", `/simulator/${whatsappId}/messages`, {
      from: number,
      name: customer,
      body: `Olá! Quero um ${words} para 10 usuários`,
    });

    const anaItem = ticketItem(ana.page, customer);
    await expect(anaItem).toBeVisible();
    await expect(anaItem).toContainText(`Quero um ${words}`);
    await expect(anaItem).toContainText("Vendas");
    await expect(anaItem.getByText("1 mensagem não lida")).toBeAttached();
    await expect.poll(() => badgeCount(waitingTab(ana.page))).toBe(anaWaitingBefore + 1);
    await expect(ticketItem(admin.page, customer)).toBeVisible();
    await shot(ana.page, "tickets-waiting");

    // A waiting ticket is not opened by a click on it: it offers accept and close.
    await expect(anaItem.getByRole("button", { name: `Aceitar: ${customer}` })).toBeVisible();
    await expect(anaItem.getByRole("button", { name: `Finalizar: ${customer}` })).toBeVisible();
    await anaItem.getByText(customer).click();
    await expect(ana.page).toHaveURL(/\/tickets$/);

    // Bruno (Suporte) never hears of it.
    await expect.poll(() => badgeCount(waitingTab(bruno.page))).toBe(brunoWaitingBefore);
    await expect(ticketItem(bruno.page, customer)).toHaveCount(0);

    // Ana accepts: it moves to Atendendo, opens at /tickets/{uuid} and leaves everyone's Aguardando.
    const attendingBefore = await badgeCount(attendingTab(ana.page));
    await anaItem.getByRole("button", { name: `Aceitar: ${customer}` }).click();
    await expect(ana.page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
    const uuid = ana.page.url().split("/").pop()!;
    await expect(attendingTab(ana.page)).toHaveAttribute("aria-selected", "true");
    const accepted = ticketItem(ana.page, customer);
    await expect(accepted.getByRole("button")).toHaveAttribute("aria-current", "true");
    await expect.poll(() => badgeCount(attendingTab(ana.page))).toBe(attendingBefore + 1);
    await expect.poll(() => badgeCount(waitingTab(ana.page))).toBe(anaWaitingBefore);
    await expect(ticketItem(admin.page, customer)).toHaveCount(0);
    const ticket = await callApi<{ status: string; user: { name: string } }>(
      ana.page,
      "GET",
      `/tickets/u/${uuid}`,
    );
    expect(ticket.status).toBe("open");
    expect(ticket.user.name).toBe("Ana");

    // A new message brings it to the top of Atendendo with the new text and an unread badge.
    await callApi(admin.page, "POST", `/simulator/${whatsappId}/messages`, {
      from: number,
      name: customer,
      body: "Pode me mandar o link de pagamento?",
    });
    await expect(accepted).toContainText("Pode me mandar o link de pagamento?");
    await shot(ana.page, "tickets-attending");

    // Search finds it by the text of a message (after the 500 ms pause in typing).
    await ana.page.getByRole("tab", { name: "Busca" }).click();
    await ana.page.getByRole("searchbox", { name: "Buscar atendimento e mensagens" }).fill(words);
    await expect(ticketItem(ana.page, customer)).toBeVisible();
    await expect(ticketList(ana.page).getByRole("listitem")).toHaveCount(1);
    await shot(ana.page, "tickets-search");

    // Bruno's search does not reach it either.
    await bruno.page.getByRole("tab", { name: "Busca" }).click();
    await bruno.page.getByRole("searchbox", { name: "Buscar atendimento e mensagens" }).fill(words);
    await expect(bruno.page.getByText("Nenhum atendimento encontrado.")).toBeVisible();

    for (const person of [admin, ana, bruno]) await person.context.close();
  });

  test("accepted and resolved, a ticket moves between another viewer's lists live; the agent's open chat stays on it", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const stamp = Date.now();
    const customer = `Move ${stamp}`;
    const number = `55116${String(stamp).slice(-8)}`;
    const admin = await newPerson(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    const whatsappId = await vendasConnection(admin.page);
    await openTickets(admin.page);
    // The admin watches everyone's tickets in service.
    await admin.page.getByLabel("Todos", { exact: true }).check();
    await attendingTab(admin.page).click();

    const ana = await newPerson(browser);
    await loginAs(ana.page, DEMO.ana.email, DEMO.ana.password);
    await openTickets(ana.page);
    await waitingTab(ana.page).click();
    await callApi(admin.page, "POST", `/simulator/${whatsappId}/messages`, {
      from: number,
      name: customer,
      body: "Quero fechar o pedido",
    });
    await expect(ticketItem(ana.page, customer)).toBeVisible();
    await expect(ticketItem(admin.page, customer)).toHaveCount(0);

    await ticketItem(ana.page, customer)
      .getByRole("button", { name: `Aceitar: ${customer}` })
      .click();
    await expect(ana.page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
    const chatUrl = ana.page.url();
    // The admin's Atendendo list gains it, no reload.
    await expect(ticketItem(admin.page, customer)).toBeVisible();
    await expect(ticketItem(admin.page, customer)).toContainText("Ana");
    // Ana's chat stays open through the "left Aguardando" notice that came with it.
    await expect(ana.page.getByRole("button", { name: "Resolver" })).toBeVisible();
    expect(ana.page.url()).toBe(chatUrl);
    await expect(ticketItem(ana.page, customer).getByRole("button")).toHaveAttribute("aria-current", "true");

    // Resolved by the admin while Ana has it open: it leaves the admin's Atendendo, live, and Ana's
    // chat stays on it (the ticket only left a status), now offering to reopen it.
    const ticket = await callApi<{ id: number }>(ana.page, "GET", `/tickets/u/${chatUrl.split("/").pop()}`);
    await callApi(admin.page, "PUT", `/tickets/${ticket.id}`, { status: "closed" });
    await expect(ticketItem(admin.page, customer)).toHaveCount(0);
    await expect(ana.page.getByRole("button", { name: "Reabrir" }).first()).toBeVisible();
    expect(ana.page.url()).toBe(chatUrl);
    await waitingTab(admin.page).click();
    await expect(ticketItem(admin.page, customer)).toHaveCount(0);

    for (const person of [admin, ana]) await person.context.close();
  });

  test("transferred back to its own queue and accepted again from the list, the chat offers to resolve it", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const stamp = Date.now();
    const customer = `Volta ${stamp}`;
    const number = `55115${String(stamp).slice(-8)}`;
    const admin = await newPerson(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    const whatsappId = await vendasConnection(admin.page);

    const ana = await newPerson(browser);
    await loginAs(ana.page, DEMO.ana.email, DEMO.ana.password);
    await openTickets(ana.page);
    await waitingTab(ana.page).click();
    await callApi(admin.page, "POST", `/simulator/${whatsappId}/messages`, {
      from: number,
      name: customer,
      body: "Preciso de ajuda",
    });
    const accept = ticketItem(ana.page, customer).getByRole("button", { name: `Aceitar: ${customer}` });
    await accept.click();
    await expect(ana.page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
    const chatUrl = ana.page.url();
    await expect(ana.page.getByRole("button", { name: "Resolver" })).toBeVisible();

    // Transferred to the queue it is in (Vendas, the dialog's choice), with no agent: it waits again.
    await ana.page.getByRole("button", { name: "Transferir" }).first().click();
    const transfer = ana.page.getByRole("dialog", { name: "Transferir atendimento" });
    await expect(transfer.getByRole("combobox", { name: "Fila" })).toHaveText(/Vendas/);
    await transfer.getByRole("button", { name: "Transferir" }).click();
    await expect(ana.page).toHaveURL(/\/tickets$/);
    await waitingTab(ana.page).click();

    // Accepted again from the list: the same chat, in service, Ana's, with its in-service actions.
    await accept.click();
    await expect(ana.page).toHaveURL(chatUrl);
    await expect(ana.page.getByRole("button", { name: "Resolver" })).toBeVisible();
    await expect(ana.page.getByRole("button", { name: "Aceitar", exact: true })).toHaveCount(0);
    await expect(ana.page.getByText("Atribuído a Ana")).toBeVisible();

    for (const person of [admin, ana]) await person.context.close();
  });

  test("a customer message rings at the chosen volume and shows a browser notification that opens the ticket", async ({
    browser,
  }) => {
    const stamp = Date.now();
    const customer = `Notifica ${stamp}`;
    const number = `55117${String(stamp).slice(-8)}`;
    const context = await openContext(browser, { permissions: ["notifications"] });
    await context.addInitScript(spyOnAlerts);
    const page = await context.newPage();
    await loginAs(page, DEMO.admin.email, DEMO.admin.password);
    const whatsappId = await vendasConnection(page);
    await page.evaluate(() => localStorage.setItem("volume", "0.4"));
    await openTickets(page);
    // A click on the page, as an agent makes: browsers let a page play sound only after one.
    await waitingTab(page).click();
    await expect(
      page.getByRole("button", { name: "Notificações do navegador ativadas: clique para silenciar" }),
    ).toBeVisible();

    await callApi(page, "POST", `/simulator/${whatsappId}/messages`, {
      from: number,
      name: customer,
      body: "Oi, tem alguém aí?",
    });
    await expect
      .poll(async () => (await alertsOf(page)).notifications)
      .toEqual([{ title: customer, body: "Oi, tem alguém aí?" }]);
    const rang = await alertsOf(page);
    expect(rang.sounds).toBeGreaterThan(0);
    expect(rang.volumes).toEqual([0.4]);

    // Clicking the notification brings the ticket up.
    await page.evaluate(() =>
      (window as unknown as { __lastNotification: Notification }).__lastNotification.dispatchEvent(
        new Event("click"),
      ),
    );
    await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
    const uuid = page.url().split("/").pop()!;
    const ticket = await callApi<{ contact: { name: string } }>(page, "GET", `/tickets/u/${uuid}`);
    expect(ticket.contact.name).toBe(customer);

    // More from the customer whose ticket is on screen, in a focused window: no sound, no notice.
    await callApi(page, "POST", `/simulator/${whatsappId}/messages`, {
      from: number,
      name: customer,
      body: "Preciso de ajuda com o pedido",
    });
    await expect(ticketItem(page, customer)).toContainText("Preciso de ajuda com o pedido");
    expect(await alertsOf(page)).toEqual(rang);

    // Another customer still rings.
    const other = `Outro ${stamp}`;
    await callApi(page, "POST", `/simulator/${whatsappId}/messages`, {
      from: `55116${String(stamp).slice(-8)}`,
      name: other,
      body: "Bom dia!",
    });
    await expect
      .poll(async () => (await alertsOf(page)).notifications.map((n) => n.title))
      .toEqual([customer, other]);
    expect((await alertsOf(page)).volumes).toEqual([0.4, 0.4]);
    await context.close();
  });

  test("after the live channel drops, the lists fetch what was missed once it is back", async ({
    browser,
  }) => {
    const stamp = Date.now();
    const customer = `Perdido ${stamp}`;
    const { context, page } = await newPerson(browser);
    await watchLiveChannel(context);
    await loginAs(page, DEMO.admin.email, DEMO.admin.password);
    const whatsappId = await vendasConnection(page);
    await openTickets(page);
    await waitingTab(page).click();
    const waitingBefore = await badgeCount(waitingTab(page));

    await dropLiveChannel(page);
    const number = `55115${String(stamp).slice(-8)}`;
    await callApi(page, "POST", `/simulator/${whatsappId}/messages`, {
      from: number,
      name: customer,
      body: "Mandei enquanto vocês estavam fora",
    });
    // The ticket is stored, so its event went out while nobody was listening.
    await expect
      .poll(async () => {
        const found = await callApi<{ tickets: { contact: { number: string } }[] }>(
          page,
          "GET",
          `/tickets?searchParam=${number}&showAll=true&status=pending`,
        );
        return found.tickets.some((t) => t.contact.number === number);
      })
      .toBe(true);
    await expect(ticketItem(page, customer)).toHaveCount(0);

    await restoreLiveChannel(page);
    await expect(ticketItem(page, customer)).toBeVisible({ timeout: 15_000 });
    await expect.poll(() => badgeCount(waitingTab(page))).toBe(waitingBefore + 1);
    await context.close();
  });

  test("the elapsed-time label turns green, orange and red as the wait grows", async ({ browser }) => {
    const stamp = Date.now();
    const customer = `Espera ${stamp}`;
    const admin = await newPerson(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    const whatsappId = await vendasConnection(admin.page);
    await callApi(admin.page, "POST", `/simulator/${whatsappId}/messages`, {
      from: `55118${String(stamp).slice(-8)}`,
      name: customer,
      body: "Alguém aí?",
    });

    await admin.page.clock.install();
    await openTickets(admin.page);
    await waitingTab(admin.page).click();
    const item = ticketItem(admin.page, customer);
    await expect(item).toBeVisible();
    const label = item.getByTestId("elapsed-label");
    await expect(label).toHaveCount(0);

    // The spec's green, orange and red (light theme), each asserted as the browser paints it: a
    // read of getComputedStyle once after the tone changed saw two of the three alike in one CI run.
    await admin.page.clock.fastForward("05:00");
    await expect(label).toHaveText("5 m atrás");
    await expect(label).toHaveAttribute("data-tone", "fresh");
    await expect(label).toHaveCSS("color", "rgb(27, 127, 59)");
    await admin.page.clock.fastForward("30:00");
    await expect(label).toHaveText("35 m atrás");
    await expect(label).toHaveAttribute("data-tone", "late");
    await expect(label).toHaveCSS("color", "rgb(180, 83, 9)");
    await admin.page.clock.fastForward("01:30:00");
    await expect(label).toHaveText("2 h atrás");
    await expect(label).toHaveAttribute("data-tone", "overdue");
    await expect(label).toHaveCSS("color", "rgb(198, 40, 40)");
    await admin.page.clock.fastForward("24:00:00");
    await expect(label).toHaveText("1 dia atrás");
    await shot(admin.page, "tickets-elapsed");
    await admin.context.close();
  });

  test("on a phone the list and the ticket are two bottom tabs", async ({ browser }) => {
    const { context, page } = await newPerson(browser);
    await loginAs(page, DEMO.ana.email, DEMO.ana.password);
    await page.setViewportSize({ width: 390, height: 844 });
    await openTickets(page);
    const bottomTab = (name: string) => page.getByRole("button", { name, exact: true });
    await expect(bottomTab("Ticket")).toBeVisible();
    await expect(bottomTab("Atendimentos")).toBeVisible();
    await expect(page.getByRole("button", { name: "Novo Ticket" }).first()).toBeVisible();
    await shot(page, "tickets-phone-list");
    // Nothing overflows sideways on a phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await bottomTab("Ticket").click();
    await expect(page.getByText("Selecione um atendimento na lista")).toBeVisible();
    await context.close();
  });
});
