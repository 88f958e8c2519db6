import { type Page, expect, test } from "@playwright/test";
import { callApi, customerSends, vendasConnection, waitingTicketOf } from "./chatSetup";
import { DEMO, loginAs, newPerson, shot } from "./helpers";

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

    const admin = await newPerson(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    const whatsappId = await vendasConnection(admin.page);
    await customerSends(admin.page, whatsappId, { from: number, name: customer, body: "Oi, tudo bem?" });
    const ticket = await waitingTicketOf(admin.page, number);

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
});
