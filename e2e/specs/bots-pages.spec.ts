import { type Page, expect } from "@playwright/test";
import { DEMO, callApi, loginAs, newPerson, shot, test } from "./helpers";

interface Queue {
  id: number;
  name: string;
  color: string;
  integrationId: number | null;
  promptId: number | null;
}

/** Picks a value in an MUI select by its label. */
async function choose(page: Page, label: string | RegExp, value: string) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: value, exact: true }).click();
}

test.describe("bots pages", () => {
  test("an admin adds a Typebot integration and an AI prompt, then chooses both in the queue dialog", async ({
    browser,
  }) => {
    const suffix = Date.now() % 100000;
    const botName = `Bot Vendas ${suffix}`;
    const promptName = `Atendente IA ${suffix}`;
    const admin = await newPerson(browser);
    const page = admin.page;
    await loginAs(page, DEMO.admin.email, DEMO.admin.password);
    const vendas = (await callApi<Queue[]>(page, "GET", "/queue")).find((q) => q.name === "Vendas");
    if (!vendas) throw new Error("the demo queue Vendas is missing");

    // The integrations page, from the side menu.
    await page
      .getByRole("navigation", { name: "menu" })
      .getByRole("link", { name: "Integrações", exact: true })
      .click();
    await expect(page).toHaveURL(/\/queue-integration$/);
    await expect(page.getByRole("heading", { name: /^Integrações/ })).toBeVisible();

    // A new integration starts as a Typebot with the spec's defaults.
    await page.getByRole("button", { name: "Adicionar projeto" }).click();
    let dialog = page.getByRole("dialog", { name: "Adicionar projeto" });
    await expect(dialog.getByRole("combobox", { name: "Tipo" })).toHaveText("Typebot");
    await expect(dialog.getByLabel("Intervalo (ms) entre mensagens")).toHaveValue("1000");
    await expect(dialog.getByLabel("Tempo em minutos para expirar uma conversa")).toHaveValue("1");
    // Dialogflow shows its own fields and the Test button; back to Typebot.
    await choose(page, "Tipo", "DialogFlow");
    await expect(dialog.getByRole("combobox", { name: "Linguagem" })).toHaveText("Português");
    await expect(dialog.getByLabel("JSON da conta de serviço")).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Testar bot" })).toBeVisible();
    await choose(page, "Tipo", "Typebot");
    await expect(dialog.getByRole("button", { name: "Testar bot" })).toHaveCount(0);
    // The required fields first.
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(dialog.getByLabel("Typebot - Slug")).toHaveAttribute("aria-invalid", "true");
    await dialog.getByLabel("Nome").fill(botName);
    await dialog.getByLabel("URL do Typebot").fill("https://typebot.example.com");
    await dialog.getByLabel("Typebot - Slug").fill("vendas");
    await dialog.getByLabel("Token de acesso (Bearer)").fill("typebot-token-4321");
    await shot(page, "bots-integration-dialog");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(page.getByText("Integração criada com sucesso!")).toBeVisible();
    await expect(dialog).toBeHidden();
    const row = page.getByRole("row").filter({ hasText: botName });
    await expect(row.getByRole("img", { name: "Typebot" })).toBeVisible();

    // The search is lowercased as typed; editing shows the token by its last four characters only.
    await page.getByLabel("Pesquisar integrações").fill("BOT VENDAS");
    await expect(page.getByLabel("Pesquisar integrações")).toHaveValue("bot vendas");
    await expect(row).toBeVisible();
    await row.getByRole("button", { name: `Editar ${botName}` }).click();
    dialog = page.getByRole("dialog", { name: "Editar projeto" });
    await expect(dialog.getByLabel("Token de acesso (Bearer)")).toHaveValue("");
    await expect(dialog.getByText("Salvo, termina em 4321. Deixe em branco para manter.")).toBeVisible();
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await shot(page, "bots-integrations-page");

    // The prompts page: the credit warning, then a prompt.
    await page
      .getByRole("navigation", { name: "menu" })
      .getByRole("link", { name: "Open.AI", exact: true })
      .click();
    await expect(page).toHaveURL(/\/prompts$/);
    await expect(page.getByRole("alert").filter({ hasText: "créditos" })).toBeVisible();
    await page.getByRole("button", { name: "Adicionar prompt" }).click();
    dialog = page.getByRole("dialog", { name: "Adicionar prompt" });
    await expect(dialog.getByRole("combobox", { name: "Voz" })).toHaveText("Texto");
    await expect(dialog.getByLabel("Máximo de tokens na resposta")).toHaveValue("100");
    await expect(dialog.getByLabel("Temperatura")).toHaveValue("1");
    await expect(dialog.getByLabel("Máximo de mensagens no histórico")).toHaveValue("10");
    await dialog.getByLabel("Nome").fill(promptName);
    await dialog
      .getByRole("textbox", { name: "Prompt" })
      .fill("Você é a atendente da loja. Responda com cordialidade e poucas frases.");
    await dialog.getByLabel("Chave da API").fill("sk-e2e-secret-9876");
    // Without a queue: 'Informe o setor', nothing sent.
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(page.getByText("Informe o setor").first()).toBeVisible();
    await choose(page, /^Setor/, "Vendas");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(page.getByText("Prompt salvo com sucesso!")).toBeVisible();
    const promptRow = page.getByRole("row").filter({ hasText: promptName });
    await expect(promptRow).toContainText("Vendas");
    await expect(promptRow).toContainText("100");
    await expect(page.getByTestId("prompts-usage")).toBeVisible();
    await shot(page, "bots-prompts-page");

    // The queue dialog: choose the integration and the prompt.
    await page
      .getByRole("navigation", { name: "menu" })
      .getByRole("link", { name: "Filas & Chatbot", exact: true })
      .click();
    // The address changes at once, but the prompts page stays on screen (and clickable) until the
    // lazy queues page has loaded: its prompt row also has a "Vendas" cell and an "Editar …" button.
    // So wait for the queues page itself, and click the Vendas queue's own button.
    await expect(page.getByRole("heading", { name: "Filas & Chatbot", level: 1 })).toBeVisible();
    const editVendas = page
      .getByTestId(`queue-row-${vendas.id}`)
      .getByRole("button", { name: "Editar fila Vendas", exact: true });
    await editVendas.click();
    dialog = page.getByRole("dialog", { name: "Editar fila" });
    await expect(dialog.getByRole("combobox", { name: /^Integração/ })).toBeVisible();
    await choose(page, /^Integração/, botName);
    await choose(page, /^Prompt/, promptName);
    await shot(page, "bots-queue-dialog");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(dialog).toBeHidden();
    const saved = await callApi<Queue>(page, "GET", `/queue/${vendas.id}`);
    const integrations = await callApi<{ queueIntegrations: { id: number; name: string }[] }>(
      page,
      "GET",
      "/queueIntegration",
    );
    const prompts = await callApi<{ prompts: { id: number; name: string }[] }>(page, "GET", "/prompt");
    const botId = integrations.queueIntegrations.find((i) => i.name === botName)!.id;
    const promptId = prompts.prompts.find((p) => p.name === promptName)!.id;
    expect({ integrationId: saved.integrationId, promptId: saved.promptId }).toEqual({
      integrationId: botId,
      promptId,
    });

    // Reopened, the dialog shows both by name.
    await editVendas.click();
    dialog = page.getByRole("dialog", { name: "Editar fila" });
    await expect(dialog.getByRole("combobox", { name: /^Integração/ })).toHaveText(botName);
    await expect(dialog.getByRole("combobox", { name: /^Prompt/ })).toHaveText(promptName);
    await dialog.getByRole("button", { name: "Cancelar" }).click();

    // Deleting the integration (its confirmation names it) unlinks the queue; the demo stays as it was.
    await page.goto("/queue-integration");
    await page
      .getByRole("row")
      .filter({ hasText: botName })
      .getByRole("button", { name: `Excluir ${botName}` })
      .click();
    const confirm = page.getByRole("dialog", { name: `Excluir ${botName}?` });
    await expect(confirm).toContainText("Deseja realmente excluir esse registro?");
    await confirm.getByRole("button", { name: /Confirmar|Excluir/ }).click();
    await expect(page.getByText("Integração excluída com sucesso!")).toBeVisible();
    await callApi(page, "DELETE", `/prompt/${promptId}`);
    expect(await callApi<Queue>(page, "GET", `/queue/${vendas.id}`)).toMatchObject({
      integrationId: null,
      promptId: null,
    });
    await admin.context.close();
  });
});
