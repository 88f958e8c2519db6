import fs from "node:fs";
import { type Browser, type Page, type Route, expect } from "@playwright/test";
import { PNG, type Ticket, callApi, customerSends, vendasConnection, waitingTicketOf } from "./chatSetup";
import { DEMO, loginAs, newPerson, shot, test } from "./helpers";

/**
 * The chat window with a long conversation: 1,500 messages (5,000 with E2E_SCALE=full) served page by page (20 each, as the
 * server pages them) in place of GET /messages/{ticketId}, while everything else is the real app
 * and server. It scrolls from the newest message to the first one, loading every page, and back,
 * and reports frame times, long tasks and how much of the list is in the page.
 *
 * CHAT_PROFILE=<file.cpuprofile> also records a CPU profile of the scroll (open it in Chrome's
 * DevTools); WEB_DIST pointing at an unminified build (vite build --minify false) keeps the names.
 */

/**
 * 1,500 messages (75 pages) in CI, ten times the bubbles the page may hold: enough to prove the
 * window bounded while every page loads on the way up and back; E2E_SCALE=full runs the 5,000 of the
 * figures in bench/README.md (about 2 min on two quiet cores, against ~40 s).
 */
const TOTAL = process.env.E2E_SCALE === "full" ? 5_000 : 1_500;
const PAGE_SIZE = 20;
/** A realistic network: each page answers after this long. */
const PAGE_DELAY_MS = 60;
const FIRST_ID = 9_000_000;
const DAY_MS = 86_400_000;
/** The message the newest one quotes: 30 pages back, not loaded when the conversation opens. */
const FAR_QUOTE = TOTAL - 600;
/**
 * One wheel event of the climb through the whole conversation: longer than a page of 20 messages
 * (~1,250 px), so each flick reaches the top and asks for the next page, which still loads on the way.
 */
const WHEEL_PX = 2_000;
/** The way back down, every page loaded (nothing to wait for): flicks three times as long. */
const WHEEL_BACK_PX = 3_000;

interface FakeMessage {
  id: number;
  ticketId: number;
  contactId: number | null;
  body: string;
  fromMe: boolean;
  read: boolean;
  ack: number;
  mediaType: string;
  mediaUrl: string | null;
  mediaName: string | null;
  isDeleted: boolean;
  isEdited: boolean;
  isForwarded: boolean;
  isBot: boolean;
  quotedMsg: { id: number; body: string; fromMe: boolean; mediaType: string; isDeleted: boolean } | null;
  reactions: { emoji: string; fromMe: boolean }[];
  userId: number | null;
  queueId: number | null;
  sendError: string | null;
  createdAt: string;
  updatedAt: string;
}

const PHRASES = [
  "Bom dia! Em que posso ajudar?",
  "Oi, meu pedido ainda não chegou.",
  "Pode me passar o número do pedido, por favor?",
  "É o 48213.",
  "Obrigado! Vou verificar com a transportadora e já retorno.",
  "O pedido saiu do centro de distribuição ontem à tarde e deve chegar até sexta-feira. Assim que a transportadora atualizar o rastreio eu te aviso por aqui mesmo.",
  "Perfeito, obrigada!",
  "Consegue trocar o endereço de entrega?\nMudei de apartamento semana passada.",
  "Consigo sim. Qual o novo endereço completo, com CEP?",
  "Rua das Flores, 120, apto 31\nJardim Paulista\nSão Paulo - SP\n01415-000",
  "👍",
  "Atualizado! O novo prazo continua o mesmo.",
];

/** A conversation as customers and agents write it: runs from each side, replies, pictures, files. */
function conversation(ticketId: number, contactId: number): FakeMessage[] {
  const start = Date.now() - 120 * DAY_MS;
  const list: FakeMessage[] = [];
  let fromMe = false;
  for (let i = 0; i < TOTAL; i++) {
    if (i % 3 === 0) fromMe = !fromMe;
    const id = FIRST_ID + i;
    const kind = i % 41 === 7 ? "image" : i % 53 === 11 ? "application" : "chat";
    const quoted = i % 17 === 5 && i > 0 ? list[i - 1 - (i % 9)]! : null;
    list.push({
      id,
      // Earlier tickets with the contact, 900 messages each: the ended/started divider between them.
      ticketId: i >= TOTAL - 900 ? ticketId : ticketId - 100 + Math.floor(i / 900),
      contactId,
      body: kind === "application" ? "" : `${PHRASES[i % PHRASES.length]} (#${i})`,
      fromMe,
      read: true,
      ack: fromMe ? 4 : 0,
      mediaType: kind,
      mediaUrl: kind === "chat" ? null : `/scale-media/${id}.${kind === "image" ? "png" : "pdf"}`,
      mediaName: kind === "image" ? `foto-${i}.png` : kind === "application" ? `nota-fiscal-${i}.pdf` : null,
      isDeleted: i % 97 === 13,
      isEdited: i % 61 === 3,
      isForwarded: i % 71 === 9,
      isBot: false,
      quotedMsg: quoted && {
        id: quoted.id,
        body: quoted.body,
        fromMe: quoted.fromMe,
        mediaType: quoted.mediaType,
        isDeleted: quoted.isDeleted,
      },
      reactions: i % 23 === 4 ? [{ emoji: "❤️", fromMe: !fromMe }] : [],
      userId: fromMe ? 1 : null,
      queueId: null,
      sendError: null,
      createdAt: new Date(start + (i * (115 * DAY_MS)) / TOTAL).toISOString(),
      updatedAt: new Date(start + (i * (115 * DAY_MS)) / TOTAL).toISOString(),
    });
  }
  // The newest message answers one 30 pages back; the one before it, one from the first page.
  const quote = (from: number, to: number) => {
    const old = list[to]!;
    list[from]!.quotedMsg = {
      id: old.id,
      body: old.body,
      fromMe: old.fromMe,
      mediaType: "chat",
      isDeleted: false,
    };
  };
  quote(TOTAL - 1, FAR_QUOTE);
  quote(TOTAL - 2, 30);
  return list;
}

/** Serves GET /messages/{ticketId} from `messages`: newest page first, each page oldest first. */
async function serveConversation(
  page: Page,
  ticket: Ticket & Record<string, unknown>,
  messages: FakeMessage[],
) {
  /** `held`, when set, keeps every answer back until the test lets it go. */
  const served: { pages: number; held: Promise<void> | null } = { pages: 0, held: null };
  await page.route(new RegExp(`/messages/${ticket.id}(\\?.*)?$`), async (route: Route) => {
    if (route.request().method() !== "GET") return route.fallback();
    const pageNumber = Number(new URL(route.request().url()).searchParams.get("pageNumber") ?? "1");
    const end = Math.max(0, TOTAL - (pageNumber - 1) * PAGE_SIZE);
    const slice = messages.slice(Math.max(0, end - PAGE_SIZE), end);
    served.pages++;
    await new Promise((resolve) => setTimeout(resolve, PAGE_DELAY_MS));
    await served.held;
    await route.fulfill({
      json: { messages: slice, ticket, count: TOTAL, hasMore: pageNumber * PAGE_SIZE < TOTAL },
    });
  });
  await page.route(/\/scale-media\//, (route) =>
    route.fulfill({
      body: route.request().url().endsWith(".png") ? PNG : Buffer.from("%PDF-1.4\n%%EOF\n"),
      contentType: route.request().url().endsWith(".png") ? "image/png" : "application/pdf",
    }),
  );
  return served;
}

/** Records frame intervals and long tasks from now on, in the page. */
async function startRecording(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __longTasks: number[]; __stop: boolean };
    w.__frames = [];
    w.__longTasks = [];
    w.__stop = false;
    let last = performance.now();
    const tick = (now: number) => {
      w.__frames.push(now - last);
      last = now;
      if (!w.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
    }).observe({ type: "longtask", buffered: false });
  });
}

async function stopRecording(page: Page) {
  return page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __longTasks: number[]; __stop: boolean };
    w.__stop = true;
    return { frames: w.__frames.slice(1), longTasks: w.__longTasks };
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** What the list has in the page right now. */
function listState(page: Page) {
  return page.getByRole("log", { name: "Mensagens" }).evaluate((el) => ({
    bubbles: el.querySelectorAll("[data-message-id]").length,
    nodes: el.querySelectorAll("*").length,
    scrollTop: el.scrollTop,
    fromBottom: el.scrollHeight - el.scrollTop - el.clientHeight,
    height: el.scrollHeight,
    busy: el.getAttribute("aria-busy") === "true",
  }));
}

/**
 * Where each drawn message sits once the list has settled: every picture in it loaded and nothing
 * moved for three frames in a row (at most 5 s).
 */
function settledPositions(page: Page): Promise<Record<string, number>> {
  return page.getByRole("log", { name: "Mensagens" }).evaluate(
    (el) =>
      new Promise<Record<string, number>>((resolve) => {
        const snapshot = () => {
          const top = el.getBoundingClientRect().top;
          const out: Record<string, number> = {};
          for (const node of el.querySelectorAll<HTMLElement>("[data-message-id]")) {
            const rect = node.getBoundingClientRect();
            if (rect.bottom > top && rect.top < top + el.clientHeight)
              out[node.dataset.messageId!] = rect.top;
          }
          return out;
        };
        const started = performance.now();
        let last = "";
        let still = 0;
        const frame = () => {
          const now = snapshot();
          const key = JSON.stringify(now);
          const pictures = [...el.querySelectorAll("img")].every((img) => img.complete);
          still = key === last && pictures ? still + 1 : 0;
          last = key;
          if (still >= 3 || performance.now() - started > 5_000) resolve(now);
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
}

async function openLongConversation(browser: Browser) {
  const stamp = Date.now();
  const number = `55117${String(stamp).slice(-8)}`;
  const admin = await newPerson(browser);
  await admin.page.setViewportSize({ width: 1400, height: 900 });
  await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
  const whatsappId = await vendasConnection(admin.page);
  await customerSends(admin.page, whatsappId, { from: number, name: `Longa ${stamp}`, body: "Oi" });
  const listed = await waitingTicketOf(admin.page, number);
  const ticket = await callApi<Ticket & Record<string, unknown>>(admin.page, "GET", `/tickets/${listed.id}`);
  const messages = conversation(ticket.id, ticket.contactId);
  const served = await serveConversation(admin.page, ticket, messages);
  await admin.page.goto(`/tickets/${ticket.uuid}`);
  const log = admin.page.getByRole("log", { name: "Mensagens" });
  await expect(log.locator(`[data-message-id="${FIRST_ID + TOTAL - 1}"]`)).toBeInViewport();
  return { ...admin, ticket, messages, served, log, whatsappId, number };
}

// A trace snapshots the page's DOM at every step, in the page: it would be measured as the app's work.
test.use({ trace: "off" });

test.describe("the chat window with a long conversation", () => {
  test("a reply's quote brings its message from far back, loading the pages in between", async ({
    browser,
  }) => {
    const { context, log, served } = await openLongConversation(browser);
    const target = log.locator(`[data-message-id="${FIRST_ID + FAR_QUOTE}"]`);
    await expect(target).toHaveCount(0);
    await log
      .locator(`[data-message-id="${FIRST_ID + TOTAL - 1}"]`)
      .getByRole("button", { name: "Ir para a mensagem respondida" })
      .click();
    await expect(target).toBeInViewport({ timeout: 30_000 });
    console.log(`quote jump: ${served.pages} pages fetched to reach message #${FAR_QUOTE}`);
    await context.close();
  });

  test("scrolls from the newest message to the first and back with a bounded page", async ({ browser }) => {
    test.setTimeout(600_000);
    const { page, context, log, served, whatsappId, number } = await openLongConversation(browser);
    await page.getByRole("button", { name: "Aceitar" }).first().click();
    await expect(page.getByRole("button", { name: "Resolver" })).toBeVisible();
    const box = await log.boundingBox();
    await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);

    // Older pages arrive at the top without moving what is on screen. Each answer is held back
    // until the screen has settled (pictures drawn, nothing moving), then let go; what was on
    // screen is compared once the list has settled again.
    let worstShift = 0;
    const moves: string[] = [];
    for (let i = 0; i < 5; i++) {
      const pagesBefore = served.pages;
      let release!: () => void;
      served.held = new Promise((resolve) => (release = resolve));
      await log.evaluate((el) => el.scrollTo({ top: 0 }));
      await expect.poll(() => served.pages).toBeGreaterThan(pagesBefore);
      const before = await settledPositions(page);
      release();
      served.held = null;
      await expect.poll(async () => (await listState(page)).busy).toBe(false);
      const after = await settledPositions(page);
      for (const [id, top] of Object.entries(before)) {
        if (after[id] === undefined) continue;
        const shift = Math.abs(after[id] - top);
        if (shift >= 1) moves.push(`page ${i + 1}: #${Number(id) - FIRST_ID} moved ${shift.toFixed(1)} px`);
        worstShift = Math.max(worstShift, shift);
      }
    }
    console.log(`older page arrival: visible messages moved at most ${worstShift.toFixed(1)} px`);
    expect(worstShift, moves.slice(0, 5).join("; ")).toBeLessThan(1);

    // Newest to first with the mouse wheel, every page loading on the way.
    await log.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    const cdp = process.env.CHAT_PROFILE ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
      await cdp.send("Profiler.start");
    }
    await startRecording(page);
    let maxBubbles = 0;
    let maxNodes = 0;
    let wheels = 0;
    /**
     * One wheel step (a brisk flick, every page still loading on the way), then a look at the list
     * (one call into the page, as light as it gets).
     */
    const step = async (deltaY: number) => {
      await page.mouse.wheel(0, deltaY);
      await page.waitForTimeout(16);
      wheels++;
      const state = await listState(page);
      maxBubbles = Math.max(maxBubbles, state.bubbles);
      maxNodes = Math.max(maxNodes, state.nodes);
      return state;
    };
    const upStarted = Date.now();
    for (;;) {
      const state = await step(-WHEEL_PX);
      if (state.scrollTop < 1 && !state.busy && (await log.getByText("Início da conversa").count()) > 0)
        break;
      expect(wheels, "never reached the first message").toBeLessThan(20_000);
    }
    const upSeconds = (Date.now() - upStarted) / 1000;
    await expect(log.locator(`[data-message-id="${FIRST_ID}"]`)).toBeInViewport();
    const top = await listState(page);
    // And back to the newest.
    const downStarted = Date.now();
    while ((await step(WHEEL_BACK_PX)).fromBottom > 2) {
      expect(wheels, "never reached the newest message").toBeLessThan(20_000);
    }
    const downSeconds = (Date.now() - downStarted) / 1000;
    const { frames, longTasks } = await stopRecording(page);
    if (cdp) {
      const { profile } = await cdp.send("Profiler.stop");
      fs.writeFileSync(process.env.CHAT_PROFILE!, JSON.stringify(profile));
    }
    await expect(log.locator(`[data-message-id="${FIRST_ID + TOTAL - 1}"]`)).toBeInViewport();

    console.log(
      [
        `messages: ${TOTAL} in ${served.pages} page requests; list height at the top ${Math.round(top.height)} px`,
        `scroll up ${upSeconds.toFixed(1)} s, down ${downSeconds.toFixed(1)} s, ${wheels} wheel steps (${WHEEL_PX} px up, ${WHEEL_BACK_PX} px down)`,
        `frames: ${frames.length}, p50 ${ms(percentile(frames, 50))}, p95 ${ms(percentile(frames, 95))}, ` +
          `p99 ${ms(percentile(frames, 99))}, max ${ms(Math.max(...frames))}, ` +
          `over 50 ms: ${frames.filter((f) => f > 50).length}`,
        `long tasks: ${longTasks.length}, total ${ms(longTasks.reduce((a, b) => a + b, 0))}, ` +
          `max ${ms(longTasks.length ? Math.max(...longTasks) : 0)}`,
        `in the page at most: ${maxBubbles} message bubbles, ${maxNodes} DOM nodes in the list`,
      ].join("\n"),
    );
    expect(maxBubbles).toBeLessThan(150);

    // A reply's quote far above, loaded but not drawn: the list goes there and lights it up.
    const quoting = log.locator(`[data-message-id="${FIRST_ID + TOTAL - 2}"]`);
    await quoting.getByRole("button", { name: "Ir para a mensagem respondida" }).click();
    await expect(log.locator(`[data-message-id="${FIRST_ID + 30}"]`)).toBeInViewport();

    // Hover menu and double-click reply on a message drawn after scrolling.
    const row = log.locator(`[data-message-id="${FIRST_ID + 31}"]`);
    await row.hover();
    await row.getByRole("button", { name: "Opções da mensagem" }).click();
    await expect(page.getByRole("menuitem", { name: "Responder" })).toBeVisible();
    await page.keyboard.press("Escape");
    await row.getByRole("article").dblclick();
    await expect(page.getByText(/^Respondendo a /)).toBeVisible();

    // Scrolled up, a new customer message shows on the pill; the pill takes the agent down to it.
    await customerSends(page, whatsappId, { from: number, body: "Alguma novidade?" });
    const pill = page.getByRole("button", { name: "1 nova mensagem" });
    await expect(pill).toBeVisible();
    await pill.click();
    await expect(log.getByRole("article").filter({ hasText: "Alguma novidade?" })).toBeInViewport();
    // At the bottom, the next one is followed without a pill.
    await customerSends(page, whatsappId, { from: number, body: "Estou aguardando." });
    await expect(log.getByRole("article").filter({ hasText: "Estou aguardando." })).toBeInViewport();
    await expect(page.getByRole("button", { name: /nova mensagem/ })).toHaveCount(0);
    await page.mouse.move(0, 0);
    await shot(page, "chat-scale");
    await context.close();
  });
});
