import { DEFAULT_TIMEZONE } from "@atende/contracts";
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
  type WebSocket as PageSocket,
  test as base,
  expect,
} from "@playwright/test";
import { watchCsp } from "./cspGuard";

export const DEMO = {
  admin: { email: "admin@atende.demo", password: "Admin123" },
  ana: { email: "ana@atende.demo", password: "Agente123" },
};

export const BRUNO = { email: "bruno@atende.demo", password: "Agente123" };

/** Logs in through the login page as a person would, and waits for the app shell and its live channel. */
export async function loginAs(page: Page, email: string, password: string) {
  await watchCsp(page.context());
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("textbox", { name: "Senha", exact: true }).fill(password);
  const live = liveChannelReady(page);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByRole("navigation", { name: "menu" })).toBeVisible();
  // What the test does next may raise an event this page must hear.
  await live;
}

/** The contexts openContext (and newPerson) opened during the running test: closed when it ends (see `test`). */
let openedThisTest: Set<BrowserContext> | null = null;

/**
 * Playwright's test, with one thing more: every context a test opens with openContext or newPerson closes when the
 * test ends, passed or failed. The browser outlives the tests (one worker), so a context left open
 * kept its page running to the end of the suite: still connected, re-drawing on every event of the
 * demo company, a renderer's CPU taken from every later test.
 */
export const test = base.extend<{ closePeople: void }>({
  closePeople: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern.
    async ({}, use) => {
      const opened = new Set<BrowserContext>();
      openedThisTest = opened;
      await use();
      openedThisTest = null;
      await Promise.all([...opened].map((context) => context.close().catch(() => undefined)));
    },
    { auto: true },
  ],
});

/**
 * A fresh browser context: its own storage and cookies, like another computer, in Portuguese and
 * with less motion (as playwright.config.ts gives its own pages). Closed at the end of the test that
 * opened it. `options` add to those (permissions, say).
 */
export async function openContext(browser: Browser, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ locale: "pt-BR", reducedMotion: "reduce", ...options });
  openedThisTest?.add(context);
  await watchCsp(context);
  return context;
}

/** Another person at another computer (openContext), with a page open. `microphone` grants the (fake) microphone, for voice notes. */
export async function newPerson(browser: Browser, opts: { microphone?: boolean } = {}) {
  const context = await openContext(browser, opts.microphone ? { permissions: ["microphone"] } : {});
  return { context, page: await context.newPage() };
}

/**
 * A picture of the page for a person to look at, in test-results/screens/, when E2E_SHOTS=1: a green
 * run in CI writes none (a failed test keeps Playwright's own screenshot and trace).
 */
export async function shot(page: Page, name: string) {
  if (process.env.E2E_SHOTS !== "1") return;
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}

/** A call to the API as the user logged in on `page` (their token, from the app's storage). */
export async function callApi<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
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

type SpiedWindow = { __sockets: WebSocket[]; __blockSockets: boolean };

/**
 * Keeps the context's WebSockets at hand, so a test can cut the live channel (dropLiveChannel)
 * and let it come back (restoreLiveChannel). Call before the page loads.
 */
export async function watchLiveChannel(context: BrowserContext) {
  await context.addInitScript(() => {
    const spied = window as unknown as SpiedWindow;
    spied.__sockets = [];
    spied.__blockSockets = false;
    const RealWebSocket = window.WebSocket;
    window.WebSocket = class extends RealWebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(spied.__blockSockets ? "ws://127.0.0.1:9/" : url, protocols);
        spied.__sockets.push(this);
      }
    };
  });
}

/** Closes the page's WebSockets and keeps new ones from connecting: events sent now are lost. */
export async function dropLiveChannel(page: Page) {
  await page.evaluate(() => {
    const spied = window as unknown as SpiedWindow;
    spied.__blockSockets = true;
    for (const socket of spied.__sockets) socket.close();
  });
}

/** Lets the page's live channel connect again (socket.io retries on its own). */
export async function restoreLiveChannel(page: Page) {
  await page.evaluate(() => {
    (window as unknown as SpiedWindow).__blockSockets = false;
  });
}

/**
 * Resolves when the page's next live channel is ready: the server said "ready" once the socket had
 * joined the company's rooms. An event raised before that is not heard by the page (the app fetches
 * again on "ready", but a toast of a moment is gone), so a test that raises one awaits this. Call it
 * before the navigation that opens the channel; it fails after `timeoutMs`.
 */
export function liveChannelReady(page: Page, timeoutMs = 15_000): Promise<void> {
  return new Promise((ready, fail) => {
    const timer = setTimeout(() => {
      page.off("websocket", opened);
      fail(new Error(`the page's live channel was not ready within ${timeoutMs} ms`));
    }, timeoutMs);
    function opened(socket: PageSocket) {
      socket.on("framereceived", ({ payload }) => {
        if (payload !== '42["ready"]') return;
        clearTimeout(timer);
        page.off("websocket", opened);
        ready();
      });
    }
    page.on("websocket", opened);
  });
}

/**
 * Types into one of the app's date fields (MUI's pickers: a group of day, month, year, hour and
 * minute sections, named by its label) as a person does: the first section clicked, then the
 * digits, which move on from section to section by themselves. In Portuguese: ddMMyyyy, and HHmm
 * after it for a date and time.
 */
export async function typeDate(field: Locator, digits: string) {
  await field.getByRole("spinbutton").first().click();
  await field.page().keyboard.type(digits);
}

/**
 * `at` on the company's clock (the demo company keeps the default zone, São Paulo), as the
 * Portuguese date fields show and take it: ddMMyyyy, and HHmm after it `withTime`.
 */
export function companyClock(at: Date, withTime = true): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: DEFAULT_TIMEZONE,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return `${p.day}${p.month}${p.year}${withTime ? `${p.hour}${p.minute}` : ""}`;
}

/** What a date field shows, as digits (ddMMyyyyHHmm in Portuguese). */
export async function dateFieldDigits(field: Locator): Promise<string> {
  return (await field.getByRole("spinbutton").allTextContents()).join("").replace(/\D/g, "");
}
