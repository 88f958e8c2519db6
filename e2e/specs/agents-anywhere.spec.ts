import AxeBuilder from "@axe-core/playwright";
import { type Page, expect } from "@playwright/test";
import { DEFAULT_TIMEZONE } from "@atende/contracts";
import { customerSends, vendasConnection, waitingTicketOf } from "./chatSetup";
import { DEMO, loginAs, newPerson, test } from "./helpers";

/**
 * Agents anywhere (issue 38): the app installs (a valid manifest, the background worker controls
 * the page, and Chromium itself finds nothing missing), a Web Push the worker receives with the app
 * closed opens the right ticket when tapped, the command palette finds a ticket and opens it by
 * keyboard alone, and a date picker opens in English when the app is in English.
 */

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose: string }[];
}

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(png: Buffer): string {
  expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  return `${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`;
}

async function controlled(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
}

test("installs: a valid manifest, a worker controlling the page, a push that opens its ticket", async ({
  browser,
}) => {
  const { context, page } = await newPerson(browser);
  await context.grantPermissions(["notifications"]);
  await loginAs(page, DEMO.admin.email, DEMO.admin.password);

  // The manifest the page links, with the icons Chrome and Android ask for, of the sizes they say.
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  const manifest = (await (await page.request.get(href!)).json()) as Manifest;
  expect(manifest).toMatchObject({
    name: "Atende",
    short_name: "Atende",
    start_url: "/",
    display: "standalone",
  });
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  for (const size of ["192x192", "512x512"]) {
    const icon = manifest.icons.find((i) => i.sizes === size && i.purpose === "any");
    const res = await page.request.get(icon!.src);
    expect(res.headers()["content-type"]).toBe("image/png");
    expect(pngSize(await res.body())).toBe(size);
  }
  expect(manifest.icons.some((i) => i.purpose === "maskable")).toBe(true);
  const appleIcon = await page.request.get("/icons/apple-touch-icon.png");
  expect(pngSize(await appleIcon.body())).toBe("180x180");

  // The background worker controls the page from the first visit; Chromium finds it installable.
  await expect.poll(() => controlled(page)).toBe(true);
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as {
    installabilityErrors: { errorId: string }[];
  };
  // Playwright's contexts are off the record, where Chrome installs nothing whatever the site says:
  // the one error left is that one.
  expect(installabilityErrors.map((e) => e.errorId)).toEqual(["in-incognito"]);

  // A push for a ticket arrives with no tab of the app open: the worker shows it. (Headless
  // Chromium has no push service to subscribe to: the push is handed to the worker as the browser
  // would hand it, with the payload the server sends.)
  const stamp = Date.now();
  const number = `55116${String(stamp).slice(-8)}`;
  await customerSends(page, await vendasConnection(page), {
    from: number,
    name: `Push ${stamp}`,
    body: "Oi",
  });
  const ticket = await waitingTicketOf(page, number);
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
  await page.close();
  const payload = {
    title: `Push ${stamp}`,
    body: "Vocês entregam hoje?",
    url: `/tickets/${ticket.uuid}`,
    tag: `ticket-${ticket.uuid}`,
    key: `message-${stamp}`,
    lang: "pt",
  };
  const shown = await worker.evaluate(async (push) => {
    const scope = self as unknown as EventTarget & {
      registration: ServiceWorkerRegistration;
      PushEvent: new (type: string, init: { data: string }) => Event;
    };
    scope.dispatchEvent(new scope.PushEvent("push", { data: JSON.stringify(push) }));
    for (let i = 0; i < 100; i++) {
      const [notice] = await scope.registration.getNotifications({ tag: push.tag });
      if (notice) return { title: notice.title, body: notice.body, data: notice.data as unknown };
      await new Promise((r) => setTimeout(r, 50));
    }
    return null;
  }, payload);
  expect(shown).toEqual({ title: payload.title, body: payload.body, data: { url: payload.url } });

  // Tapped with the app open elsewhere (a window opened by a tap needs a real person's tap): the
  // app goes to that ticket.
  const again = await context.newPage();
  await again.goto("/contacts");
  await expect(again.getByRole("navigation", { name: "menu" })).toBeVisible();
  await worker.evaluate(async (tag) => {
    const scope = self as unknown as EventTarget & {
      registration: ServiceWorkerRegistration;
      NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
    };
    const [notice] = await scope.registration.getNotifications({ tag });
    scope.dispatchEvent(new scope.NotificationEvent("notificationclick", { notification: notice! }));
  }, payload.tag);
  await expect(again).toHaveURL(new RegExp(`/tickets/${ticket.uuid}$`));
  await context.close();
});

test("the command palette finds a ticket and opens it by keyboard alone", async ({ browser }) => {
  const { context, page } = await newPerson(browser);
  await loginAs(page, DEMO.admin.email, DEMO.admin.password);
  const stamp = Date.now();
  const name = `Paleta ${stamp}`;
  const number = `55115${String(stamp).slice(-8)}`;
  await customerSends(page, await vendasConnection(page), { from: number, name, body: "Quero um orçamento" });
  const ticket = await waitingTicketOf(page, number);

  await page.keyboard.press("Control+k");
  const palette = page.getByRole("dialog", { name: "Buscar e ir para" });
  const input = palette.getByRole("combobox", { name: "Buscar atendimentos, contatos, páginas e ações" });
  await expect(input).toBeFocused();
  await page.keyboard.type(`paleta ${stamp}`);
  const first = palette.getByRole("option").first();
  await expect(first).toContainText(`${name} · Atendimento #${ticket.id}`);
  const { violations } = await new AxeBuilder({ page })
    .include('[role="dialog"]')
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/tickets/${ticket.uuid}$`));
  await expect(palette).toBeHidden();

  // A page by its name, with the arrows: Escape closes without going anywhere.
  await page.keyboard.press("Control+k");
  await page.keyboard.type("contatos");
  await expect(palette.getByRole("option", { name: "Contatos", exact: true })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(palette).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/tickets/${ticket.uuid}$`));
  await context.close();
});

test("a date picker opens in English when the app is in English", async ({ browser }) => {
  const { context, page } = await newPerson(browser);
  await loginAs(page, DEMO.admin.email, DEMO.admin.password);
  await page.getByRole("button", { name: "Idioma" }).click();
  await page.getByRole("menuitem", { name: "English" }).click();

  await page.goto("/schedules");
  await page.getByRole("button", { name: "New schedule" }).click();
  const form = page.getByRole("dialog", { name: "New schedule" });
  const field = form.getByRole("group", { name: /Send date and time/ });
  // Month first and a 12-hour clock, whatever the browser's own language (pt-BR here).
  await expect(field.getByRole("spinbutton", { name: "Month" })).toBeVisible();
  await expect(field.getByRole("spinbutton", { name: "Meridiem" })).toHaveText(/^(AM|PM)$/);
  await field.getByRole("button", { name: /Choose date/ }).click();
  const month = new Intl.DateTimeFormat("en-US", {
    month: "long",
    year: "numeric",
    timeZone: DEFAULT_TIMEZONE,
  }).format(Date.now() + 3600_000);
  const calendar = page.getByRole("dialog").filter({ has: page.getByRole("grid") });
  await expect(calendar.getByText(month)).toBeVisible();
  await expect(calendar.getByRole("columnheader")).toHaveText(["S", "M", "T", "W", "T", "F", "S"]);
  await context.close();
});
