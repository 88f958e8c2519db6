import { type Locator, type Page, expect, test } from "@playwright/test";
import { DEMO, callApi, loginAs, newPerson, shot } from "./helpers";

interface Queue {
  id: number;
  name: string;
}
interface Whatsapp {
  id: number;
  provider: string;
  status: string;
  queues: Queue[];
}

/** A connected simulator connection whose only queue is Vendas: a first message waits in Vendas (Ana's queue). */
async function vendasConnection(admin: Page): Promise<number> {
  const vendas = (await callApi<Queue[]>(admin, "GET", "/queue")).find((q) => q.name === "Vendas");
  if (!vendas) throw new Error("the demo queue Vendas is missing");
  const status = async (id: number) =>
    (await callApi<Whatsapp[]>(admin, "GET", "/whatsapp")).find((w) => w.id === id)?.status;
  let connection = (await callApi<Whatsapp[]>(admin, "GET", "/whatsapp")).find(
    (w) => w.provider === "simulator" && w.queues.length === 1 && w.queues[0]!.id === vendas.id,
  );
  connection ??= await callApi<Whatsapp>(admin, "POST", "/whatsapp", {
    name: "Simulador Kanban (e2e)",
    provider: "simulator",
    queueIds: [vendas.id],
  });
  const id = connection.id;
  if ((await status(id)) !== "CONNECTED") {
    await expect.poll(() => status(id)).toMatch(/^(qrcode|CONNECTED)$/);
    if ((await status(id)) === "qrcode") await callApi(admin, "POST", `/simulator/${id}/scan`);
    await expect.poll(() => status(id)).toBe("CONNECTED");
  }
  return id;
}

function lane(page: Page, name: string | RegExp): Locator {
  return page.getByRole("region", { name: typeof name === "string" ? new RegExp(`^Coluna ${name},`) : name });
}

/** Drags a card onto a lane with the mouse, in small steps as a hand would. */
async function drag(page: Page, card: Locator, target: Locator) {
  const from = (await card.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + 40, from.y + 20);
  await page.mouse.down();
  await page.mouse.move(from.x + 60, from.y + 30, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + 120, { steps: 20 });
  await page.mouse.up();
}

test.describe("tags and kanban", () => {
  test("an admin creates a kanban tag and drags a ticket into its lane; an agent sees the move live", async ({
    browser,
  }) => {
    const admin = await newPerson(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    const whatsappId = await vendasConnection(admin.page);
    const customer = `Cliente Kanban ${Date.now() % 100000}`;
    await callApi(admin.page, "POST", `/simulator/${whatsappId}/messages`, {
      from: `55119${String(Date.now() % 100_000_000).padStart(8, "0")}`,
      name: customer,
      body: "Quero fechar o pedido",
    });

    // The tag: validation first, then a kanban lane in a colour of the palette.
    const tagName = `Negociação ${Date.now() % 100000}`;
    await admin.page
      .getByRole("navigation", { name: "menu" })
      .getByRole("link", { name: "Tags", exact: true })
      .click();
    await expect(admin.page).toHaveURL(/\/tags$/);
    await admin.page.getByRole("button", { name: "Nova tag" }).click();
    const dialog = admin.page.getByRole("dialog", { name: "Adicionar tag" });
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(dialog.getByText("Obrigatório")).toBeVisible();
    await dialog.getByRole("textbox", { name: "Nome" }).fill("ab");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(dialog.getByText("Mensagem muito curta")).toBeVisible();
    await dialog.getByRole("textbox", { name: "Nome" }).fill(tagName);
    await dialog.getByRole("radio", { name: "#EF6C00" }).click();
    await dialog.getByLabel("Kanban", { exact: true }).check();
    await shot(admin.page, "tags-dialog");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(admin.page.getByText("Tag salva com sucesso!")).toBeVisible();
    await expect(dialog).toBeHidden();
    const row = admin.page.getByRole("row").filter({ hasText: tagName });
    await expect(row.getByRole("cell").nth(1)).toHaveText("Nenhum ticket");
    await expect(row.getByRole("img", { name: "Coluna do Kanban" })).toBeVisible();
    await shot(admin.page, "tags-page");

    // Ana (queue Vendas) watches the board in her own browser.
    const ana = await newPerson(browser);
    await loginAs(ana.page, DEMO.ana.email, DEMO.ana.password);
    await ana.page.goto("/kanban");
    await expect(lane(ana.page, "Em aberto").getByLabel(`Ticket de ${customer}`)).toBeVisible();

    // The admin's board: 'Em aberto' and the new lane; the card goes from one to the other.
    await admin.page
      .getByRole("navigation", { name: "menu" })
      .getByRole("link", { name: "Kanban", exact: true })
      .click();
    await expect(admin.page).toHaveURL(/\/kanban$/);
    const open = lane(admin.page, "Em aberto");
    const target = lane(admin.page, tagName);
    await expect(target).toBeVisible();
    const card = open.getByLabel(`Ticket de ${customer}`);
    await expect(card).toContainText("Quero fechar o pedido");
    await expect(card).toContainText("Vendas");
    await drag(admin.page, card, target);
    await expect(admin.page.getByText("Ticket Tag Removido!")).toBeVisible();
    await expect(admin.page.getByText("Ticket Tag Adicionado com Sucesso!")).toBeVisible();
    await expect(target.getByLabel(`Ticket de ${customer}`)).toBeVisible();
    await expect(open.getByLabel(`Ticket de ${customer}`)).toHaveCount(0);
    await shot(admin.page, "kanban-moved");

    // Ana's board followed without a reload.
    await expect(lane(ana.page, tagName).getByLabel(`Ticket de ${customer}`)).toBeVisible();
    await expect(lane(ana.page, "Em aberto").getByLabel(`Ticket de ${customer}`)).toHaveCount(0);
    await shot(ana.page, "kanban-live");

    // And back to 'Em aberto'.
    await drag(admin.page, target.getByLabel(`Ticket de ${customer}`), open);
    await expect(open.getByLabel(`Ticket de ${customer}`)).toBeVisible();
    await expect(lane(ana.page, "Em aberto").getByLabel(`Ticket de ${customer}`)).toBeVisible();
    await drag(admin.page, open.getByLabel(`Ticket de ${customer}`), target);
    await expect(target.getByLabel(`Ticket de ${customer}`)).toBeVisible();

    // The card's button opens the ticket by its uuid.
    await target.getByLabel(`Ticket de ${customer}`).getByRole("button", { name: "Ver ticket" }).click();
    await expect(admin.page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);

    // The tag's count followed.
    await admin.page.goto("/tags");
    await expect(
      admin.page.getByRole("row").filter({ hasText: tagName }).getByRole("cell").nth(1),
    ).toHaveText("1 ticket");
    await ana.context.close();
    await admin.context.close();
  });
});
