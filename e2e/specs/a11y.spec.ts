import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { type Locator, type Page, expect } from "@playwright/test";
import { DEMO, callApi, loginAs, newPerson, test } from "./helpers";
import { customerSends, vendasConnection, waitingTicketOf } from "./chatSetup";

/**
 * Accessibility (issue 24): axe-core's WCAG 2.1 A and AA rules on every route of the app's route
 * table, logged out, as admin and as agent, in light (and the colour rules again in dark); then on
 * the open chat, the main dialogs and the simulator. Any violation fails, naming the rule and the
 * elements.
 */

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
/** A WCAG 2.1 A rule axe still calls experimental and leaves out unless asked (issue 24 found it). */
const EXPERIMENTAL_WCAG_RULES = { "label-content-name-mismatch": { enabled: true } };

/**
 * The paths of web/src/App.tsx's route table, read from the source so a page added there is checked
 * without touching this file: the public ones (inside `<PublicRoute />`) and the others.
 */
function routeTable(): { publicPaths: string[]; privatePaths: string[] } {
  const source = readFileSync(new URL("../../web/src/App.tsx", import.meta.url), "utf8");
  const paths = (text: string) =>
    [...text.matchAll(/<Route\s[^>]*\bpath="([^"]+)"/g)].map((m) => m[1]!).filter((p) => p !== "*");
  const publicBlock = /<Route element=\{<PublicRoute \/>\}>([\s\S]*?)<\/Route>/.exec(source)?.[1] ?? "";
  const publicPaths = paths(publicBlock);
  return { publicPaths, privatePaths: paths(source).filter((p) => !publicPaths.includes(p)) };
}

/** Optional segments are dropped; a required `:param` takes a real id (a new one fails loudly here). */
function fillParams(path: string, ids: Record<string, number>): string {
  return path
    .split("/")
    .filter((segment) => !segment.endsWith("?"))
    .map((segment) => {
      if (!segment.startsWith(":")) return segment;
      const id = ids[segment.slice(1)];
      if (id === undefined) throw new Error(`route ${path}: give the check a real id for ${segment}`);
      return String(id);
    })
    .join("/");
}

/** Counts the page's fetches in flight, so a check waits for the page's data, not for a clock. */
const COUNT_FETCHES = () => {
  const w = window as unknown as { __inflight: number };
  w.__inflight = 0;
  const realFetch = window.fetch.bind(window);
  window.fetch = async (...args: Parameters<typeof fetch>) => {
    w.__inflight++;
    try {
      return await realFetch(...args);
    } finally {
      w.__inflight--;
    }
  };
};

/**
 * The page is drawn: the app has drawn the page of the address (web/src/App.tsx writes it on
 * `<html data-path>`: a navigation keeps the old page on screen until the new one is ready), no loader
 * or skeleton is left in it, no request of its own is still out, and a frame later it is still so
 * (a page the person may not see redirects from an effect of its first drawing).
 */
async function settled(page: Page) {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const state = () => {
            const pending: string[] = [];
            const drawn = document.documentElement.dataset.path;
            if (drawn !== location.pathname) pending.push(`still drawing ${drawn}`);
            const inflight = (window as unknown as { __inflight: number }).__inflight;
            if (inflight > 0) pending.push(`${inflight} fetches`);
            // A part of the page said to be out of date (aria-busy) is dimmed while it reloads.
            const loader = document.querySelector(
              "[role=progressbar]:not([aria-valuenow]), .MuiSkeleton-root, [aria-busy=true]",
            );
            if (loader) pending.push(loader.outerHTML.slice(0, 120));
            const moving = document
              .getAnimations()
              .filter((a) => a.playState === "running" && a.effect?.getTiming().iterations !== Infinity);
            if (moving.length > 0) pending.push(`${moving.length} animations`);
            return `${location.pathname}: ${pending.join(", ") || "settled"}`;
          };
          const first = state();
          if (!first.endsWith(": settled")) return first;
          await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
          const second = state();
          return second === first ? first : `${second} (was ${first})`;
        }),
      { message: "the page settles", intervals: [50, 100, 200] },
    )
    .toMatch(/: settled$/);
}

/** Follows a link inside the app (no reload: the session and the theme stay). */
async function goInside(page: Page, path: string) {
  await page.evaluate(async (to) => {
    window.history.pushState({}, "", to);
    window.dispatchEvent(new PopStateEvent("popstate"));
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  }, path);
  await settled(page);
}

/** Time spent inside axe, to tell it from the time pages take to load. */
let axeMs = 0;

interface Finding {
  where: string;
  rule: string;
  impact: string;
  help: string;
  nodes: string[];
}

/**
 * The rules a theme changes: those that read colours. The dark theme draws the same page as the light
 * one (same elements, names, roles and structure), so it is checked with these alone: the other
 * rules, already run on the light pages, would answer the same and cost about half of axe's time.
 */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];
let colourOnly = false;

async function audit(page: Page, where: string, findings: Finding[], scope?: string) {
  // Only violations are read: axe then keeps one node per passed rule instead of building a
  // selector and an HTML excerpt for every node that passed (most of its time on a big page).
  let builder = new AxeBuilder({ page }).options({
    rules: EXPERIMENTAL_WCAG_RULES,
    resultTypes: ["violations"],
  });
  builder = colourOnly ? builder.withRules(COLOUR_RULES) : builder.withTags(WCAG_TAGS);
  if (scope) builder = builder.include(scope);
  const started = Date.now();
  const { violations } = await builder.analyze();
  axeMs += Date.now() - started;
  if (violations.length > 0) console.log(`a11y: ${where}: ${violations.map((v) => v.id).join(", ")}`);
  for (const v of violations) {
    findings.push({
      where,
      rule: v.id,
      impact: v.impact ?? "",
      help: v.help,
      nodes: v.nodes.map(
        (n) =>
          `${n.target.join(" ")}  ${n.html.slice(0, 160)}\n      ${n.failureSummary?.split("\n").slice(1).join("; ") ?? ""}`,
      ),
    });
  }
}

function report(findings: Finding[]): string {
  return findings
    .map((f) => `${f.where}: ${f.rule} (${f.impact}) ${f.help}\n    ${f.nodes.join("\n    ")}`)
    .join("\n");
}

async function setTheme(page: Page, mode: "light" | "dark") {
  const dark = () => page.evaluate(() => document.documentElement.style.colorScheme === "dark");
  if ((await dark()) !== (mode === "dark")) {
    await page.getByRole("button", { name: "Alternar tema" }).click();
    await expect.poll(dark).toBe(mode === "dark");
  }
}

/** Every route as the logged-in person; a route that sends them elsewhere is checked where it lands. */
async function auditRoutes(page: Page, who: string, paths: string[], findings: Finding[]) {
  const seen = new Set<string>();
  const started = Date.now();
  for (const path of paths) {
    await goInside(page, path);
    const landed = new URL(page.url()).pathname;
    if (seen.has(landed)) continue;
    seen.add(landed);
    await audit(page, `${who} ${landed}`, findings);
  }
  console.log(`a11y: ${who}: ${seen.size} pages in ${Date.now() - started} ms: ${[...seen].join(" ")}`);
  return seen.size;
}

/** Opens a dialog, checks it, closes it with Escape. */
async function auditDialog(page: Page, where: string, opener: Locator, findings: Finding[]) {
  await opener.click();
  const dialog = page.getByRole("dialog").last();
  await expect(dialog).toBeVisible();
  await settled(page);
  await audit(page, where, findings);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
}

test.describe("accessibility (WCAG 2.1 A/AA, axe-core)", () => {
  test("every route, logged out, as admin and as agent, light and dark; the open chat, the dialogs and the simulator", async ({
    browser,
  }) => {
    test.setTimeout(600_000);
    const findings: Finding[] = [];
    const stamp = Date.now() % 10_000_000;

    const admin = await newPerson(browser);
    await admin.context.addInitScript(COUNT_FETCHES);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    // Ids for the routes with params: a contact list and a campaign of this run (not started).
    const whatsappId = await vendasConnection(admin.page);
    const list = await callApi<{ id: number }>(admin.page, "POST", "/contact-lists", {
      name: `A11y ${stamp}`,
    });
    await callApi(admin.page, "POST", "/contact-list-items", {
      name: `Cliente A11y ${stamp}`,
      number: `55118${String(stamp).padStart(8, "0")}`,
      email: "",
      contactListId: list.id,
    });
    const campaign = await callApi<{ id: number }>(admin.page, "POST", "/campaigns", {
      name: `A11y ${stamp}`,
      message1: "Olá {nome}!",
      whatsappId,
      contactListId: list.id,
    });
    // A conversation to open: a customer writes, the admin accepts and answers.
    const number = `55117${String(stamp).padStart(8, "0")}`;
    await customerSends(admin.page, whatsappId, {
      from: number,
      name: `Cliente A11y ${stamp}`,
      body: "Oi, tudo bem?",
    });
    const ticket = await waitingTicketOf(admin.page, number);

    const { publicPaths, privatePaths } = routeTable();
    const paths = privatePaths.map((p) => fillParams(p, { campaignId: campaign.id, contactListId: list.id }));
    expect(publicPaths).toContain("/login");
    expect(paths.length).toBeGreaterThan(20);

    const agent = await newPerson(browser);
    await agent.context.addInitScript(COUNT_FETCHES);
    const visitor = await newPerson(browser);
    await visitor.context.addInitScript(COUNT_FETCHES);
    await visitor.page.goto("/login");
    await loginAs(agent.page, DEMO.ana.email, DEMO.ana.password);

    const checked: Record<string, number> = {};
    for (const mode of ["light", "dark"] as const) {
      colourOnly = mode === "dark";
      // Logged out: the theme is the saved one, set before the page loads.
      await visitor.page.evaluate((m) => localStorage.setItem("preferredTheme", m), mode);
      await visitor.page.reload();
      await settled(visitor.page);
      checked[`visitor ${mode}`] = await auditRoutes(visitor.page, `visitor ${mode}`, publicPaths, findings);

      for (const [who, person] of [
        ["admin", admin],
        ["agent", agent],
      ] as const) {
        await setTheme(person.page, mode);
        checked[`${who} ${mode}`] = await auditRoutes(person.page, `${who} ${mode}`, paths, findings);
      }

      // The dialogs.
      const page = admin.page;
      await goInside(page, "/tickets");
      await auditDialog(
        page,
        `admin ${mode} new ticket`,
        page.getByRole("button", { name: "Novo Ticket" }).first(),
        findings,
      );
      await goInside(page, "/contacts");
      await auditDialog(
        page,
        `admin ${mode} contact`,
        page.getByRole("button", { name: "Adicionar contato" }).first(),
        findings,
      );
      await goInside(page, "/connections");
      await auditDialog(
        page,
        `admin ${mode} connection`,
        page.getByRole("button", { name: "Adicionar WhatsApp" }).first(),
        findings,
      );
      await goInside(page, "/queues");
      await auditDialog(
        page,
        `admin ${mode} queue`,
        page.getByRole("button", { name: "Adicionar fila" }),
        findings,
      );
      await goInside(page, "/users");
      await auditDialog(
        page,
        `admin ${mode} user`,
        page.getByRole("button", { name: "Adicionar usuário" }),
        findings,
      );

      // The open chat (accepted the first time round), and its transfer dialog.
      await goInside(page, `/tickets/${ticket.uuid}`);
      if (mode === "light") {
        await page.getByRole("button", { name: "Aceitar" }).first().click();
        await page.getByRole("textbox", { name: "Mensagem" }).fill("Olá! Em que posso ajudar?");
        await page.getByRole("button", { name: "Enviar", exact: true }).click();
        await expect(page.getByRole("log").getByText("Olá! Em que posso ajudar?")).toBeVisible();
      }
      await settled(page);
      await audit(page, `admin ${mode} open chat`, findings);
      await auditDialog(
        page,
        `admin ${mode} transfer`,
        page.getByRole("button", { name: "Transferir" }).first(),
        findings,
      );

      // The simulator with the conversation open.
      await goInside(page, "/simulator");
      await audit(page, `admin ${mode} simulator`, findings);
    }

    // Leave nothing for the other specs: the campaign and the list of this run.
    await callApi(admin.page, "DELETE", `/campaigns/${campaign.id}`);
    await callApi(admin.page, "DELETE", `/contact-lists/${list.id}`);

    console.log(`a11y: pages checked per role and theme ${JSON.stringify(checked)}; ${axeMs} ms in axe`);
    expect(findings.length, `axe found:\n${report(findings)}`).toBe(0);
    for (const person of [admin, agent, visitor]) await person.context.close();
  });
});
