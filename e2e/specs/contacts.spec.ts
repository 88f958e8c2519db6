import fs from "node:fs";
import { type Locator, type Page, expect } from "@playwright/test";
import { DEMO, callApi, loginAs, newPerson, shot, test } from "./helpers";

interface Whatsapp {
  id: number;
  provider: string;
  status: string;
}

/** A connected simulator connection, so numbers are checked on "WhatsApp" and tickets can open. */
async function connectedSimulator(admin: Page): Promise<void> {
  const list = await callApi<Whatsapp[]>(admin, "GET", "/whatsapp");
  // A connected one of the demo data; not whichever comes first (another spec's, left disconnected).
  let connection = list.find((w) => w.provider === "simulator" && w.status === "CONNECTED");
  connection ??= await callApi<Whatsapp>(admin, "POST", "/whatsapp", {
    name: `Simulador Contatos ${Date.now()}`,
    provider: "simulator",
  });
  if (connection.status === "CONNECTED") return;
  const id = connection.id;
  await expect
    .poll(async () => (await callApi<Whatsapp[]>(admin, "GET", "/whatsapp")).find((w) => w.id === id)?.status)
    .toMatch(/qrcode|CONNECTED/);
  await callApi(admin, "POST", `/simulator/${id}/scan`);
  await expect
    .poll(async () => (await callApi<Whatsapp[]>(admin, "GET", "/whatsapp")).find((w) => w.id === id)?.status)
    .toBe("CONNECTED");
}

function contactRow(page: Page, text: string): Locator {
  return page.getByRole("table", { name: "Contatos" }).getByRole("row").filter({ hasText: text });
}

function dialog(page: Page, name: string | RegExp): Locator {
  return page.getByRole("dialog", { name });
}

test.describe("contacts", () => {
  test("create with validation, edit, search, import with a bad row, export, start a ticket, delete", async ({
    browser,
  }) => {
    // One story across two people and every dialog of the page.
    test.setTimeout(150_000);
    const stamp = Date.now();
    const tail = String(stamp).slice(-7);
    const name = `Contato E2E ${stamp}`;
    // São Paulo mobile, typed as people type it; stored as 55 11 9XXXXXXXX.
    const typed = `(11) 9${tail.slice(0, 4)}-${tail.slice(4)}1`;
    const digits = `55119${tail}1`;
    const shown = `+55 (11) 9${tail.slice(0, 4)}-${tail.slice(4)}1`;

    const admin = await newPerson(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    await connectedSimulator(admin.page);
    const page = admin.page;
    await page.goto("/contacts");
    await expect(page.getByRole("heading", { name: "Contatos" })).toBeVisible();

    // --- Create: the spec's messages first, then a good contact with extra info.
    await page.getByRole("button", { name: "Adicionar contato" }).first().click();
    const create = dialog(page, "Adicionar contato");
    await create.getByLabel("Nome", { exact: false }).first().fill("A");
    await create.getByLabel("Número do WhatsApp").fill("123");
    await create.getByLabel("Email").fill("ana@");
    await create.getByRole("button", { name: "Salvar" }).click();
    await expect(create.getByText("Too Short!")).toHaveCount(2);
    await expect(create.getByText("Invalid email")).toBeVisible();
    await shot(page, "contacts-validation");

    await create.locator("#contact-name").fill(name);
    await create.getByLabel("Número do WhatsApp").fill(typed);
    await create.getByLabel("Email").fill(`e2e${stamp}@example.com`);
    await create.getByRole("button", { name: "Adicionar informação" }).click();
    await create.getByLabel("Nome do campo").fill("CPF");
    await create.getByLabel("Valor").fill("123.456.789-00");
    await create.getByRole("button", { name: "Salvar" }).click();
    await expect(page.getByText("Contato salvo com sucesso.")).toBeVisible();
    await expect(create).toBeHidden();
    await expect(contactRow(page, name)).toContainText(shown);

    // --- One person, one contact: the same number in another spelling is refused.
    await page.getByRole("button", { name: "Adicionar contato" }).first().click();
    await create.locator("#contact-name").fill("Outra pessoa");
    await create.getByLabel("Número do WhatsApp").fill(digits);
    await create.getByRole("button", { name: "Salvar" }).click();
    await expect(create.getByText(`Este número já pertence ao contato ${name}.`)).toBeVisible();
    // --- A number the connected WhatsApp does not know (the simulator: ending in 0000).
    await create.getByLabel("Número do WhatsApp").fill("(11) 98888-0000");
    await create.getByRole("button", { name: "Salvar" }).click();
    await expect(create.getByText("Este não é um número de WhatsApp válido.")).toBeVisible();
    await create.getByRole("button", { name: "Cancelar" }).click();

    // --- Edit.
    await contactRow(page, name)
      .getByRole("button", { name: /^Editar contato/ })
      .click();
    const edit = dialog(page, "Editar contato");
    await expect(edit.getByLabel("Valor")).toHaveValue("123.456.789-00");
    await edit.locator("#contact-name").fill(`${name} Editado`);
    await edit.getByRole("button", { name: "Salvar" }).click();
    await expect(page.getByText("Contato salvo com sucesso.").first()).toBeVisible();
    await expect(contactRow(page, `${name} Editado`)).toBeVisible();

    // --- Search (after the 500 ms pause; fewer than 3 characters shows a hint).
    const search = page.getByRole("searchbox", { name: "Pesquisar contatos" });
    await search.fill("Co");
    await expect(page.getByText("Digite ao menos 3 caracteres para pesquisar")).toBeVisible();
    await search.fill(String(stamp));
    await expect(page.getByRole("table", { name: "Contatos" }).getByRole("row")).toHaveCount(2);
    await expect(contactRow(page, `${name} Editado`)).toBeVisible();
    await search.fill("");

    // --- Import: a CSV with one bad row is refused whole, with the report; then the valid rows only.
    const csv = [
      "nome;numero;email;Empresa",
      `Importado Um ${stamp};(21) 9${tail.slice(0, 4)}-${tail.slice(4)}2;um@example.com;ACME`,
      `X;(21) 9${tail.slice(0, 4)}-${tail.slice(4)}3;;`,
      `Importado Tres ${stamp};(21) 9${tail.slice(0, 4)}-${tail.slice(4)}4;;`,
    ].join("\n");
    await page.getByRole("button", { name: "Importar" }).first().click();
    const importing = dialog(page, "Importar contatos");
    await importing.getByTestId("contacts-import-file").setInputFiles({
      name: "contatos.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(csv, "utf8"),
    });
    await expect(importing.getByText("contatos.csv")).toBeVisible();
    await importing.getByRole("button", { name: "Importar", exact: true }).click();
    await expect(importing.getByText(/Nada foi importado: 1 linha\(s\) têm problemas/)).toBeVisible();
    const report = importing.getByRole("table", { name: "Linhas com problemas" });
    await expect(report.getByRole("row")).toHaveCount(2);
    await expect(report.getByRole("row").nth(1)).toContainText("3");
    await expect(report.getByRole("row").nth(1)).toContainText("Too Short!");
    await shot(page, "contacts-import-report");
    await importing.getByRole("button", { name: "Importar só as 2 linha(s) válida(s)" }).click();
    await expect(importing.getByText("Importação concluída: 2 contato(s) criado(s).")).toBeVisible();
    await expect(importing.getByText("1 linha(s) com problemas ficaram de fora.")).toBeVisible();
    await importing.getByRole("button", { name: "Fechar" }).click();
    await expect(contactRow(page, `Importado Um ${stamp}`)).toBeVisible();
    await expect(contactRow(page, `Importado Tres ${stamp}`)).toBeVisible();

    // --- Export: a CSV with what the list shows.
    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Exportar CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^contacts-\d{4}-\d{2}-\d{2}\.csv$/);
    const exported = fs.readFileSync((await download.path())!, "utf8");
    expect(exported.split("\r\n")[0]).toContain("name,number,email");
    expect(exported).toContain(`${name} Editado,${digits},e2e${stamp}@example.com`);
    await shot(page, "contacts-list");

    // --- Start a ticket from the contact: its chat opens.
    await contactRow(page, `${name} Editado`)
      .getByRole("button", { name: /^Iniciar atendimento/ })
      .click();
    const start = dialog(page, /^Iniciar atendimento com/);
    await start.getByLabel("Fila").click();
    await page.getByRole("option", { name: "Vendas" }).click();
    await start.getByRole("button", { name: "Iniciar" }).click();
    await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
    await expect(page.getByText(`${name} Editado`).first()).toBeVisible();
    await shot(page, "contacts-started-ticket");

    // --- A plain user sees no delete button; the admin deletes after confirming.
    const ana = await newPerson(browser);
    await loginAs(ana.page, DEMO.ana.email, DEMO.ana.password);
    await ana.page.goto("/contacts");
    await expect(contactRow(ana.page, `Importado Tres ${stamp}`)).toBeVisible();
    await expect(contactRow(ana.page, `Importado Tres ${stamp}`).getByRole("button")).toHaveCount(2);

    await page.goto("/contacts");
    await contactRow(page, `Importado Tres ${stamp}`)
      .getByRole("button", { name: /^Excluir contato/ })
      .click();
    await dialog(page, `Excluir Importado Tres ${stamp}?`).getByRole("button", { name: "Confirmar" }).click();
    await expect(page.getByText("Contato excluído.")).toBeVisible();
    await expect(contactRow(page, `Importado Tres ${stamp}`)).toHaveCount(0);
    // Ana's open page hears it live.
    await expect(contactRow(ana.page, `Importado Tres ${stamp}`)).toHaveCount(0);

    // On a phone the header stacks and the email column gives way.
    await ana.page.setViewportSize({ width: 390, height: 800 });
    await expect(ana.page.getByRole("columnheader", { name: "Email" })).toBeHidden();
    await shot(ana.page, "contacts-narrow");

    await admin.context.close();
    await ana.context.close();
  });
});
