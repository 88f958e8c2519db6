import { readFile } from "node:fs/promises";
import { type Browser, type Page, expect } from "@playwright/test";
import type { DashboardData, TicketReportPage } from "@atende/contracts";
import { BRUNO, DEMO, callApi, companyClock, loginAs, newPerson, shot, typeDate, test } from "./helpers";
import { type Queue, type Whatsapp, customerSends, ticketOf, waitingTicketOf } from "./chatSetup";

/**
 * The dashboard after a small scripted day: customers write from the simulator, Ana accepts,
 * answers and resolves one conversation (rated 3 by the customer), keeps a second open, and a
 * third waits. The admin's cards, charts and agents table show exactly that, the figures follow a
 * new conversation live, and the reports page lists the day's tickets and exports them as CSV.
 */

const CONNECTION = "Simulador Dashboard (e2e)";

/** A connected simulator connection of the Vendas queue that asks for a rating on resolve. */
async function ratingConnection(admin: Page): Promise<number> {
  const vendas = (await callApi<Queue[]>(admin, "GET", "/queue")).find((q) => q.name === "Vendas")!;
  const connection = await callApi<Whatsapp>(admin, "POST", "/whatsapp", {
    name: CONNECTION,
    provider: "simulator",
    queueIds: [vendas.id],
    ratingMessage: "Como foi o nosso atendimento?",
  });
  await callApi(admin, "POST", `/simulator/${connection.id}/scan`);
  await expect
    .poll(
      async () =>
        (await callApi<Whatsapp[]>(admin, "GET", "/whatsapp")).find((w) => w.id === connection.id)?.status,
    )
    .toBe("CONNECTED");
  return connection.id;
}

/** Drawn bars: the chart keeps a zero-height bar for an empty day. */
const BARS = 'svg rect.MuiBarChart-element:not([height="0"])';
const card = (page: Page, name: string) => page.getByRole("group", { name, exact: true });
const cardValue = (page: Page, name: string) => card(page, name).locator("p");

/**
 * Bruno logs out: a spec before this one may have left him online (closing a browser is not
 * logging out, and an agent goes offline only minutes after the last socket).
 */
async function brunoLogsOut(browser: Browser) {
  const bruno = await newPerson(browser);
  await loginAs(bruno.page, BRUNO.email, BRUNO.password);
  await callApi(bruno.page, "DELETE", "/auth/logout");
  await bruno.context.close();
}

test("the dashboard shows the scripted day, follows it live, and the report exports it", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const tail = String(stamp).slice(-7);
  const numbers = {
    carla: `55119${tail}1`,
    diego: `55119${tail}2`,
    elisa: `55119${tail}3`,
    fabio: `55119${tail}4`,
  };

  await brunoLogsOut(browser);
  const admin = await newPerson(browser);
  await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
  // Ratings on for the scripted day; the setting goes back to what it was at the end.
  const ratingBefore =
    (await callApi<{ key: string; value: string }[]>(admin.page, "GET", "/settings")).find(
      (s) => s.key === "userRating",
    )?.value ?? "disabled";
  await callApi(admin.page, "PUT", "/settings/userRating", { value: "enabled" });
  const whatsappId = await ratingConnection(admin.page);
  const ana = await newPerson(browser);
  await loginAs(ana.page, DEMO.ana.email, DEMO.ana.password);
  const anaId = (await callApi<{ id: number; name: string }[]>(admin.page, "GET", "/users/list")).find(
    (u) => u.name === "Ana",
  )!.id;

  const before = await callApi<DashboardData>(admin.page, "GET", "/dashboard?days=7");

  // Carla: accepted, answered, resolved, and rated 3 (very satisfied).
  await customerSends(admin.page, whatsappId, { from: numbers.carla, name: `Carla ${stamp}`, body: "Oi!" });
  const carla = await waitingTicketOf(admin.page, numbers.carla);
  await callApi(ana.page, "PUT", `/tickets/${carla.id}`, { status: "open", userId: anaId });
  await callApi(ana.page, "POST", `/messages/${carla.id}`, {
    body: "Olá Carla, como posso ajudar?",
    fromMe: true,
  });
  await callApi(ana.page, "PUT", `/tickets/${carla.id}`, { status: "closed", userId: anaId });
  await customerSends(admin.page, whatsappId, { from: numbers.carla, name: `Carla ${stamp}`, body: "3" });
  // Diego: accepted and answered, still in service.
  await customerSends(admin.page, whatsappId, {
    from: numbers.diego,
    name: `Diego ${stamp}`,
    body: "Bom dia",
  });
  const diego = await waitingTicketOf(admin.page, numbers.diego);
  await callApi(ana.page, "PUT", `/tickets/${diego.id}`, { status: "open", userId: anaId });
  await callApi(ana.page, "POST", `/messages/${diego.id}`, { body: "Bom dia, Diego!", fromMe: true });
  // Elisa: waiting.
  await customerSends(admin.page, whatsappId, {
    from: numbers.elisa,
    name: `Elisa ${stamp}`,
    body: "Alguém?",
  });
  await waitingTicketOf(admin.page, numbers.elisa);
  await ticketOf(admin.page, numbers.carla, "closed");

  // The rating reached the server before the screen is read.
  await expect
    .poll(async () => {
      const day = await callApi<TicketReportPage>(
        admin.page,
        "GET",
        `/ticket/reports?days=1&searchParam=${tail}`,
      );
      return day.tickets.find((row) => row.contact.number === numbers.carla)?.rating;
    })
    .toBe(3);
  const after = await callApi<DashboardData>(admin.page, "GET", "/dashboard?days=7");
  expect(after.counters.supportHappening - before.counters.supportHappening).toBe(1);
  expect(after.counters.supportPending - before.counters.supportPending).toBe(1);
  expect(after.counters.supportFinished - before.counters.supportFinished).toBe(1);

  // The admin's dashboard (last 7 days by default) shows those figures.
  const page = admin.page;
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await expect(cardValue(page, "Em atendimento")).toHaveText(String(after.counters.supportHappening));
  await expect(cardValue(page, "Aguardando")).toHaveText(String(after.counters.supportPending));
  await expect(cardValue(page, "Finalizados")).toHaveText(String(after.counters.supportFinished));
  // Averages read as minutes; "—" when nothing in the period is averaged (a wait under a second).
  const minutes = (value: number | null) => (value === null ? "—" : /^\d+(,\d)? min$/);
  await expect(cardValue(page, "T.M. de atendimento")).toHaveText(minutes(after.counters.avgSupportTime));
  await expect(cardValue(page, "T.M. de espera")).toHaveText(minutes(after.counters.avgWaitTime));
  // Super-user cards are not an admin's.
  await expect(card(page, "Empresas")).toHaveCount(0);
  await expect(card(page, "Conexões ativas")).toHaveCount(0);

  // Both charts are drawn: bars per day, and a bar per agent named on its axis.
  const perDay = page.getByTestId("chart-tickets-day");
  await expect(perDay.locator(BARS).first()).toBeVisible();
  await expect(perDay).toContainText(/\d+ atendimentos? no período/);
  const perUser = page.getByTestId("chart-tickets-users");
  await expect(perUser.locator(BARS).first()).toBeVisible();
  await expect(perUser.locator("svg").filter({ hasText: "Ana" }).first()).toBeVisible();

  // Agents: Ana is rated 3 of 3 and online (she is logged in); Bruno is not.
  const attendants = page.getByRole("table", { name: "Atendentes" });
  const anaRow = attendants.getByRole("row").filter({ hasText: "Ana" });
  await expect(anaRow.getByRole("img", { name: "Avaliação 3 de 3" })).toBeVisible();
  await expect(anaRow).toContainText("Online");
  await expect(attendants.getByRole("row").filter({ hasText: "Bruno" })).toContainText("Offline");
  // Tall enough for the whole dashboard in one picture (the app scrolls inside its own frame).
  await page.setViewportSize({ width: 1280, height: 1350 });
  await shot(page, "dashboard-1-light");

  // A new conversation while the dashboard is open: the waiting count follows, no reload.
  await customerSends(admin.page, whatsappId, { from: numbers.fabio, name: `Fábio ${stamp}`, body: "Olá" });
  await expect(cardValue(page, "Aguardando")).toHaveText(String(after.counters.supportPending + 1));

  // No period, no figures: the filter asks to be set up.
  await page.getByRole("combobox", { name: "Período" }).click();
  await page.getByRole("option", { name: "Nenhum selecionado" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Parametrize o filtro" })).toBeVisible();
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Parametrize o filtro" })).toBeVisible();
  // By date: today only, the tickets per hour.
  await page.getByRole("combobox", { name: "Tipo de filtro" }).click();
  await page.getByRole("option", { name: "Filtro por data" }).click();
  // Today where the company is (São Paulo): the figures are counted in its zone, and between 21:00
  // and midnight there the browser's UTC date is already tomorrow.
  const today = companyClock(new Date(), false);
  await typeDate(page.getByRole("group", { name: "Data inicial" }), today);
  await typeDate(page.getByRole("group", { name: "Data final" }), today);
  await expect(cardValue(page, "Finalizados")).toHaveText(/^[1-9]\d*$/);
  await expect(perDay.locator(BARS).first()).toBeVisible();

  // Dark mode keeps the charts readable.
  await page.getByRole("button", { name: "Alternar tema" }).click();
  await expect(perUser.locator("svg").filter({ hasText: "Ana" }).first()).toBeVisible();
  await page.mouse.move(700, 1300);
  await shot(page, "dashboard-2-dark");
  await page.getByRole("button", { name: "Alternar tema" }).click();

  // Reports: from the side menu, the day's tickets of these customers, then the CSV of them.
  await page.getByRole("navigation", { name: "menu" }).getByRole("link", { name: "Relatórios" }).click();
  await expect(page).toHaveURL(/\/reports$/);
  await page.getByRole("searchbox", { name: "Contato" }).fill(tail);
  const table = page.getByRole("table", { name: "Relatórios" });
  const rows = table.getByRole("row").filter({ hasText: String(stamp) });
  await expect(rows).toHaveCount(4);
  const carlaRow = rows.filter({ hasText: `Carla ${stamp}` });
  await expect(carlaRow).toContainText("Finalizado");
  await expect(carlaRow).toContainText("Ana");
  await expect(carlaRow.getByRole("img", { name: "Avaliação 3 de 3" })).toBeVisible();
  await expect(rows.filter({ hasText: `Elisa ${stamp}` })).toContainText("Aguardando");
  await shot(page, "dashboard-3-reports");

  await page.getByRole("combobox", { name: "Status" }).click();
  await page.getByRole("option", { name: "Em atendimento" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(`Diego ${stamp}`);
  await page.getByRole("combobox", { name: "Status" }).click();
  await page.getByRole("option", { name: "Todos os status" }).click();
  await expect(rows).toHaveCount(4);
  // By agent: Ana holds Carla's and Diego's.
  await page.getByRole("combobox", { name: "Atendente" }).click();
  await page.getByRole("option", { name: "Ana", exact: true }).click();
  await expect(rows).toHaveCount(2);
  await page.getByRole("combobox", { name: "Atendente" }).click();
  await page.getByRole("option", { name: "Todos os atendentes" }).click();
  // By queue: all of them came in through Vendas, none through Suporte.
  const queues = page.getByRole("combobox", { name: "Filas" });
  await queues.click();
  await page.getByRole("option", { name: "Suporte" }).click();
  await expect(table).toContainText("Nenhum atendimento com estes filtros.");
  await queues.click();
  await page.getByRole("option", { name: "Vendas" }).click();
  await expect(rows).toHaveCount(4);
  await page.keyboard.press("Escape");

  const downloadStarted = page.waitForEvent("download");
  await page.getByRole("button", { name: "Exportar CSV" }).click();
  const download = await downloadStarted;
  await expect(page.getByRole("alert").filter({ hasText: "Relatório baixado." })).toBeVisible();
  expect(download.suggestedFilename()).toMatch(/^atendimentos-.*\.csv$/);
  const csv = await readFile(await download.path(), "utf8");
  expect(csv.startsWith("\uFEFF")).toBe(true);
  const lines = csv.trim().split(/\r?\n/);
  const ours = lines.filter((line) => line.includes(String(stamp)));
  expect(ours).toHaveLength(4);
  for (const number of Object.values(numbers)) {
    expect(ours.some((line) => line.includes(number))).toBe(true);
  }
  await expect(page.getByRole("button", { name: "Exportar CSV" })).toBeEnabled();

  await callApi(admin.page, "PUT", "/settings/userRating", { value: ratingBefore });
  await admin.context.close();
  await ana.context.close();
});

test("the super user also sees the connections and companies cards", async ({ browser }) => {
  const su = await newPerson(browser);
  await loginAs(su.page, "super@atende.demo", "Super123");
  await su.page.goto("/");
  await expect(cardValue(su.page, "Empresas")).toHaveText(/^[1-9]\d*$/);
  await expect(cardValue(su.page, "Conexões ativas")).toHaveText(/^\d+$/);
  await shot(su.page, "dashboard-4-super");
  // On a phone the cards, charts and table stack up; nothing sticks out sideways.
  await su.page.setViewportSize({ width: 390, height: 1600 });
  await expect(su.page.getByTestId("chart-tickets-day")).toBeVisible();
  expect(await su.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(su.page, "dashboard-5-phone");
  await su.context.close();
});

test("a chart whose figures cannot be fetched says so, and the rest of the dashboard stays", async ({
  browser,
}) => {
  const admin = await newPerson(browser);
  await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
  const broken = { status: 500, contentType: "application/json", body: '{"error":"ERR_INTERNAL"}' };
  await admin.page.route("**/dashboard/ticketsDay?**", (route) => route.fulfill(broken));
  await admin.page.route("**/dashboard/ticketsUsers?**", (route) => route.fulfill(broken));
  await admin.page.goto("/");
  const toasts = admin.page.getByRole("alert");
  await expect(toasts.filter({ hasText: "Erro ao buscar informações dos tickets" })).toBeVisible();
  await expect(toasts.filter({ hasText: "Erro ao obter informações da conversa" })).toBeVisible();
  await expect(cardValue(admin.page, "Finalizados")).toHaveText(/^\d+$/);
  await admin.context.close();
});

test("a plain agent has no dashboard nor reports", async ({ browser }) => {
  const bruno = await newPerson(browser);
  await loginAs(bruno.page, BRUNO.email, BRUNO.password);
  const menu = bruno.page.getByRole("navigation", { name: "menu" });
  await expect(menu.getByRole("link", { name: "Dashboard" })).toHaveCount(0);
  await expect(menu.getByRole("link", { name: "Relatórios" })).toHaveCount(0);
  await bruno.page.goto("/");
  await expect(bruno.page).toHaveURL(/\/tickets$/);
  await bruno.page.goto("/reports");
  await expect(bruno.page).toHaveURL(/\/tickets$/);
  await expect(callApi(bruno.page, "GET", "/dashboard?days=7")).rejects.toThrow(/→ 403 .*ERR_NO_PERMISSION/);
  await expect(callApi(bruno.page, "GET", "/ticket/reports")).rejects.toThrow(/→ 403/);
  await bruno.context.close();
});
