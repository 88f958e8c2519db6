import type { TicketDTO, TicketsPage } from "@atende/contracts";
import { type Page, type Route, expect } from "@playwright/test";
import { DEMO, loginAs, shot, test } from "./helpers";

/**
 * Thousands of tickets in the Atendendo list (3,000; ten thousand with E2E_SCALE=full), measured in Chromium. GET /tickets is answered in
 * the browser (page.route) with realistic tickets in pages of 40, like the server pages them, so
 * the figures are the browser's alone: frame times while the list is scrolled with the mouse
 * wheel to its very end (loading every page) and back, long tasks, and how many rows and
 * elements the page holds. Figures are printed, not asserted: only the windowing is (the page
 * never holds more than a bounded number of rows).
 */

// Thousands of wheel steps: a trace would snapshot the page at each one and weigh on the figures.
test.use({ trace: "off" });

/**
 * 3,000 tickets (75 pages) in CI, thirty times the rows the page may hold: enough to prove the window
 * bounded to the list's end and back; E2E_SCALE=full runs the ten thousand of the figures.
 */
const TOTAL = process.env.E2E_SCALE === "full" ? 10_000 : 3_000;
const PAGE_SIZE = 40;
const MAX_ROWS_IN_PAGE = 100;
/** One wheel event of the scroll through the whole list: a quick trackpad flick (about 30 rows). */
const WHEEL_PX = 2_400;
/** The way back, everything loaded (nothing to wait for): flicks three times as long. */
const WHEEL_BACK_PX = 3 * WHEEL_PX;

const FIRST = ["Ana", "Bruno", "Carla", "Diego", "Elisa", "Fábio", "Gabriela", "Heitor", "Isabela", "João"];
const LAST = ["Silva", "Souza", "Oliveira", "Pereira", "Costa", "Rodrigues", "Almeida", "Nascimento"];
const TEXTS = [
  "Olá, gostaria de saber o valor do plano anual",
  "Meu pedido ainda não chegou, podem verificar?",
  "Obrigado pelo atendimento!",
  "Pode me mandar a segunda via do boleto?",
  "Qual o horário de funcionamento da loja no sábado?",
  "📷 Imagem",
  "Preciso trocar o endereço de entrega do pedido 4821",
  "Bom dia",
];
const QUEUES = [
  { id: 9001, name: "Vendas", color: "#2e7d32" },
  { id: 9002, name: "Suporte", color: "#1565c0" },
  { id: 9003, name: "Financeiro", color: "#ad1457" },
];
const TAGS = [
  { id: 9101, name: "VIP", color: "#f9a825" },
  { id: 9102, name: "Atrasado", color: "#c62828" },
  { id: 9103, name: "Orçamento", color: "#6a1b9a" },
];

type Status = TicketDTO["status"];

/** The i-th ticket, newest first: a few minutes apart, so times, dates and elapsed labels all show. */
function fakeTicket(i: number, userId: number, status: Status): TicketDTO {
  const name = `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]} ${i + 1}`;
  const id = 1_000_000 + i;
  const at = new Date(Date.now() - i * 97_000).toISOString();
  const queue = QUEUES[i % QUEUES.length]!;
  return {
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, "0")}`,
    status,
    contactId: id,
    contact: { id, name, number: `55119${String(10_000_000 + i)}`, profilePicUrl: "", isGroup: false },
    userId: status === "pending" ? null : userId,
    user: status === "pending" ? null : { id: userId, name: "Admin" },
    queueId: queue.id,
    queue,
    whatsappId: 1,
    whatsapp: { id: 1, name: "Simulador" },
    lastMessage: TEXTS[i % TEXTS.length]!,
    unreadMessages: i % 5 === 0 ? (i % 13) + 1 : 0,
    isGroup: false,
    chatbot: false,
    tags: TAGS.filter((_, t) => (i + t) % 4 === 0),
    sla: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** Serves GET /tickets in pages of 40: `totals` tickets per status, none for the others. */
async function serveTickets(
  page: Page,
  userId: number,
  totals: Partial<Record<Status, number>>,
): Promise<{ pagesServed: () => number }> {
  let served = 0;
  await page.route(
    (url) => url.pathname === "/tickets" && url.searchParams.has("pageNumber"),
    async (route: Route) => {
      const url = new URL(route.request().url());
      const pageNumber = Number(url.searchParams.get("pageNumber"));
      const status = url.searchParams.get("status") as Status;
      const total = totals[status] ?? 0;
      const from = (pageNumber - 1) * PAGE_SIZE;
      const tickets = Array.from({ length: Math.max(0, Math.min(PAGE_SIZE, total - from)) }, (_, k) =>
        fakeTicket(from + k, userId, status),
      );
      served += 1;
      const body: TicketsPage = { tickets, count: total, hasMore: from + PAGE_SIZE < total };
      await route.fulfill({ json: body });
    },
  );
  return { pagesServed: () => served };
}

interface FrameStats {
  frames: number;
  p50: number;
  p95: number;
  max: number;
  over50ms: number;
  longTasks: number;
  longTaskMs: number;
  maxRows: number;
}

/** Starts recording frame deltas (requestAnimationFrame), long tasks and the most rows seen at once. */
async function startRecording(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __perf: { deltas: number[]; longTasks: number[]; maxRows: number } };
    const perf = { deltas: [] as number[], longTasks: [] as number[], maxRows: 0 };
    w.__perf = perf;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) perf.longTasks.push(entry.duration);
    }).observe({ type: "longtask" });
    let last = performance.now();
    const tick = (now: number) => {
      perf.deltas.push(now - last);
      last = now;
      perf.maxRows = Math.max(perf.maxRows, document.querySelectorAll("li[data-ticket-id]").length);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

async function takeStats(page: Page): Promise<FrameStats> {
  return page.evaluate(() => {
    const w = window as unknown as { __perf: { deltas: number[]; longTasks: number[]; maxRows: number } };
    const { deltas, longTasks, maxRows } = w.__perf;
    const sorted = [...deltas].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    const stats = {
      frames: sorted.length,
      p50: at(0.5),
      p95: at(0.95),
      max: sorted[sorted.length - 1] ?? 0,
      over50ms: sorted.filter((d) => d > 50).length,
      longTasks: longTasks.length,
      longTaskMs: longTasks.reduce((sum, d) => sum + d, 0),
      maxRows,
    };
    w.__perf = { deltas: [], longTasks: [], maxRows: 0 };
    return stats;
  });
}

function report(phase: string, s: FrameStats, ms: number) {
  const f = (n: number) => n.toFixed(1);
  console.log(
    `[tickets-scale] ${phase}: ${(ms / 1000).toFixed(1)} s, ${s.frames} frames; frame p50 ${f(s.p50)} ms, ` +
      `p95 ${f(s.p95)} ms, max ${f(s.max)} ms, ${s.over50ms} frames over 50 ms; ` +
      `long tasks ${s.longTasks} (${f(s.longTaskMs)} ms in all); at most ${s.maxRows} rows in the page`,
  );
}

test("thousands of tickets scroll to the end and back with only a window of rows in the page", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await loginAs(page, DEMO.admin.email, DEMO.admin.password);
  const userId = await page.evaluate(() => Number(localStorage.getItem("userId")));
  const server = await serveTickets(page, userId, { open: TOTAL });

  await page.goto("/tickets");
  const list = page.getByRole("list", { name: "Lista de atendimentos" });
  await expect(list.getByRole("listitem").first()).toBeVisible();
  await expect(page.getByRole("tab", { name: /^Atendendo/ })).toContainText("999+");
  const scroller = list.locator("xpath=..");
  const box = (await scroller.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);

  // Down to the very end, one wheel notch (100 px) a frame at a time would take minutes for
  // ~250,000 px (840,000 at full scale): a flick of WHEEL_PX per event, then a frame to paint.
  await startRecording(page);
  let started = Date.now();
  for (let step = 0; ; step++) {
    await page.mouse.wheel(0, WHEEL_PX);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    if (step % 20 !== 0) continue;
    const state = await scroller.evaluate(
      (el, lastIndex) => ({
        atEnd: el.scrollHeight - el.scrollTop - el.clientHeight < 2,
        last: document.querySelector(`li[data-index="${lastIndex}"]`) !== null,
      }),
      TOTAL - 1,
    );
    if (state.atEnd && state.last) break;
    expect(Date.now() - started, "scrolling to the end took too long").toBeLessThan(240_000);
  }
  const down = await takeStats(page);
  const downMs = Date.now() - started;
  await expect(list.locator(`li[data-index="${TOTAL - 1}"]`)).toContainText(`${TOTAL}`);
  const domAtEnd = await page.evaluate(() => document.getElementsByTagName("*").length);
  const rowsAtEnd = await list.getByRole("listitem").count();
  await shot(page, "tickets-scale-end");

  // And back to the top, everything loaded now.
  await startRecording(page);
  started = Date.now();
  while ((await scroller.evaluate((el) => el.scrollTop)) > 0) {
    for (let i = 0; i < 20; i++) {
      await page.mouse.wheel(0, -WHEEL_BACK_PX);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    }
  }
  const up = await takeStats(page);
  const upMs = Date.now() - started;

  report(`down, loading ${TOTAL / PAGE_SIZE} pages`, down, downMs);
  report("back up, all loaded", up, upMs);
  console.log(
    `[tickets-scale] pages served ${server.pagesServed()}; at the end: ${rowsAtEnd} rows and ` +
      `${domAtEnd} elements in the whole page (for 10,000 tickets)`,
  );
  expect(down.maxRows).toBeLessThan(MAX_ROWS_IN_PAGE);
  expect(up.maxRows).toBeLessThan(MAX_ROWS_IN_PAGE);
  expect(rowsAtEnd).toBeLessThan(MAX_ROWS_IN_PAGE);

  // The keyboard still walks the whole list: End reaches the last ticket, Home the first.
  const first = list.locator('li[data-index="0"]').getByRole("button").first();
  await first.focus();
  await page.keyboard.press("ArrowDown");
  await expect(list.locator('li[data-index="1"]').getByRole("button").first()).toBeFocused();
  await page.keyboard.press("End");
  await expect(
    list
      .locator(`li[data-index="${TOTAL - 1}"]`)
      .getByRole("button")
      .first(),
  ).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(
    list
      .locator(`li[data-index="${TOTAL - 2}"]`)
      .getByRole("button")
      .first(),
  ).toBeFocused();
  await page.keyboard.press("Home");
  await expect(first).toBeFocused();
  expect(await list.getByRole("listitem").count()).toBeLessThan(MAX_ROWS_IN_PAGE);
});

/** The demo's connected simulator connection. */
async function simulatorConnection(page: Page): Promise<number> {
  const list = await page.evaluate(async () => {
    const token = JSON.parse(localStorage.getItem("token") ?? "null") as string;
    const res = await fetch("/whatsapp", { headers: { Authorization: `Bearer ${token}` } });
    return (await res.json()) as { id: number; provider: string; status: string }[];
  });
  const connection = list.find((w) => w.provider === "simulator" && w.status === "CONNECTED");
  if (!connection) throw new Error("the demo has no connected simulator connection");
  return connection.id;
}

async function customerWrites(page: Page, whatsappId: number, from: string, name: string) {
  await page.evaluate(
    async ({ whatsappId, from, name }) => {
      const token = JSON.parse(localStorage.getItem("token") ?? "null") as string;
      const res = await fetch(`/simulator/${whatsappId}/messages`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ from, name, body: "Olá, chegou agora" }),
      });
      if (!res.ok) throw new Error(`simulator answered ${res.status}`);
    },
    { whatsappId, from, name },
  );
}

test("a ticket arriving above the rows being read leaves them where they are; at the top it shows", async ({
  page,
}) => {
  const stamp = Date.now();
  await loginAs(page, DEMO.admin.email, DEMO.admin.password);
  const userId = await page.evaluate(() => Number(localStorage.getItem("userId")));
  const whatsappId = await simulatorConnection(page);
  await serveTickets(page, userId, { pending: 300 });
  await page.goto("/tickets");
  const waiting = page.getByRole("tab", { name: /^Aguardando/ });
  await waiting.click();
  await expect(waiting).toContainText("300");
  const list = page.getByRole("list", { name: "Lista de atendimentos" });
  const scroller = list.locator("xpath=..");
  const box = (await scroller.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  // Well inside the first page of 40 (about 4,800 px can scroll), and only once the wheel is done:
  // a wheel step still on its way when the row is read would move it afterwards. Near the end of
  // the loaded rows it did, by the part of a step the end had held back until the next page came.
  for (let i = 0; i < 6; i++) await page.mouse.wheel(0, 500);
  const scrollTop = () => scroller.evaluate((el) => el.scrollTop);
  await expect
    .poll(async () => {
      const reads = [await scrollTop()];
      for (let i = 0; i < 2; i++) {
        await page.waitForTimeout(200);
        reads.push(await scrollTop());
      }
      return reads.every((r) => r === reads[0]) ? reads[0]! : -1;
    })
    .toBeGreaterThan(2_500);

  // The row in the middle of the view, and where it is on the screen.
  const middle = await page.evaluate(
    ({ x, y }) => {
      const row = document.elementFromPoint(x, y)?.closest<HTMLElement>("li[data-ticket-id]");
      return row ? { id: row.dataset.ticketId!, top: row.getBoundingClientRect().top } : null;
    },
    { x: box.x + box.width / 2, y: box.y + box.height / 2 },
  );
  expect(middle).not.toBeNull();
  const row = list.locator(`li[data-ticket-id="${middle!.id}"]`);

  const first = `Chegou ${stamp}`;
  await customerWrites(page, whatsappId, `55114${String(stamp).slice(-8)}`, first);
  await expect(waiting).toContainText("301");
  await expect.poll(async () => Math.round((await row.boundingBox())!.y - middle!.top)).toBe(0);

  // Back at the top, the next one to arrive comes into view.
  await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(list.locator('li[data-index="0"]')).toContainText(first);
  const second = `Chegou também ${stamp}`;
  await customerWrites(page, whatsappId, `55113${String(stamp).slice(-8)}`, second);
  await expect(list.locator('li[data-index="0"]')).toContainText(second);
  await expect(list.locator('li[data-index="0"]')).toBeInViewport();
  expect(await scroller.evaluate((el) => el.scrollTop)).toBe(0);
});
