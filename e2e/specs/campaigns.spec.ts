import { type Browser, type Locator, type Page, expect } from "@playwright/test";
import { DEMO, callApi, companyClock, loginAs, newPerson, shot, typeDate, test } from "./helpers";

/**
 * Campaigns as an admin runs one: the sender's intervals set to 0 in /campaigns-config, a contact
 * list of three customers (one number not on WhatsApp: the simulator says so of numbers ending in
 * 0000), a campaign with two message variants on a simulator connection, started, its report
 * filling live without a reload, and the messages arriving on the /simulator phones.
 */

interface Whatsapp {
  id: number;
  name: string;
  provider: string;
  status: string;
}

interface Campaign {
  id: number;
  name: string;
  status: string;
}

/** Uncaught errors in the app's pages fail the test. */
const pageErrors: string[] = [];

test.beforeEach(() => {
  pageErrors.length = 0;
});

test.afterEach(() => {
  expect(pageErrors).toEqual([]);
});

async function person(browser: Browser) {
  const { context, page } = await newPerson(browser);
  page.on("pageerror", (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  return { context, page };
}

/** A simulator connection of its own, connected (its QR "scanned" by the simulator). */
async function simulatorConnection(admin: Page, name: string): Promise<Whatsapp> {
  const created = await callApi<Whatsapp>(admin, "POST", "/whatsapp", { name, provider: "simulator" });
  const status = async () =>
    (await callApi<Whatsapp[]>(admin, "GET", "/whatsapp")).find((w) => w.id === created.id)?.status;
  await expect.poll(status).toMatch(/^(qrcode|CONNECTED)$/);
  if ((await status()) === "qrcode") await callApi(admin, "POST", `/simulator/${created.id}/scan`);
  await expect.poll(status).toBe("CONNECTED");
  return created;
}

/** Picks `option` in the MUI select labelled `label` inside `scope`. */
async function choose(page: Page, scope: Locator | Page, label: string, option: string) {
  await scope.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
  await expect(scope.getByRole("combobox", { name: label })).toHaveText(option);
}

/** The campaigns table's row of `name`. */
function campaignRow(page: Page, name: string): Locator {
  return page.getByRole("row").filter({ hasText: name });
}

test.describe("campaigns", () => {
  test("an admin sets the intervals to 0, creates a campaign with two variants to a contact list, starts it, watches the report fill live and sees the messages on /simulator", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const stamp = Date.now();
    const tail = String(stamp).slice(-7);
    const connectionName = `Campanhas ${stamp}`;
    const campaignName = `Black Friday ${tail}`;
    const customers = [
      { name: "Maria Campanha", number: `551198${tail}` },
      { name: "João Campanha", number: `551197${tail}` },
      // Not on WhatsApp (the simulator's rule): skipped, and the others still get theirs.
      { name: "Sem WhatsApp", number: `551196${tail.slice(0, 3)}0000` },
    ];

    const admin = await person(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    await simulatorConnection(admin.page, connectionName);

    // /campaigns-config: from the menu; every interval to 0 so the campaign runs at once.
    const menu = admin.page.getByRole("navigation", { name: "menu" });
    await menu.getByRole("link", { name: "Configurações de campanhas" }).click();
    await expect(admin.page).toHaveURL(/\/campaigns-config$/);
    await expect(
      admin.page.getByRole("heading", { name: "Configurações de campanhas", level: 1 }),
    ).toBeVisible();
    // The spec's defaults until changed: 20 s, after 20 messages, 60 s.
    await expect(admin.page.getByRole("combobox", { name: "Intervalo aleatório de disparo" })).toHaveText(
      /20 segundos|Sem intervalo/,
    );
    await choose(admin.page, admin.page, "Intervalo aleatório de disparo", "Sem intervalo");
    await choose(admin.page, admin.page, "Intervalo maior após", "Não definido");
    await choose(admin.page, admin.page, "Intervalo de disparo maior", "Sem intervalo");
    // A custom variable, offered in the campaign editor; the same key twice is refused.
    await admin.page.getByRole("textbox", { name: "Chave" }).fill("loja");
    await admin.page.getByRole("textbox", { name: "Valor" }).fill("Loja Centro");
    await admin.page.getByRole("button", { name: "Adicionar variável" }).click();
    await expect(admin.page.getByRole("cell", { name: "{loja}" })).toBeVisible();
    await admin.page.getByRole("textbox", { name: "Chave" }).fill("loja");
    await admin.page.getByRole("button", { name: "Adicionar variável" }).click();
    await expect(admin.page.getByText("Já existe uma variável com esta chave.")).toBeVisible();
    await admin.page.getByRole("textbox", { name: "Chave" }).fill("");
    await admin.page.getByRole("button", { name: "Salvar" }).click();
    await expect(admin.page.getByText("Configurações salvas")).toBeVisible();
    await shot(admin.page, "campaigns-config");
    const settings = await callApi<{ key: string; value: string }[]>(admin.page, "GET", "/campaign-settings");
    const stored = Object.fromEntries(settings.map((s) => [s.key, JSON.parse(s.value) as unknown]));
    expect(stored.messageInterval).toBe(0);
    expect(stored.longerIntervalAfter).toBe(0);
    expect(stored.greaterInterval).toBe(0);
    expect(stored.variables).toEqual([{ key: "loja", value: "Loja Centro" }]);

    // The contact list, through the API (its own page is another feature's).
    const list = await callApi<{ id: number; name: string }>(admin.page, "POST", "/contact-lists", {
      name: `Clientes ${tail}`,
    });
    for (const customer of customers) {
      await callApi(admin.page, "POST", "/contact-list-items", {
        ...customer,
        email: "",
        contactListId: list.id,
      });
    }

    // /campaigns: the dialog.
    await menu.getByRole("link", { name: "Campanhas", exact: true }).click();
    await expect(admin.page).toHaveURL(/\/campaigns$/);
    await expect(admin.page.getByRole("heading", { name: "Campanhas", level: 1 })).toBeVisible();
    await admin.page.getByRole("button", { name: "Nova campanha" }).click();
    const dialog = admin.page.getByRole("dialog", { name: "Nova campanha" });
    await expect(dialog).toBeVisible();
    // Name 2 to 50: one letter is refused before anything is sent.
    await dialog.getByRole("textbox", { name: "Nome" }).fill("B");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(dialog.getByText(/curto|short/i)).toBeVisible();
    await dialog.getByRole("textbox", { name: "Nome" }).fill(campaignName);
    await choose(admin.page, dialog, "Conexão", connectionName);
    await choose(admin.page, dialog, "Lista de contatos", list.name);
    await expect(dialog.getByRole("status")).toContainText("3 contatos no público.");
    // Variant 1, with {nome} inserted from the chips; variant 2 in its own tab.
    const variants = dialog.getByRole("tablist", { name: "Mensagens" });
    const message1 = dialog.getByRole("textbox", { name: "Mensagem 1" });
    await message1.fill("Olá ");
    await dialog
      .getByRole("group", { name: "Inserir variável" })
      .getByRole("button", { name: "{nome}" })
      .click();
    await message1.press("End");
    await message1.pressSequentially(`, oferta A ${tail} na {loja}!`);
    await expect(message1).toHaveValue(`Olá {nome}, oferta A ${tail} na {loja}!`);
    await variants.getByRole("tab", { name: "Variação 2" }).click();
    await dialog.getByRole("textbox", { name: "Mensagem 2" }).fill(`Oi {nome}, oferta B ${tail}!`);
    await expect(variants.getByRole("tab", { name: "Variação 1 (preenchida)" })).toBeVisible();
    await expect(variants.getByRole("tab", { name: "Variação 2 (preenchida)" })).toBeVisible();
    await shot(admin.page, "campaigns-dialog");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(admin.page.getByText("Campanha salva com sucesso!")).toBeVisible();
    await expect(dialog).toBeHidden();

    // A new campaign is INATIVA: no cancel or restart, editable.
    const row = campaignRow(admin.page, campaignName);
    await expect(row.getByText("Inativa", { exact: true })).toBeVisible();
    await expect(row.getByRole("button", { name: `Cancelar campanha ${campaignName}` })).toHaveCount(0);
    await expect(row.getByRole("button", { name: `Reiniciar campanha ${campaignName}` })).toHaveCount(0);
    const campaign = (
      await callApi<{ records: Campaign[] }>(
        admin.page,
        "GET",
        `/campaigns?searchParam=${encodeURIComponent(campaignName)}`,
      )
    ).records.find((c) => c.name === campaignName)!;
    expect(campaign.status).toBe("INATIVA");

    // The report, open in a second tab before it starts: nobody yet.
    const report = await admin.context.newPage();
    report.on("pageerror", (error) => pageErrors.push(`${report.url()}: ${error.message}`));
    // When the live channel brings FINALIZADA, and when the report asks the server again (it
    // must, 5 s after FINALIZADA arrives).
    let finishedAt = Infinity;
    const reportReads: number[] = [];
    report.on("websocket", (socket) => {
      socket.on("framereceived", ({ payload }) => {
        if (typeof payload === "string" && payload.includes("-campaign") && payload.includes('"FINALIZADA"'))
          finishedAt = Math.min(finishedAt, Date.now());
      });
    });
    report.on("request", (request) => {
      if (new RegExp(`/campaigns/${campaign.id}/report\\?`).test(request.url())) reportReads.push(Date.now());
    });
    await report.goto(`/campaign/${campaign.id}/report`);
    // A new tab loads the whole app: on a loaded machine that takes a while.
    await expect(report.getByRole("heading", { name: `Relatório: ${campaignName}`, level: 1 })).toBeVisible({
      timeout: 30_000,
    });
    await expect(report.getByText("Nenhum destinatário ainda")).toBeVisible();
    // Mark the document: a reload would lose the mark, so what follows is proven live.
    await report.evaluate(() => Object.assign(window, { __sameDocument: true }));
    // Start it: scheduled for now in the dialog.
    await row.getByRole("button", { name: `Editar ${campaignName}` }).click();
    const editDialog = admin.page.getByRole("dialog", { name: "Editar campanha" });
    await expect(editDialog.getByRole("textbox", { name: "Nome" })).toHaveValue(campaignName);
    // This minute on the company's clock (the field's): due at once.
    await typeDate(editDialog.getByRole("group", { name: "Agendamento" }), companyClock(new Date()));
    // The first save's toast is gone first (3 s), so the one seen next is this save's.
    await expect(admin.page.getByText("Campanha salva com sucesso!")).toHaveCount(0);
    await editDialog.getByRole("button", { name: "Salvar" }).click();
    await expect(admin.page.getByText("Campanha salva com sucesso!")).toBeVisible();

    await report.bringToFront();
    const recipients = report.getByRole("table", { name: "Destinatários" });
    for (const customer of customers.slice(0, 2)) {
      await expect(recipients.getByTestId(`recipient-${customer.number}`)).toContainText(
        /Enviada|Entregue|Lida/,
        { timeout: 60_000 },
      );
    }
    await expect(recipients.getByTestId(`recipient-${customers[2]!.number}`)).toContainText("Ignorado");
    const tiles = report.getByRole("list", { name: "Progresso" });
    await expect(tiles.getByRole("listitem", { name: "Enviadas: 2" })).toBeVisible();
    await expect(tiles.getByRole("listitem", { name: "Ignorados: 1" })).toBeVisible();
    await expect(report.getByTestId("campaign-progress-text")).toContainText("3 de 3 processados");
    await expect(report.getByRole("heading", { level: 1 }).locator("..")).toContainText("Finalizada", {
      timeout: 30_000,
    });
    await expect(report.getByText("Campanha finalizada: atualizando em 5 segundos…")).toBeVisible();
    expect(finishedAt).toBeLessThan(Infinity);
    // Read again 5 s after FINALIZADA came (3 s allowed for the two clocks of a loaded machine),
    // in the same document (not a page reload).
    await expect
      .poll(() => reportReads.some((at) => at >= finishedAt + 3_000), { timeout: 20_000 })
      .toBe(true);
    expect(await report.evaluate(() => "__sameDocument" in window)).toBe(true);
    await shot(report, "campaigns-report");

    // The CSV has the three recipients.
    const download = report.waitForEvent("download");
    await report.getByRole("button", { name: "Baixar CSV" }).click();
    const file = await download;
    const csv = await (await file.createReadStream()).toArray();
    const text = Buffer.concat(csv as Buffer[]).toString("utf8");
    for (const customer of customers) expect(text).toContain(customer.number);

    // The messages arrived on the customers' phones: one of the two variants each, with the name
    // and the custom variable filled in.
    const phone = admin.page;
    await phone.goto("/simulator");
    await choose(phone, phone, "Conexão", connectionName);
    for (const customer of customers.slice(0, 2)) {
      await phone.getByRole("textbox", { name: "Número do cliente" }).fill(`+${customer.number}`);
      const conversation = phone.getByRole("list", { name: "Conversa", exact: true });
      await expect(conversation).toContainText(
        new RegExp(
          `(Olá ${customer.name}, oferta A ${tail} na Loja Centro!|Oi ${customer.name}, oferta B ${tail}!)`,
        ),
      );
      await expect(conversation).not.toContainText("{nome}");
    }
    await shot(phone, "campaigns-simulator");

    await admin.context.close();
  });
  test("a running campaign shows only cancel, is view-only, and once cancelled shows only restart; restart runs it again", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const stamp = Date.now();
    const tail = String(stamp).slice(-7);
    const campaignName = `Lenta ${tail}`;
    const admin = await person(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    const connection = await simulatorConnection(admin.page, `Campanhas lentas ${stamp}`);
    // Slow pace: up to 20 s between sends, so the campaign is still running while the admin acts.
    await callApi(admin.page, "POST", "/campaign-settings", {
      settings: { messageInterval: 20, longerIntervalAfter: 0, greaterInterval: 0 },
    });
    const list = await callApi<{ id: number }>(admin.page, "POST", "/contact-lists", {
      name: `Lenta ${tail}`,
    });
    for (const n of [1, 2, 3, 4, 5, 6])
      await callApi(admin.page, "POST", "/contact-list-items", {
        name: `Cliente ${n}`,
        number: `55119${n}${tail}`.slice(0, 13),
        email: "",
        contactListId: list.id,
      });
    const campaign = await callApi<Campaign>(admin.page, "POST", "/campaigns", {
      name: campaignName,
      message1: "Olá {nome}!",
      whatsappId: connection.id,
      contactListId: list.id,
      scheduledAt: new Date().toISOString(),
    });

    await admin.page.goto("/campaigns");
    const row = campaignRow(admin.page, campaignName);
    await expect(row.getByText("Em Andamento", { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(row.getByRole("button", { name: `Reiniciar campanha ${campaignName}` })).toHaveCount(0);
    // Running: the dialog only shows it.
    await row.getByRole("button", { name: `Ver ${campaignName}` }).click();
    const view = admin.page.getByRole("dialog", { name: "Campanha" });
    await expect(view.getByText(/não pode mais ser editada/)).toBeVisible();
    await expect(view.getByRole("textbox", { name: "Nome" })).toBeDisabled();
    await expect(view.getByRole("button", { name: "Salvar" })).toHaveCount(0);
    await view.getByRole("button", { name: "Fechar" }).last().click();
    await expect(view).toBeHidden();

    await row.getByRole("button", { name: `Cancelar campanha ${campaignName}` }).click();
    await expect(admin.page.getByText("Campanha cancelada.")).toBeVisible();
    await expect(row.getByText("Cancelada", { exact: true })).toBeVisible();
    await expect(row.getByRole("button", { name: `Cancelar campanha ${campaignName}` })).toHaveCount(0);
    // Cancelled campaigns may be edited again.
    await expect(row.getByRole("button", { name: `Editar ${campaignName}` })).toBeVisible();
    await shot(admin.page, "campaigns-cancelled");

    await row.getByRole("button", { name: `Reiniciar campanha ${campaignName}` }).click();
    await expect(admin.page.getByText("Campanha reiniciada.")).toBeVisible();
    await expect(row.getByText(/Em Andamento|Finalizada/)).toBeVisible();
    await expect(row.getByRole("button", { name: `Reiniciar campanha ${campaignName}` })).toHaveCount(0);

    // Leave it stopped and the pace as the first test wants it.
    const now = await callApi<Campaign>(admin.page, "GET", `/campaigns/${campaign.id}`);
    if (now.status === "EM_ANDAMENTO") await callApi(admin.page, "POST", `/campaigns/${campaign.id}/cancel`);
    await callApi(admin.page, "POST", "/campaign-settings", {
      settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 },
    });
    await admin.context.close();
  });

  test("an agent who types /campaigns or a report's address lands on /tickets", async ({ browser }) => {
    const ana = await newPerson(browser);
    await loginAs(ana.page, DEMO.ana.email, DEMO.ana.password);
    for (const path of ["/campaigns", "/campaigns-config", "/campaign/1/report"]) {
      await ana.page.goto(path);
      await expect(ana.page).toHaveURL(/\/tickets$/);
    }
    await expect(ana.page.getByRole("button", { name: "Nova campanha" })).toHaveCount(0);
    await ana.context.close();
  });
});
