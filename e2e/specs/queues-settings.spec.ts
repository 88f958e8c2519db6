import { type Page, expect } from "@playwright/test";
import { DEMO, callApi, loginAs, newPerson, shot, test } from "./helpers";

interface Queue {
  id: number;
  name: string;
  color: string;
}
interface QueueOption {
  title: string;
  option: number;
  children: QueueOption[];
}

/** Picks a value in an MUI select by its label. */
async function choose(page: Page, label: string, value: string) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: value, exact: true }).click();
}

test.describe("queues and settings", () => {
  test("an admin builds a queue with a two-level menu, meeting the validation on the way; another admin sees it live; settings save on change", async ({
    browser,
  }) => {
    const suffix = Date.now() % 100000;
    const queueName = `Financeiro ${suffix}`;
    const admin = await newPerson(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    const vendas = (await callApi<Queue[]>(admin.page, "GET", "/queue")).find((q) => q.name === "Vendas");
    if (!vendas) throw new Error("the demo queue Vendas is missing");

    // A second admin of the company keeps the queues page open in their own browser.
    const watcherEmail = `gestora-${suffix}@atende.demo`;
    const watcherUser = await callApi<{ id: number }>(admin.page, "POST", "/users", {
      name: "Gestora E2E",
      email: watcherEmail,
      password: "Gestora123",
      profile: "admin",
    });
    const watcher = await newPerson(browser);
    await loginAs(watcher.page, watcherEmail, "Gestora123");
    await watcher.page.goto("/queues");
    await expect(watcher.page.getByRole("cell", { name: "Vendas", exact: true })).toBeVisible();

    // The queues page, from the side menu.
    await admin.page
      .getByRole("navigation", { name: "menu" })
      .getByRole("link", { name: "Filas & Chatbot", exact: true })
      .click();
    await expect(admin.page).toHaveURL(/\/queues$/);
    await expect(admin.page.getByRole("heading", { name: "Filas & Chatbot" })).toBeVisible();
    const vendasRow = admin.page
      .getByRole("row")
      .filter({ has: admin.page.getByRole("cell", { name: "Vendas", exact: true }) });
    await expect(vendasRow).toContainText(vendas.color);

    // Validation first: the name is required, then too short; a colour in use is refused by the server.
    await admin.page.getByRole("button", { name: "Adicionar fila" }).click();
    const dialog = admin.page.getByRole("dialog", { name: "Adicionar fila" });
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(dialog.getByText("Required")).toBeVisible();
    await dialog.getByRole("textbox", { name: "Nome" }).fill("F");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(dialog.getByText("Too Short!")).toBeVisible();
    await dialog.getByRole("textbox", { name: "Nome" }).fill(queueName);
    await dialog.getByRole("textbox", { name: "Código da cor" }).fill(vendas.color);
    await dialog
      .getByRole("textbox", { name: "Mensagem de saudação" })
      .fill("Olá! Você está no Financeiro. Escolha uma opção:");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(dialog.getByText("Esta cor já está em uso, escolha outra.")).toBeVisible();
    await shot(admin.page, "queues-color-taken");
    await dialog.getByRole("textbox", { name: "Código da cor" }).fill("#8e24aa");

    // The menu needs a saved queue: 'Salvar e montar o menu' saves it and keeps the dialog open.
    await dialog.getByRole("tab", { name: "Opções do chatbot" }).click();
    await expect(dialog.getByText("Salve a fila para montar o menu de opções do chatbot.")).toBeVisible();
    await dialog.getByRole("button", { name: "Salvar e montar o menu" }).click();
    await expect(admin.page.getByText("Fila salva com sucesso!").first()).toBeVisible();
    const editDialog = admin.page.getByRole("dialog", { name: "Editar fila" });
    await expect(editDialog.getByText("Nenhuma opção ainda")).toBeVisible();

    // The other admin saw the queue arrive without a reload.
    await expect(watcher.page.getByRole("row").filter({ hasText: queueName })).toBeVisible();

    // Two options on the first menu, and one below the first.
    async function addOption(button: string, title: string, message: string) {
      await editDialog.getByRole("button", { name: button }).click();
      const optionDialog = admin.page.getByRole("dialog").filter({ has: admin.page.getByLabel("Título") });
      await optionDialog.getByRole("textbox", { name: "Título" }).fill(title);
      await optionDialog.getByRole("textbox", { name: "Mensagem" }).fill(message);
      await optionDialog.getByRole("button", { name: "Salvar" }).click();
      await expect(optionDialog).toBeHidden();
    }
    // A title is required here too.
    await editDialog.getByRole("button", { name: "Adicionar opção" }).click();
    const firstOption = admin.page.getByRole("dialog", { name: "Adicionar opção" });
    await firstOption.getByRole("button", { name: "Salvar" }).click();
    await expect(firstOption.getByText("Required")).toBeVisible();
    await firstOption.getByRole("button", { name: "Cancelar" }).click();

    await addOption("Adicionar opção", "Boletos", "Envie o CPF do titular.");
    await addOption("Adicionar opção", "Notas fiscais", "Informe o número do pedido.");
    await addOption("Adicionar sub-opção: Boletos", "Segunda via", "A segunda via segue em instantes.");
    const tree = editDialog.getByRole("tree");
    await expect(tree.getByRole("treeitem", { name: "1 Boletos" })).toBeVisible();
    await expect(tree.getByRole("treeitem", { name: "2 Notas fiscais" })).toBeVisible();
    await expect(tree.getByRole("treeitem", { name: "1 › 1 Segunda via" })).toBeVisible();
    await shot(admin.page, "queues-options-tree");

    // Edit a leaf.
    await editDialog.getByRole("button", { name: "Editar opção: Segunda via" }).click();
    const editOption = admin.page.getByRole("dialog", { name: "Editar opção" });
    await editOption.getByRole("textbox", { name: "Título" }).fill("Segunda via do boleto");
    await editOption.getByRole("button", { name: "Salvar" }).click();
    await expect(tree.getByRole("treeitem", { name: "1 › 1 Segunda via do boleto" })).toBeVisible();

    // The server holds the same tree.
    const saved = (await callApi<Queue[]>(admin.page, "GET", "/queue")).find((q) => q.name === queueName)!;
    const options = await callApi<QueueOption[]>(
      admin.page,
      "GET",
      `/queue-options?queueId=${saved.id}&parentId=-1`,
    );
    const shape = (list: QueueOption[]): unknown =>
      list.map((o) => ({ [`${o.option} ${o.title}`]: shape(o.children) }));
    expect(shape(options)).toEqual([
      { "1 Boletos": [{ "1 Segunda via do boleto": [] }] },
      { "2 Notas fiscais": [] },
    ]);
    expect(saved.color).toBe("#8e24aa");

    // Deleting the parent takes its sub-option along.
    await editDialog.getByRole("button", { name: "Excluir opção: Boletos" }).click();
    await admin.page
      .getByRole("dialog", { name: "Excluir a opção Boletos?" })
      .getByRole("button", { name: "Confirmar" })
      .click();
    await expect(tree.getByRole("treeitem", { name: /Boletos/ })).toHaveCount(0);
    await expect(tree.getByRole("treeitem", { name: "2 Notas fiscais" })).toBeVisible();
    await editDialog.getByRole("button", { name: "Cancelar" }).click();
    const row = admin.page.getByRole("row").filter({ hasText: queueName });
    await expect(row).toContainText("#8e24aa");
    await expect(row).toContainText("Olá! Você está no Financeiro.");
    await shot(admin.page, "queues-page");

    // Settings: each change saves at once.
    await admin.page
      .getByRole("navigation", { name: "menu" })
      .getByRole("link", { name: "Configurações", exact: true })
      .click();
    await expect(admin.page).toHaveURL(/\/settings$/);
    await expect(admin.page.getByRole("tab", { name: "Horários" })).toHaveCount(0);
    // From a known state, whatever specs before this one left: ratings off, so turning them on saves.
    await callApi(admin.page, "PUT", "/settings/userRating", { value: "disabled" });
    await admin.page.reload();
    await expect(admin.page.getByRole("combobox", { name: "Avaliações" })).toHaveText("Desabilitadas");
    await choose(admin.page, "Avaliações", "Habilitadas");
    await expect(admin.page.getByText("Operação atualizada com sucesso.").first()).toBeVisible();
    await expect(admin.page.getByRole("combobox", { name: "Avaliações" })).toHaveText("Habilitadas");

    // Company hours: the Horarios tab appears with scheduleType "company".
    await choose(admin.page, "Gerenciamento de expediente", "Por empresa");
    await admin.page.getByRole("tab", { name: "Horários" }).click();
    await expect(admin.page.getByRole("textbox", { name: "Segunda-feira: Início" })).toHaveValue("08:00");
    await admin.page.getByRole("textbox", { name: "Sábado: Fim" }).fill("25:00");
    await admin.page.getByRole("button", { name: "Salvar" }).click();
    await expect(admin.page.getByText("Use o formato HH:MM")).toBeVisible();
    await admin.page.getByRole("textbox", { name: "Sábado: Fim" }).fill("13:00");
    await admin.page.getByRole("button", { name: "Salvar" }).click();
    await expect(admin.page.getByText("Horários atualizados com sucesso.")).toBeVisible();
    await shot(admin.page, "settings-hours");

    // With scheduleType "queue", the queue dialog gets its service-hours tab.
    await admin.page.getByRole("tab", { name: "Opções" }).click();
    await choose(admin.page, "Gerenciamento de expediente", "Por fila");
    await expect(admin.page.getByText("Operação atualizada com sucesso.").first()).toBeVisible();
    await expect(admin.page.getByRole("tab", { name: "Horários" })).toHaveCount(0);
    await shot(admin.page, "settings-options");
    await admin.page.goto("/queues");
    await admin.page.getByRole("button", { name: `Editar fila ${queueName}` }).click();
    const hoursDialog = admin.page.getByRole("dialog", { name: "Editar fila" });
    await hoursDialog.getByRole("tab", { name: "Horários de atendimento" }).click();
    await expect(hoursDialog.getByRole("textbox", { name: "Sábado: Fim" })).toHaveValue("12:00");
    await hoursDialog.getByRole("textbox", { name: "Sexta-feira: Fim" }).fill("17:30");
    await hoursDialog.getByRole("button", { name: "Salvar" }).click();
    await expect(hoursDialog).toBeHidden();
    const withHours = (
      await callApi<(Queue & { schedules: { weekdayEn: string; endTime: string }[] })[]>(
        admin.page,
        "GET",
        "/queue",
      )
    ).find((q) => q.name === queueName)!;
    expect(withHours.schedules.find((d) => d.weekdayEn === "friday")?.endTime).toBe("17:30");

    // Leave the demo as it was for other specs: the settings back, the queue and the user gone.
    for (const [key, value] of [
      ["userRating", "disabled"],
      ["scheduleType", "disabled"],
    ])
      await callApi(admin.page, "PUT", `/settings/${key}`, { key, value });
    await admin.page.getByRole("button", { name: `Excluir fila ${queueName}` }).click();
    await admin.page
      .getByRole("dialog", { name: `Excluir a fila ${queueName}?` })
      .getByRole("button", { name: "Confirmar" })
      .click();
    await expect(admin.page.getByText("Fila excluída com sucesso!")).toBeVisible();
    await expect(watcher.page.getByRole("row").filter({ hasText: queueName })).toHaveCount(0);
    await callApi(admin.page, "DELETE", `/users/${watcherUser.id}`);
    await watcher.context.close();
    await admin.context.close();
  });
});
