import { expect } from "@playwright/test";
import { vendasConnection } from "./chatSetup";
import { DEMO, loginAs, shot, test } from "./helpers";

/**
 * Contact lists in Chromium: an admin creates a list, downloads the example spreadsheet and imports
 * it, then imports a CSV with a repeated number (without the ninth digit), a number WhatsApp does
 * not know (ending in 0000) and a bad row; the page shows the counts live, the bad row, and each
 * item's WhatsApp icon once the simulator connection has checked it.
 */
test("import spreadsheets into a contact list: counts, bad rows and WhatsApp icons", async ({
  page,
}, testInfo) => {
  await loginAs(page, DEMO.admin.email, DEMO.admin.password);
  await vendasConnection(page);

  await page.goto("/contact-lists");
  // The first visit loads the page's code: slow on a loaded machine.
  await expect(page.getByRole("heading", { name: "Listas de Contatos" })).toBeVisible({ timeout: 30_000 });
  const name = `Clientes e2e ${Date.now()}`;
  await page.getByRole("button", { name: "Adicionar" }).click();
  await page.getByLabel("Nome").fill(name);
  await page.getByRole("button", { name: "Salvar" }).click();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row.getByTestId("contacts-count")).toHaveText("0");

  // The example spreadsheet, downloaded from the list's row.
  const downloading = page.waitForEvent("download");
  await row.getByRole("button", { name: "Baixar planilha de exemplo" }).click();
  const example = await downloading;
  expect(example.suggestedFilename()).toBe("planilha_exemplo.xlsx");
  const examplePath = testInfo.outputPath("planilha_exemplo.xlsx");
  await example.saveAs(examplePath);

  await row.getByRole("button", { name: `Abrir contatos ${name}` }).click();
  await expect(page.getByRole("heading", { name: `Contatos de ${name}` })).toBeVisible();

  await page.getByTestId("import-file").setInputFiles(examplePath);
  await expect(page.getByTestId("import-status")).toHaveText("Importação de planilha_exemplo.xlsx concluída");
  await expect(page.getByTestId("import-imported")).toHaveText("2 importados");
  await expect(page.getByTestId("items-count")).toHaveText("(2)");

  const csv = [
    "Nome;Telefone;Email",
    "Carla;5511977770001;carla@exemplo.com",
    "Carla outra vez;11 7777-0001;",
    "Sem zap;5511977770000;",
    "Ruim;abc;",
    "Maria de novo;5511999998888;",
  ].join("\n");
  await page
    .getByTestId("import-file")
    .setInputFiles({ name: "contatos.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(page.getByTestId("import-status")).toHaveText("Importação de contatos.csv concluída");
  await expect(page.getByTestId("import-imported")).toHaveText("2 importados");
  await expect(page.getByTestId("import-duplicates")).toHaveText("2 repetidos");
  await expect(page.getByTestId("import-invalid")).toHaveText("1 com erro");
  await expect(page.getByText("Linha 5: Número inválido (abc)")).toBeVisible();
  await expect(page.getByRole("button", { name: "Baixar relatório de erros" })).toBeVisible();
  await expect(page.getByTestId("items-count")).toHaveText("(4)");

  // The simulator checks every number in the background; the icons follow live.
  await expect(page.getByTestId("item-row-5511977770001").getByTestId("whatsapp-valid")).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByTestId("item-row-5511977770000").getByTestId("whatsapp-invalid")).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByTestId("item-row-5511999998888").getByTestId("whatsapp-valid")).toBeVisible();
  await shot(page, "contact-list-items");

  await page.getByRole("button", { name: "Listas" }).click();
  await expect(page.getByRole("row").filter({ hasText: name }).getByTestId("contacts-count")).toHaveText("4");
  await shot(page, "contact-lists");
});

/** File lists: name min 3 ('nome muito curto'), a message, and a file per option, uploaded after saving. */
test("a file list with a message and a file", async ({ page }) => {
  await loginAs(page, DEMO.admin.email, DEMO.admin.password);
  await page.goto("/files");
  await expect(page.getByRole("heading", { name: "Listas de arquivos" })).toBeVisible({ timeout: 30_000 });
  await page.getByRole("button", { name: "Adicionar" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nome", { exact: false }).first().fill("ab");
  await dialog.getByLabel("Mensagem").fill("Veja nosso catálogo");
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog.getByText("nome muito curto")).toBeVisible();
  const name = `Catálogo ${Date.now()}`;
  await dialog.locator("#file-list-name").fill(name);
  await dialog.getByRole("button", { name: "Adicionar arquivo" }).click();
  await dialog.getByLabel("Nome do arquivo").fill("Tabela de preços");
  await dialog
    .locator('input[type="file"]')
    .setInputFiles({ name: "precos.txt", mimeType: "text/plain", buffer: Buffer.from("preços") });
  await dialog.getByRole("button", { name: "Salvar" }).click();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("1 arquivo");
  await shot(page, "file-lists");
});
