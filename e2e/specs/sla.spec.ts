import AxeBuilder from "@axe-core/playwright";
import type { LoginAnswer } from "@atende/contracts";
import { type APIRequestContext, type Locator, type Page, expect } from "@playwright/test";
import { DEMO, callApi, loginAs, newPerson, shot, test } from "./helpers";
import { type Queue, type Ticket, type Whatsapp, waitingTicketOf } from "./chatSetup";

/**
 * Service levels (issue 39), as the people using them see them: an admin changes a queue's targets
 * in the queue dialog; customers' messages land in that queue; the waiting list shows each ticket's
 * chip (time left), which turns amber then red as time passes (the browser's clock is moved: the chip
 * is worked out in the browser from the due times the server set); "closest to breach first" puts
 * the ticket due first on top; and when the server's own clock passes a first-reply target of 1
 * minute (the shortest there is), the breach notice names the contact and opens the ticket. That
 * minute is the spec's floor: the first ticket comes in right after the login, and everything else
 * is done while its minute runs.
 */

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

function ticketList(page: Page): Locator {
  return page.getByRole("list", { name: "Lista de atendimentos" });
}

function ticketItem(page: Page, name: string): Locator {
  return ticketList(page).getByRole("listitem").filter({ hasText: name });
}

/** What a chip shows (its label for screen readers aside). */
function shown(chip: Locator): Locator {
  return chip.locator("[aria-hidden]");
}

/** The names on the first rows of the list, top down. */
async function topNames(page: Page, count: number): Promise<string[]> {
  const rows = ticketList(page).locator("li[data-index]");
  const names = await rows.evaluateAll((items) =>
    items
      .map((li) => ({
        index: Number((li as HTMLElement).dataset.index),
        name: li.querySelector(".ticket-name")?.textContent ?? "",
      }))
      .sort((a, b) => a.index - b.index)
      .map((row) => row.name),
  );
  return names.slice(0, count);
}

/** A call to the API as one user, before any browser is open (`callApi` is the same from a page). */
type Call = <T>(method: string, url: string, body?: unknown) => Promise<T>;

async function apiAs(request: APIRequestContext, who: { email: string; password: string }): Promise<Call> {
  const login = await request.post("/auth/login", { data: who });
  expect(login.ok(), await login.text()).toBe(true);
  const { token } = (await login.json()) as LoginAnswer;
  return async <T>(method: string, url: string, body?: unknown) => {
    const res = await request.fetch(url, {
      method,
      data: body,
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await res.text();
    if (!res.ok()) throw new Error(`${method} ${url} → ${res.status()} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

/** A connected simulator connection whose only queue is `queueId`: a customer's message waits there. */
async function connectionFor(call: Call, queueId: number, name: string): Promise<number> {
  const connection = await call<Whatsapp>("POST", "/whatsapp", {
    name,
    provider: "simulator",
    queueIds: [queueId],
  });
  await call("POST", `/simulator/${connection.id}/scan`);
  await expect
    .poll(
      async () => (await call<Whatsapp[]>("GET", "/whatsapp")).find((w) => w.id === connection.id)?.status,
    )
    .toBe("CONNECTED");
  return connection.id;
}

/** axe's WCAG 2.1 A and AA rules on one part of the page (the a11y spec walks every page; this is the new parts). */
async function axeOn(page: Page, selector: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include(selector).withTags(WCAG_TAGS).analyze();
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(" | ")}`);
}

const LIST = 'ul[aria-label="Lista de atendimentos"]';

test.describe("service levels", () => {
  test("an admin sets a queue's targets; the waiting tickets' chips count down, turn amber and red; closest to breach first; the breach is notified", async ({
    browser,
    request,
  }) => {
    // The server's breach comes a minute after the first ticket came in (the shortest target).
    test.setTimeout(120_000);
    const stamp = Date.now();
    const queueName = `SLA ${stamp % 100000}`;
    const first = { name: `Prazo A ${stamp}`, number: `55117${String(stamp).slice(-8)}` };
    const second = { name: `Prazo B ${stamp}`, number: `55116${String(stamp).slice(-8)}` };
    // A queue whose first reply is due in 1 minute, and a first customer in it: the server's minute
    // starts now, before the browser is open.
    const call = await apiAs(request, DEMO.admin);
    const queue = await call<Queue>("POST", "/queue", {
      name: queueName,
      color: `#${(stamp % 0xffffff).toString(16).padStart(6, "0")}`,
      slaFirstResponseMinutes: 1,
      slaResolutionMinutes: 120,
    });
    const whatsappId = await connectionFor(call, queue.id, `Simulador ${queueName}`);
    const messages = `/simulator/${whatsappId}/messages`;
    await call("POST", messages, { from: first.number, name: first.name, body: "Preciso de ajuda" });

    // The browser's login ends that API session (one session per user): the page calls from here on.
    const admin = await newPerson(browser);
    const page = admin.page;
    // The browser's clock, moved on by the test to see the chips change; the server keeps its own.
    await page.clock.install();
    await loginAs(page, DEMO.admin.email, DEMO.admin.password);
    const tickets: Ticket[] = [];

    try {
      tickets.push(await waitingTicketOf(page, first.number));

      // The admin gives the queue 2 minutes to the first reply (typed as minutes) and a warning at
      // half the time, in the queue dialog, meeting its validation on the way.
      await page.goto("/queues");
      await page.getByRole("button", { name: `Editar fila ${queueName}` }).click();
      const dialog = page.getByRole("dialog", { name: "Editar fila" });
      await dialog.getByRole("tab", { name: "Níveis de serviço" }).click();
      const firstReply = dialog.getByRole("group", { name: "Tempo até a primeira resposta" });
      const resolution = dialog.getByRole("group", { name: "Tempo até a resolução" });
      await expect(firstReply.getByRole("spinbutton", { name: "Minutos" })).toHaveValue("1");
      await expect(resolution.getByRole("spinbutton", { name: "Horas" })).toHaveValue("2");
      await expect(resolution.getByText("Total: 2 h")).toBeVisible();
      expect(await axeOn(page, '[role="dialog"]')).toEqual([]);
      // Zero minutes is no target: refused under the field.
      await firstReply.getByRole("spinbutton", { name: "Minutos" }).fill("0");
      await dialog.getByRole("button", { name: "Salvar" }).click();
      await expect(firstReply.getByText("Valor inválido")).toBeVisible();
      await firstReply.getByRole("spinbutton", { name: "Minutos" }).fill("2");
      await dialog.getByRole("spinbutton", { name: "Alerta ao atingir (%)" }).fill("50");
      await shot(page, "sla-queue-dialog");
      await dialog.getByRole("button", { name: "Salvar" }).click();
      await expect(dialog).toBeHidden();
      const saved = (await callApi<(Queue & Record<string, unknown>)[]>(page, "GET", "/queue")).find(
        (q) => q.id === queue.id,
      );
      expect(saved).toMatchObject({
        slaFirstResponseMinutes: 2,
        slaResolutionMinutes: 120,
        slaWarningPercent: 50,
        slaPauseOnCustomer: false,
      });

      // A second customer comes in under the new targets.
      await callApi(page, "POST", messages, { from: second.number, name: second.name, body: "Olá?" });
      tickets.push(await waitingTicketOf(page, second.number));

      await page.goto("/tickets");
      await page.getByRole("tab", { name: /^Aguardando/ }).click();
      const chipA = ticketItem(page, first.name).getByTestId("sla-chip");
      const chipB = ticketItem(page, second.name).getByTestId("sla-chip");
      // Newest first: B above A. Each chip gives the time left and, to a screen reader, which target.
      await expect.poll(() => topNames(page, 2)).toEqual([second.name, first.name]);
      await expect(chipB).toHaveAttribute("data-sla", "ok");
      await expect(shown(chipB)).toHaveText(/^\d min$/);
      await expect(chipB).toHaveAttribute("title", /^Primeira resposta: faltam \d min \(prazo \d\d:\d\d\)$/);
      await expect(chipA).toBeVisible();
      await shot(page, "sla-list");

      // "Closest to breach first": A, due first, goes on top (asked of the server), and stays chosen.
      const sort = page.getByRole("button", { name: "Mais próximo do prazo primeiro" });
      await sort.click();
      await expect(sort).toHaveAttribute("aria-pressed", "true");
      await expect.poll(() => topNames(page, 2)).toEqual([first.name, second.name]);

      // A minute on (on this browser's clock): B past half its time is amber, A past its minute red.
      await page.clock.fastForward("01:05");
      await expect(chipB).toHaveAttribute("data-sla", "warning");
      await expect(chipA).toHaveAttribute("data-sla", "breached");
      await expect(shown(chipA)).toHaveText(/^atrasado há (< 1|\d) min$/);
      await shot(page, "sla-list-warning-breached");
      expect(await axeOn(page, LIST)).toEqual([]);
      await page.getByRole("button", { name: "Alternar tema" }).click();
      await expect.poll(() => page.evaluate(() => document.documentElement.style.colorScheme)).toBe("dark");
      expect(await axeOn(page, LIST)).toEqual([]);
      await shot(page, "sla-list-dark");
      await page.getByRole("button", { name: "Alternar tema" }).click();

      // The server's clock passes A's minute: the notice names the contact and the target; Open opens it.
      const notice = page.getByText(`Primeira resposta atrasada: ${first.name}`);
      await expect(notice).toBeVisible({ timeout: 75_000 });
      await page
        .locator(".notistack-MuiContent")
        .filter({ has: notice })
        .getByRole("button", { name: "Abrir" })
        .click();
      await expect(page).toHaveURL(new RegExp(`/tickets/${tickets[0]!.uuid}$`));
      await expect(page.locator("header").getByTestId("sla-chip")).toHaveAttribute("data-sla", "breached");
      await shot(page, "sla-chat");
      // The order is remembered for this user.
      await page.reload();
      await expect(sort).toHaveAttribute("aria-pressed", "true");
    } finally {
      // No clock of this spec's tickets is left running to ring in later specs.
      for (const ticket of tickets) await callApi(page, "PUT", `/tickets/${ticket.id}`, { status: "closed" });
      await admin.context.close();
    }
  });
});
