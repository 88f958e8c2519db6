import { type Browser, type Locator, type Page, expect } from "@playwright/test";
import { DEMO, callApi, loginAs, newPerson, shot, test } from "./helpers";

/**
 * The connections page as an admin meets it: the demo "Simulador" connected, a new simulator
 * connection added through the dialog, its QR code shown and "scanned" from /simulator on another
 * computer, the status turning CONNECTED live; a customer writing from the /simulator phone; and the
 * dialog's validation errors.
 */

interface Whatsapp {
  id: number;
  name: string;
  provider: string;
  status: string;
  qrcode: string;
  number: string;
  queues: { id: number; name: string }[];
}

interface Ticket {
  id: number;
  status: string;
  whatsappId: number | null;
  lastMessage: string;
  contact: { name: string; number: string };
}

const DEMO_CONNECTION = "Simulador";
const CONNECTED = "Conexão estabelecida!";
const WAITING_FOR_SCAN = "Esperando leitura do QR Code";
const ATTENTION = "Há conexões que precisam de atenção";
const DISCONNECTED = "Falha ao iniciar sessão do WhatsApp";

async function openConnections(page: Page) {
  await page
    .getByRole("navigation", { name: "menu" })
    .getByRole("link", { name: "Conexões", exact: true })
    .click();
  await expect(page).toHaveURL(/\/connections$/);
  await expect(page.getByRole("heading", { name: "Conexões", level: 1 })).toBeVisible();
}

/** The table row whose name cell is exactly `name`. */
function connectionRow(page: Page, name: string): Locator {
  return page.getByRole("row").filter({ has: page.getByRole("cell", { name, exact: true }) });
}

/** The add dialog, opened from the page's button. */
async function openAddDialog(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "Adicionar WhatsApp" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Adicionar WhatsApp" });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function chooseProvider(page: Page, dialog: Locator, provider: string) {
  await dialog.getByRole("combobox", { name: "Provedor" }).click();
  await page.getByRole("option", { name: provider, exact: true }).click();
  await expect(dialog.getByRole("combobox", { name: "Provedor" })).toHaveText(provider);
}

/** Ticks queues in the multi-select, then closes its list. */
async function chooseQueues(page: Page, dialog: Locator, queues: string[]) {
  await dialog.getByRole("combobox", { name: "Filas" }).click();
  const listbox = page.getByRole("listbox");
  for (const queue of queues) {
    await listbox.getByRole("option", { name: queue, exact: true }).click();
    await expect(listbox.getByRole("option", { name: queue, exact: true })).toHaveAttribute(
      "aria-selected",
      "true",
    );
  }
  await page.keyboard.press("Escape");
  await expect(listbox).toBeHidden();
  await expect(dialog).toBeVisible();
}

/** Uncaught errors in the app's pages fail the test. */
const pageErrors: string[] = [];

test.beforeEach(() => {
  pageErrors.length = 0;
});

test.afterEach(() => {
  expect(pageErrors).toEqual([]);
});

/** A person on their own computer, whose page's uncaught errors fail the test. */
async function person(browser: Browser) {
  const { context, page } = await newPerson(browser);
  page.on("pageerror", (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  return { context, page };
}

/**
 * A second admin of the demo company, on another computer. (Logging in as the same admin elsewhere
 * would end the first session: one session per user.) `leave` removes the user again: the demo
 * plan's user limit would otherwise refuse the test's later runs (the 47th of a loop did).
 */
async function otherAdmin(browser: Browser, admin: Page, stamp: number) {
  const email = `admin2.${stamp}@atende.demo`;
  const user = await callApi<{ id: number }>(admin, "POST", "/users", {
    name: `Admin Dois ${stamp}`,
    email,
    password: "Admin123",
    profile: "admin",
  });
  const other = await person(browser);
  await loginAs(other.page, email, "Admin123");
  return {
    ...other,
    async leave() {
      await other.context.close();
      await callApi(admin, "DELETE", `/users/${user.id}`);
    },
  };
}

/** The phone on /simulator: pick the connection. */
async function openSimulator(page: Page, connection: string) {
  await page.goto("/simulator");
  await expect(page.getByRole("heading", { name: "Simulador", level: 1 })).toBeVisible();
  const select = page.getByRole("combobox", { name: "Conexão" });
  await select.click();
  await page.getByRole("option", { name: connection, exact: true }).click();
  await expect(select).toHaveText(connection);
}

/** Rasterizes an SVG element in the page: its size and the share of dark pixels. */
function inkOf(svg: Locator) {
  return svg.evaluate(async (element) => {
    const xml = new XMLSerializer().serializeToString(element);
    const image = new Image();
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(xml)}`;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext("2d")!;
    context.fillStyle = "#fff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let dark = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! + data[i + 1]! + data[i + 2]! < 384) dark++;
    return { width: canvas.width, height: canvas.height, darkShare: dark / (data.length / 4) };
  });
}

test.describe("connections", () => {
  test("an admin adds a simulator connection, sees its QR code, scans it from /simulator and it turns CONNECTED live", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const stamp = Date.now();
    const name = `Loja ${stamp}`;

    const admin = await person(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    await openConnections(admin.page);

    // The demo connection is there, connected, with its number and as the default.
    const demoRow = connectionRow(admin.page, DEMO_CONNECTION);
    await expect(demoRow.getByRole("img", { name: CONNECTED })).toBeVisible();
    await expect(demoRow.getByRole("button", { name: "Desconectar" })).toBeVisible();
    await expect(demoRow.getByRole("img", { name: "Conexão padrão" })).toBeVisible();
    await expect(demoRow).toContainText(/\+55 \(11\) 9\d{4}-\d{4}/);

    // Add one: simulator, both demo queues; two queues need a greeting.
    const dialog = await openAddDialog(admin.page);
    await dialog.getByRole("textbox", { name: "Nome", exact: true }).fill(name);
    await chooseProvider(admin.page, dialog, "Simulador");
    await chooseQueues(admin.page, dialog, ["Vendas", "Suporte"]);
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(
      dialog.getByText("A mensagem de saudação é obrigatória quando há mais de uma fila."),
    ).toBeVisible();
    await dialog
      .getByRole("textbox", { name: "Mensagem de saudação", exact: true })
      .fill("Olá! Digite 1 para Vendas ou 2 para Suporte.");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(admin.page.getByText("Conexão salva com sucesso!")).toBeVisible();
    await expect(dialog).toBeHidden();

    // The new row waits for its QR code to be read; the session button shows it.
    const row = connectionRow(admin.page, name);
    await expect(row.getByRole("progressbar", { name: WAITING_FOR_SCAN })).toBeVisible();
    const created = (await callApi<Whatsapp[]>(admin.page, "GET", "/whatsapp")).find((w) => w.name === name)!;
    expect(created.provider).toBe("simulator");
    expect(created.queues.map((q) => q.name).sort()).toEqual(["Suporte", "Vendas"]);
    expect(created.qrcode).toMatch(new RegExp(`^atende-simulator:${created.id}:`));
    // The side menu's red '!' tells a connection needs attention.
    const menuEntry = admin.page
      .getByRole("navigation", { name: "menu" })
      .getByRole("link", { name: "Conexões", exact: true });
    await expect(menuEntry).toHaveAttribute("aria-description", ATTENTION);

    // Mark the document: a reload would lose the mark, so what follows is proven live.
    await admin.page.evaluate(() => Object.assign(window, { __sameDocument: true }));

    await row.getByRole("button", { name: "QR CODE", exact: true }).click();
    const qrDialog = admin.page.getByRole("dialog", { name: "QR Code" });
    await expect(qrDialog).toBeVisible();
    const qr = qrDialog.getByRole("img", { name: "QR Code" });
    await expect(qr).toBeVisible();
    const box = (await qr.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(200);
    expect(box.height).toBeGreaterThanOrEqual(200);
    // A real code: black modules on white, roughly half and half, not an empty square.
    const ink = await inkOf(qr);
    expect(ink.width).toBeGreaterThanOrEqual(200);
    expect(ink.darkShare).toBeGreaterThan(0.25);
    expect(ink.darkShare).toBeLessThan(0.75);
    await shot(admin.page, "connections-qr-dialog");

    // Another admin, on another computer, plays the phone and scans it from /simulator.
    const phone = await otherAdmin(browser, admin.page, stamp);
    await openSimulator(phone.page, name);
    const notConnected = phone.page.getByRole("alert").filter({
      hasText: `Esta conexão não está conectada (${WAITING_FOR_SCAN}).`,
    });
    await expect(notConnected).toBeVisible();
    await expect(phone.page.getByRole("textbox", { name: "Mensagem" })).toBeDisabled();
    await notConnected.getByRole("button", { name: "Escanear com o simulador" }).click();
    await expect(phone.page.getByText("QR Code lido pelo simulador.")).toBeVisible();
    await expect(notConnected).toBeHidden();

    // Back on the first computer, without a reload: the dialog closes and the row is connected.
    await expect(qrDialog).toBeHidden();
    await expect(row.getByRole("img", { name: CONNECTED })).toBeVisible();
    await expect(row.getByRole("button", { name: "Desconectar" })).toBeVisible();
    await expect(row.getByRole("button", { name: "QR CODE", exact: true })).toHaveCount(0);
    await expect(row).toContainText(/\+55 \(11\) 9\d{4}-\d{4}/);
    expect(await admin.page.evaluate(() => "__sameDocument" in window)).toBe(true);
    // With every connection connected again, the '!' goes away (2 s after the list settles).
    const all = await callApi<Whatsapp[]>(admin.page, "GET", "/whatsapp");
    if (all.every((w) => w.status === "CONNECTED")) {
      await expect(menuEntry).not.toHaveAttribute("aria-description");
    }
    await shot(admin.page, "connections-connected-row");

    // The phone can write now.
    await phone.page
      .getByRole("textbox", { name: "Número do cliente" })
      .fill(`+55119${String(stamp).slice(-8)}`);
    await expect(phone.page.getByRole("textbox", { name: "Mensagem" })).toBeEnabled();

    await phone.leave();
    await admin.context.close();
  });

  test("a customer message typed on the /simulator phone makes a pending ticket, in the API and in Aguardando", async ({
    browser,
  }) => {
    const stamp = Date.now();
    const customer = `Cliente Simulador ${stamp}`;
    const number = `55119${String(stamp).slice(-8)}`;
    const text = `Olá, gostaria de um orçamento ${stamp}`;

    // The admin watches the waiting tickets.
    const admin = await person(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    await admin.page.goto("/tickets");
    const waitingTab = admin.page.getByRole("tab", { name: /^Aguardando/ });
    await waitingTab.click();
    await expect(waitingTab).toHaveAttribute("aria-selected", "true");

    // The customer writes from the simulated phone of the demo connection.
    const phone = await otherAdmin(browser, admin.page, stamp);
    await openSimulator(phone.page, DEMO_CONNECTION);
    await phone.page.getByRole("textbox", { name: "Número do cliente" }).fill(`+${number}`);
    await phone.page.getByRole("textbox", { name: "Nome do cliente" }).fill(customer);
    await expect(phone.page.getByText("Nenhuma mensagem ainda. Envie a primeira!")).toBeVisible();
    // A slow network: the phone's re-read of its conversation (after a send) is answered by the server
    // at once but reaches the page 2.5 s later, so the bot's reply comes live while it is on its way.
    // The reply must not be lost when that older answer lands (it was, under a loaded CI machine).
    await phone.page.route(/\/simulator\/\d+\/messages\?/, async (route) => {
      const response = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await route.fulfill({ response });
    });
    await phone.page.getByRole("textbox", { name: "Mensagem" }).fill(text);
    await phone.page.getByRole("button", { name: "Enviar" }).click();
    const sent = phone.page
      .getByRole("list", { name: "Conversa" })
      .getByRole("listitem")
      .filter({ hasText: text });
    await expect(sent).toBeVisible();
    await expect(phone.page.getByRole("textbox", { name: "Mensagem" })).toHaveValue("");
    await shot(phone.page, "connections-simulator-sent");

    // The API (the admin's bearer token) lists it as pending, on the demo connection.
    const demo = (await callApi<Whatsapp[]>(admin.page, "GET", "/whatsapp")).find(
      (w) => w.name === DEMO_CONNECTION,
    )!;
    let ticket: Ticket | undefined;
    await expect
      .poll(async () => {
        const page = await callApi<{ tickets: Ticket[] }>(admin.page, "GET", "/tickets?status=pending");
        ticket = page.tickets.find((t) => t.contact.number === number);
        return ticket?.status;
      })
      .toBe("pending");
    expect(ticket!.contact.name).toBe(customer);
    expect(ticket!.whatsappId).toBe(demo.id);

    // The demo connection has two queues: the bot answers the phone with its greeting and menu.
    await expect(phone.page.getByRole("list", { name: "Conversa", exact: true })).toContainText(
      "Bem-vindo à Empresa Demo",
    );

    // The admin's Aguardando list shows it live, waiting for the customer's choice.
    const item = admin.page
      .getByRole("list", { name: "Lista de atendimentos" })
      .getByRole("listitem")
      .filter({ hasText: customer });
    await expect(item).toBeVisible();
    await expect(item.getByRole("button", { name: `Aceitar: ${customer}` })).toBeVisible();
    await shot(admin.page, "connections-ticket-waiting");

    await phone.page.unrouteAll({ behavior: "ignoreErrors" });
    await phone.leave();
    await admin.context.close();
  });

  test("a customer who types fast on the /simulator phone: three messages sent back to back all arrive, in order", async ({
    browser,
  }) => {
    const stamp = Date.now();
    const number = `55118${String(stamp).slice(-8)}`;
    const texts = [`Primeira ${stamp}`, `Segunda ${stamp}`, `Terceira ${stamp}`];
    const phone = await person(browser);
    await loginAs(phone.page, DEMO.admin.email, DEMO.admin.password);
    await openSimulator(phone.page, DEMO_CONNECTION);
    await phone.page.getByRole("textbox", { name: "Número do cliente" }).fill(`+${number}`);
    await phone.page.getByRole("textbox", { name: "Nome do cliente" }).fill(`Cliente Apressado ${stamp}`);

    // A slow network (each send takes 400 ms to leave): every message is sent with Enter while the
    // one before is still on its way.
    await phone.page.route(
      (url) => /^\/simulator\/\d+\/messages$/.test(url.pathname),
      async (route) => {
        if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 400));
        await route.continue();
      },
    );
    const box = phone.page.getByRole("textbox", { name: "Mensagem" });
    for (const text of texts) {
      await box.fill(text);
      await box.press("Enter");
    }
    await expect(box).toHaveValue("");
    const bubbles = phone.page.getByRole("list", { name: "Conversa", exact: true }).getByRole("listitem");
    const mine = bubbles.filter({ hasText: String(stamp) });
    await expect(mine).toHaveText(texts.map((t) => new RegExp(t)));
    await shot(phone.page, "connections-simulator-fast-typist");

    // The business has the three, in the order they were written.
    await expect
      .poll(async () => {
        const page = await callApi<{ tickets: Ticket[] }>(phone.page, "GET", "/tickets?status=pending");
        const ticket = page.tickets.find((t) => t.contact.number === number);
        if (!ticket) return [];
        const { messages } = await callApi<{ messages: { body: string; fromMe: boolean }[] }>(
          phone.page,
          "GET",
          `/messages/${ticket.id}`,
        );
        return messages.filter((m) => !m.fromMe).map((m) => m.body);
      })
      .toEqual(texts);
    await phone.context.close();
  });

  test("the connection dialog shows an empty name and a name already in use under the name field", async ({
    browser,
  }) => {
    const { context, page } = await person(browser);
    await loginAs(page, DEMO.admin.email, DEMO.admin.password);
    await openConnections(page);
    await expect(connectionRow(page, DEMO_CONNECTION)).toBeVisible();
    const before = (await callApi<Whatsapp[]>(page, "GET", "/whatsapp")).length;

    const dialog = await openAddDialog(page);
    const nameField = dialog.getByRole("textbox", { name: "Nome", exact: true });
    await chooseProvider(page, dialog, "Simulador");

    // Empty: the field says it is required, and nothing is sent.
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(nameField).toHaveAttribute("aria-invalid", "true");
    await expect(dialog.getByText("Required", { exact: true })).toBeVisible();
    await expect(nameField).toBeFocused();

    // One letter is too short.
    await nameField.fill("S");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(dialog.getByText("Too Short!", { exact: true })).toBeVisible();

    // The demo connection's name, with spaces around it: taken, in the user's language.
    await nameField.fill(`  ${DEMO_CONNECTION} `);
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(dialog.getByText("Já existe uma conexão com este nome.", { exact: true })).toBeVisible();
    await expect(nameField).toHaveAttribute("aria-invalid", "true");
    await expect(dialog).toBeVisible();
    await shot(page, "connections-name-taken");

    // Nothing was created.
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await expect(dialog).toBeHidden();
    expect((await callApi<Whatsapp[]>(page, "GET", "/whatsapp")).length).toBe(before);
    await context.close();
  });

  test("disconnect, a new QR code scanned from the QR dialog, then delete: the row follows each step", async ({
    browser,
  }) => {
    const stamp = Date.now();
    const name = `Filial ${stamp}`;
    const { context, page } = await person(browser);
    await loginAs(page, DEMO.admin.email, DEMO.admin.password);
    await openConnections(page);
    await expect(connectionRow(page, DEMO_CONNECTION)).toBeVisible();

    // A connected simulator connection, made through the API.
    const created = await callApi<Whatsapp>(page, "POST", "/whatsapp", { name, provider: "simulator" });
    const row = connectionRow(page, name);
    await expect(row.getByRole("button", { name: "QR CODE", exact: true })).toBeVisible();
    await callApi(page, "POST", `/simulator/${created.id}/scan`);
    await expect(row.getByRole("img", { name: CONNECTED })).toBeVisible();

    // Disconnect, after confirming: the session is gone, the row offers to try again or a new code.
    await row.getByRole("button", { name: "Desconectar" }).click();
    const confirm = page.getByRole("dialog", { name: `Desconectar ${name}?` });
    await expect(confirm).toContainText("Tem certeza? Será preciso ler o QR Code novamente.");
    await confirm.getByRole("button", { name: "Confirmar" }).click();
    await expect(confirm).toBeHidden();
    await expect(row.getByRole("img", { name: DISCONNECTED })).toBeVisible();
    await expect(row.getByRole("button", { name: "Tentar novamente" })).toBeVisible();
    await expect(row.getByRole("button", { name: "Novo QR CODE" })).toBeVisible();
    // The row says it: no toast about the admin's own disconnect on this page (ConnectionAlerts).
    await expect(page.getByText(`A conexão ${name} foi desconectada do WhatsApp.`)).toHaveCount(0);

    // A new QR code, scanned with the QR dialog's own button: the dialog closes by itself.
    await row.getByRole("button", { name: "Novo QR CODE" }).click();
    await row.getByRole("button", { name: "QR CODE", exact: true }).click();
    const qrDialog = page.getByRole("dialog", { name: "QR Code" });
    await expect(qrDialog.getByRole("img", { name: "QR Code" })).toBeVisible();
    await qrDialog.getByRole("button", { name: "Escanear com o simulador" }).click();
    await expect(qrDialog).toBeHidden();
    await expect(row.getByRole("img", { name: CONNECTED })).toBeVisible();

    // Delete, after confirming.
    await row.getByRole("button", { name: "Excluir" }).click();
    const confirmDelete = page.getByRole("dialog", { name: `Excluir ${name}?` });
    await confirmDelete.getByRole("button", { name: "Confirmar" }).click();
    await expect(page.getByText("Conexão excluída com sucesso!")).toBeVisible();
    await expect(row).toHaveCount(0);
    expect((await callApi<Whatsapp[]>(page, "GET", "/whatsapp")).some((w) => w.id === created.id)).toBe(
      false,
    );
    await context.close();
  });
});
