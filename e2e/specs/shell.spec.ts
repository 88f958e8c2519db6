import { expect, type Page } from "@playwright/test";
import { customerSends, vendasConnection, waitingTicketOf } from "./chatSetup";
import { DEMO, callApi, loginAs, newPerson, openContext, test } from "./helpers";

/** Moves inside the app as a typed address would, without reloading it (one login for many pages). */
async function openInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, "", to);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, path);
}

test("an agent typing admin addresses lands on /tickets with 'Acesso não permitido'; the menu is attendance only; the bell is in the top bar", async ({
  browser,
}) => {
  const { context, page } = await newPerson(browser);
  await loginAs(page, DEMO.ana.email, DEMO.ana.password);
  await page.goto("/contacts");
  const menu = page.getByRole("navigation", { name: "menu" });
  await expect(menu.getByRole("link", { name: "Atendimentos" })).toBeVisible();
  for (const adminEntry of ["Dashboard", "Conexões", "Filas & Chatbot", "Usuários", "Configurações"])
    await expect(menu.getByRole("link", { name: adminEntry })).toHaveCount(0);
  // The bell left the tickets header for the top bar: it is there on any page.
  await expect(page.getByRole("banner").getByRole("button", { name: /notificações/i })).toBeVisible();

  for (const path of ["/", "/connections", "/queues", "/users", "/settings", "/files", "/financeiro"]) {
    await openInApp(page, "/contacts");
    await expect(page).toHaveURL(/\/contacts$/);
    await openInApp(page, path);
    await expect(page, path).toHaveURL(/\/tickets$/);
    await expect(page.getByText("Acesso não permitido").last()).toBeVisible();
  }
  await context.close();
});

/** A 2400×1600 photo-like PNG (gradients and grain), drawn by the browser: several megabytes. */
async function bigPng(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement("canvas");
    canvas.width = 2400;
    canvas.height = 1600;
    const context = canvas.getContext("2d")!;
    const gradient = context.createLinearGradient(0, 0, 2400, 1600);
    gradient.addColorStop(0, "#2a6f97");
    gradient.addColorStop(1, "#f4a261");
    context.fillStyle = gradient;
    context.fillRect(0, 0, 2400, 1600);
    const pixels = context.getImageData(0, 0, 2400, 1600);
    for (let i = 0; i < pixels.data.length; i += 4)
      pixels.data[i] = (pixels.data[i]! + ((i * 7919) % 23)) % 256;
    context.putImageData(pixels, 0, 0);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), "image/png"));
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000)
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  });
  return Buffer.from(base64, "base64");
}

test("the background worker: registered at /, never cached; a hidden tab's notice comes from it and opens the ticket; a big photo goes out as a smaller JPEG", async ({
  browser,
}) => {
  const context = await openContext(browser, { permissions: ["notifications"] });
  // The tab can be sent to the background (document hidden); the worker's notices are recorded.
  await context.addInitScript(() => {
    const spied = window as unknown as { __hidden: boolean; __shown: unknown[] };
    spied.__hidden = false;
    spied.__shown = [];
    Object.defineProperty(document, "visibilityState", {
      get: () => (spied.__hidden ? "hidden" : "visible"),
    });
    const show = ServiceWorkerRegistration.prototype.showNotification;
    ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
      spied.__shown.push({ title, body: options?.body, data: options?.data });
      return show.call(this, title, options);
    };
  });
  const page = await context.newPage();
  await loginAs(page, DEMO.admin.email, DEMO.admin.password);

  const worker = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return {
      scope: registration.scope,
      script: registration.active?.scriptURL,
      caches: await caches.keys(),
    };
  });
  expect(worker.scope).toBe(new URL("/", page.url()).href);
  expect(worker.script).toBe(new URL("/sw.js", page.url()).href);
  expect(worker.caches).toEqual([]);
  const script = await page.request.get("/sw.js");
  expect(script.headers()["cache-control"]).toBe("no-cache");
  expect(await script.text()).not.toContain('addEventListener("fetch"');

  // A customer writes while the tab is in the background: the worker shows the notice.
  const stamp = Date.now();
  const customer = `Fundo ${stamp}`;
  const number = `55118${String(stamp).slice(-8)}`;
  const whatsappId = await vendasConnection(page);
  await page.evaluate(() => ((window as unknown as { __hidden: boolean }).__hidden = true));
  await customerSends(page, whatsappId, { from: number, name: customer, body: "Vocês abrem sábado?" });
  const ticket = await waitingTicketOf(page, number);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __shown: unknown[] }).__shown))
    .toEqual([{ title: customer, body: "Vocês abrem sábado?", data: { url: `/tickets/${ticket.uuid}` } }]);
  await page.evaluate(() => ((window as unknown as { __hidden: boolean }).__hidden = false));

  // Clicking it (in the worker) brings this tab to the ticket.
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
  await sw.evaluate(async (tag) => {
    // The worker's global scope (a type the page's DOM library does not name).
    const scope = self as unknown as EventTarget & {
      registration: ServiceWorkerRegistration;
      NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
    };
    const [notice] = await scope.registration.getNotifications({ tag });
    if (!notice) throw new Error("no notification shown");
    scope.dispatchEvent(new scope.NotificationEvent("notificationclick", { notification: notice }));
  }, `ticket-${ticket.uuid}`);
  await expect(page).toHaveURL(new RegExp(`/tickets/${ticket.uuid}$`));

  // A big photo from the attachment dialog goes out as a JPEG a fraction of its size.
  await callApi(page, "PUT", `/tickets/${ticket.id}`, { status: "open" });
  const png = await bigPng(page);
  expect(png.length).toBeGreaterThan(1_000_000);
  await page.locator('input[type="file"]').first().setInputFiles({
    name: "vitrine.png",
    mimeType: "image/png",
    buffer: png,
  });
  const attach = page.getByRole("dialog", { name: "Enviar 1 arquivo" });
  await attach.getByLabel("Legenda").fill("Nossa vitrine");
  await attach.getByRole("button", { name: "Enviar" }).click();
  await expect(attach).toBeHidden();
  let photo: { mediaName: string | null; mediaType: string; mediaUrl: string | null } | undefined;
  await expect
    .poll(async () => {
      const sent = await callApi<{ messages: (NonNullable<typeof photo> & { body: string })[] }>(
        page,
        "GET",
        `/messages/${ticket.id}`,
      );
      photo = sent.messages.find((m) => m.body.endsWith("Nossa vitrine"));
      return photo?.mediaName;
    })
    .toBe("vitrine.jpg");
  expect(photo!.mediaType).toBe("image");
  // What the server stored is a JPEG, and a fraction of the PNG picked.
  const stored = await page.evaluate(async (url) => {
    const token = JSON.parse(localStorage.getItem("token") ?? "null") as string;
    const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
    return { type: res.headers.get("content-type"), size: (await res.arrayBuffer()).byteLength };
  }, photo!.mediaUrl!);
  expect(stored.type).toBe("image/jpeg");
  expect(stored.size).toBeLessThan(png.length / 2);
  await callApi(page, "PUT", `/tickets/${ticket.id}`, { status: "closed" });
  await context.close();
});
