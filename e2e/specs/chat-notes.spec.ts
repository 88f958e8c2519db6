import { type Page, expect } from "@playwright/test";
import { callApi, customerWaiting } from "./chatSetup";
import { DEMO, loginAs, newPerson, shot, test } from "./helpers";

function drawer(page: Page) {
  return page.getByRole("complementary", { name: "Dados do contato" });
}

function notesOf(page: Page) {
  return drawer(page).getByRole("list", { name: "Observações" });
}

test.describe("ticket notes in the chat's contact drawer", () => {
  test("an agent adds a note (at least 2 characters), sees it with her name, a colleague hears it live, and deletes it", async ({
    browser,
  }) => {
    const stamp = Date.now();
    const customer = `Joana ${stamp}`;
    const number = `55119${String(stamp).slice(-8)}`;

    const { admin, ticket } = await customerWaiting(browser, {
      name: customer,
      number,
      body: "Oi, tudo bem?",
    });

    const ana = await newPerson(browser);
    const page = ana.page;
    await loginAs(page, DEMO.ana.email, DEMO.ana.password);
    await page.goto(`/tickets/${ticket.uuid}`);
    await page.getByRole("button", { name: "Aceitar" }).first().click();
    await expect(page.getByText("Atribuído a Ana")).toBeVisible();

    // The drawer opens from the header's contact button; the notes sit after the contact's data.
    await page.getByRole("button", { name: "Dados do contato", exact: true }).click();
    const panel = drawer(page);
    await expect(panel.getByRole("heading", { name: "Observações" })).toBeVisible();
    await expect(panel.getByText("Nenhuma observação neste atendimento.")).toBeVisible();

    // One character is refused on the spot, nothing is saved.
    const box = panel.getByRole("textbox", { name: "Adicionar uma observação" });
    await box.fill("x");
    await panel.getByRole("button", { name: "Adicionar", exact: true }).click();
    await expect(panel.getByText("Too Short!")).toBeVisible();
    expect(
      await callApi<unknown[]>(
        page,
        "GET",
        `/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`,
      ),
    ).toHaveLength(0);

    // The admin has the same ticket open: the note reaches him without a reload.
    await admin.page.goto(`/tickets/${ticket.uuid}`);
    await admin.page.getByRole("button", { name: "Dados do contato", exact: true }).click();
    await expect(drawer(admin.page).getByText("Nenhuma observação neste atendimento.")).toBeVisible();

    const note = `Cliente prefere contato à tarde (${stamp})`;
    await box.fill(note);
    await panel.getByRole("button", { name: "Adicionar", exact: true }).click();
    await expect(page.getByText("Observação adicionada com sucesso!")).toBeVisible();
    await expect(box).toHaveValue("");
    const item = notesOf(page).getByRole("listitem").filter({ hasText: note });
    await expect(item).toBeVisible();
    await expect(item).toContainText(/Ana · \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    await expect(notesOf(admin.page).getByRole("listitem").filter({ hasText: note })).toContainText("Ana");
    await shot(page, "chat-notes-drawer");

    // Stored: still there after a reload.
    await page.reload();
    await page.getByRole("button", { name: "Dados do contato", exact: true }).click();
    const reloaded = notesOf(page).getByRole("listitem").filter({ hasText: note });
    await expect(reloaded).toContainText("Ana");

    // Deleted after a confirmation: gone here, for the admin, and after another reload.
    await reloaded.getByRole("button", { name: "Excluir observação" }).click();
    await page
      .getByRole("dialog", { name: "Excluir esta observação?" })
      .getByRole("button", { name: "Confirmar" })
      .click();
    await expect(page.getByText("Observação excluída com sucesso!")).toBeVisible();
    await expect(drawer(page).getByText(note)).toHaveCount(0);
    await expect(drawer(admin.page).getByText(note)).toHaveCount(0);
    await page.reload();
    await page.getByRole("button", { name: "Dados do contato", exact: true }).click();
    await expect(drawer(page).getByText("Nenhuma observação neste atendimento.")).toBeVisible();
    await ana.context.close();
    await admin.context.close();
  });

  test("the drawer's edit form changes the contact: the drawer, the chat header and the list follow", async ({
    browser,
  }) => {
    const stamp = Date.now();
    const customer = `Rita ${stamp}`;
    const number = `55119${String(stamp + 7).slice(-8)}`;
    const { admin, ticket } = await customerWaiting(browser, { name: customer, number, body: "Bom dia" });
    const page = admin.page;

    await page.goto(`/tickets/${ticket.uuid}`);
    await page.getByRole("button", { name: "Aceitar" }).first().click();
    await expect(page.getByText("Atribuído a Admin Demo")).toBeVisible();
    await page.getByRole("button", { name: "Dados do contato", exact: true }).click();
    await drawer(page).getByRole("button", { name: "Editar contato" }).click();
    const edit = page.getByRole("dialog", { name: "Editar contato" });
    await edit.locator("#contact-name").fill(`${customer} Souza`);
    await edit.getByLabel("Email").fill(`rita${stamp}@example.com`);
    await edit.getByRole("button", { name: "Salvar" }).click();
    await expect(page.getByText("Contato salvo com sucesso.").first()).toBeVisible();
    await expect(edit).toBeHidden();
    await expect(drawer(page).getByText(`rita${stamp}@example.com`)).toBeVisible();
    await expect(
      drawer(page)
        .getByRole("paragraph")
        .filter({ hasText: `${customer} Souza` }),
    ).toBeVisible();
    await expect(
      page
        .locator("header")
        .filter({ hasText: `${customer} Souza` })
        .first(),
    ).toBeVisible();
    await expect(
      page
        .getByRole("list", { name: "Lista de atendimentos" })
        .getByRole("listitem")
        .filter({ hasText: `${customer} Souza` }),
    ).toBeVisible();
    const stored = await callApi<{ name: string; email: string }>(
      page,
      "GET",
      `/contacts/${ticket.contactId}`,
    );
    expect(stored).toMatchObject({ name: `${customer} Souza`, email: `rita${stamp}@example.com` });
    await shot(page, "chat-contact-edit");
    await admin.context.close();
  });
});
