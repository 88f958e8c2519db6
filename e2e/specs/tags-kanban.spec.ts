import { type Locator, type Page, expect } from "@playwright/test";
import {
  DEMO,
  callApi,
  dropLiveChannel,
  loginAs,
  newPerson,
  restoreLiveChannel,
  shot,
  watchLiveChannel,
  test,
} from "./helpers";

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

/**
 * Moves a card with the keyboard, as the board's hint tells a screen-reader user: on the card's Move
 * button, space lifts it, the arrows carry it lane by lane (each lane announced), space drops it.
 */
async function moveByKeyboard(page: Page, card: Locator, customer: string, from: string, to: string) {
  const names = await page
    .getByRole("region", { name: /^Coluna / })
    .evaluateAll((lanes) => lanes.map((lane) => lane.getAttribute("aria-label") ?? ""));
  const lanes = names.map((label) => /^Coluna (.*), \d+ ticket/.exec(label)?.[1] ?? label);
  const start = lanes.indexOf(from);
  const steps = lanes.indexOf(to) - start;
  expect(steps).not.toBe(0);
  const announced = page.locator('[id^="DndLiveRegion"]');
  await card.getByRole("button", { name: `Mover ${customer}` }).focus();
  await page.keyboard.press("Space");
  await expect(announced).toHaveText(
    `Ticket de ${customer} levantado na coluna ${from}. Use as setas para trocar de coluna.`,
  );
  // One lane per arrow, each heard before the next arrow, as a screen-reader user goes.
  const direction = Math.sign(steps);
  for (let i = 1; i <= Math.abs(steps); i++) {
    await page.keyboard.press(direction > 0 ? "ArrowRight" : "ArrowLeft");
    await expect(announced).toHaveText(`Sobre a coluna ${lanes[start + i * direction]}.`);
  }
  await page.keyboard.press("Space");
  await expect(announced).toHaveText(`Ticket de ${customer} solto na coluna ${to}.`);
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

    // Another lane sorts before it (lanes go by name), so the keyboard crosses a lane on the way.
    const between = `Aguardando peça ${Date.now() % 100000}`;
    await callApi(admin.page, "POST", "/tags", { name: between, color: "#1E88E5", kanban: 1 });

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
    // The keyboard path: space, arrows, space.
    await expect(lane(admin.page, between)).toBeVisible();
    await moveByKeyboard(admin.page, card, customer, "Em aberto", tagName);
    await expect(admin.page.getByText("Ticket Tag Removido!")).toBeVisible();
    await expect(admin.page.getByText("Ticket Tag Adicionado com Sucesso!")).toBeVisible();
    await expect(target.getByLabel(`Ticket de ${customer}`)).toBeVisible();
    await expect(open.getByLabel(`Ticket de ${customer}`)).toHaveCount(0);
    await shot(admin.page, "kanban-moved");

    // Ana's board followed without a reload.
    await expect(lane(ana.page, tagName).getByLabel(`Ticket de ${customer}`)).toBeVisible();
    await expect(lane(ana.page, "Em aberto").getByLabel(`Ticket de ${customer}`)).toHaveCount(0);
    await shot(ana.page, "kanban-live");

    // Back to 'Em aberto' with the mouse, and over again with the keyboard (arrow left, then right).
    await drag(admin.page, target.getByLabel(`Ticket de ${customer}`), open);
    await expect(open.getByLabel(`Ticket de ${customer}`)).toBeVisible();
    await expect(target.getByLabel(`Ticket de ${customer}`)).toHaveCount(0);
    await expect(lane(ana.page, "Em aberto").getByLabel(`Ticket de ${customer}`)).toBeVisible();
    await moveByKeyboard(
      admin.page,
      open.getByLabel(`Ticket de ${customer}`),
      customer,
      "Em aberto",
      tagName,
    );
    await expect(target.getByLabel(`Ticket de ${customer}`)).toBeVisible();
    await expect(lane(ana.page, tagName).getByLabel(`Ticket de ${customer}`)).toBeVisible();
    await moveByKeyboard(
      admin.page,
      target.getByLabel(`Ticket de ${customer}`),
      customer,
      tagName,
      "Em aberto",
    );
    await expect(open.getByLabel(`Ticket de ${customer}`)).toBeVisible();
    await moveByKeyboard(
      admin.page,
      open.getByLabel(`Ticket de ${customer}`),
      customer,
      "Em aberto",
      tagName,
    );
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

  test("a full lane scrolls and keeps each card whole, its button in sight", async ({ browser }) => {
    const admin = await newPerson(browser);
    const page = admin.page;
    await loginAs(page, DEMO.admin.email, DEMO.admin.password);
    const whatsappId = await vendasConnection(page);
    const stamp = Date.now() % 100000;
    for (let i = 0; i < 8; i++) {
      await callApi(page, "POST", `/simulator/${whatsappId}/messages`, {
        from: `55117${String(stamp * 10 + i).padStart(8, "0")}`,
        name: `Cliente Fila ${stamp}-${i}`,
        body: "Bom dia",
      });
    }
    await page.goto("/kanban");
    const open = lane(page, "Em aberto");
    await expect(open.getByLabel(new RegExp(`^Ticket de Cliente Fila ${stamp}-`))).toHaveCount(8);
    // No card is squashed to fit: each is as tall as what it holds.
    const cut = await open
      .getByLabel(/^Ticket de /)
      .evaluateAll((cards) => cards.filter((card) => card.scrollHeight > card.clientHeight + 1).length);
    expect(cut).toBe(0);
    // The lane scrolls instead, down to the last card's button.
    const lastButton = open
      .getByLabel(/^Ticket de /)
      .last()
      .getByRole("button", { name: "Ver ticket" });
    await expect(lastButton).not.toBeInViewport();
    await lastButton.scrollIntoViewIfNeeded();
    await expect(lastButton).toBeInViewport({ ratio: 1 });
    await expect(open.getByRole("heading", { name: "Em aberto" })).toBeInViewport();
    await shot(page, "kanban-full-lane");
    await admin.context.close();
  });

  test("the tags page catches up on what changed while its live channel was away", async ({ browser }) => {
    const stamp = Date.now();
    const admin = await newPerson(browser);
    await watchLiveChannel(admin.context);
    const page = admin.page;
    await loginAs(page, DEMO.admin.email, DEMO.admin.password);
    const old = await callApi<{ id: number }>(page, "POST", "/tags", {
      name: `Antiga ${stamp}`,
      color: "#1E88E5",
    });
    await page.goto("/tags");
    const row = (name: string) => page.getByRole("row").filter({ hasText: name });
    await expect(row(`Antiga ${stamp}`)).toBeVisible();

    // The tags change (through the API) while this page's connection is down.
    await dropLiveChannel(page);
    // Both answered, so both events went out while nobody was listening.
    await callApi(page, "POST", "/tags", { name: `Nova ${stamp}`, color: "#F4511E" });
    await callApi(page, "DELETE", `/tags/${old.id}`);
    await expect(row(`Nova ${stamp}`)).toHaveCount(0);
    await expect(row(`Antiga ${stamp}`)).toBeVisible();

    await restoreLiveChannel(page);
    await expect(row(`Nova ${stamp}`)).toBeVisible({ timeout: 15_000 });
    await expect(row(`Antiga ${stamp}`)).toHaveCount(0);
    await admin.context.close();
  });

  test("with the keyboard, a card reaches a lane past the visible part of the board and comes back", async ({
    browser,
  }) => {
    const admin = await newPerson(browser);
    const page = admin.page;
    // Narrow: two lanes show, the board scrolls sideways for the rest.
    await page.setViewportSize({ width: 900, height: 700 });
    await loginAs(page, DEMO.admin.email, DEMO.admin.password);
    const whatsappId = await vendasConnection(page);
    const stamp = Date.now() % 100000;
    for (const step of ["Separação", "Transporte", "Entregue"])
      await callApi(page, "POST", "/tags", { name: `${step} ${stamp}`, color: "#1E88E5", kanban: 1 });
    const customer = `Cliente Rolagem ${stamp}`;
    await callApi(page, "POST", `/simulator/${whatsappId}/messages`, {
      from: `55118${String(Date.now() % 100_000_000).padStart(8, "0")}`,
      name: customer,
      body: "Cadê meu pedido?",
    });

    await page.goto("/kanban");
    const open = lane(page, "Em aberto");
    await expect(open.getByLabel(`Ticket de ${customer}`)).toBeVisible();
    const names = await page
      .getByRole("region", { name: /^Coluna / })
      .evaluateAll((lanes) =>
        lanes.map((l) => /^Coluna (.*), \d+ ticket/.exec(l.getAttribute("aria-label") ?? "")?.[1] ?? ""),
      );
    const last = names[names.length - 1]!;
    expect(names.length).toBeGreaterThanOrEqual(4);
    await expect(lane(page, last)).not.toBeInViewport();

    // The arrows go one lane at a time, scrolling the board as the card passes its edge.
    await moveByKeyboard(page, open.getByLabel(`Ticket de ${customer}`), customer, "Em aberto", last);
    await expect(page.getByText("Ticket Tag Adicionado com Sucesso!")).toBeVisible();
    await expect(lane(page, last).getByLabel(`Ticket de ${customer}`)).toBeInViewport();
    await expect(open.getByLabel(`Ticket de ${customer}`)).toHaveCount(0);
    await shot(page, "kanban-keyboard-scrolled");

    // And all the way back to 'Em aberto', now out of sight on the left.
    await expect(open).not.toBeInViewport();
    await moveByKeyboard(
      page,
      lane(page, last).getByLabel(`Ticket de ${customer}`),
      customer,
      last,
      "Em aberto",
    );
    await expect(open.getByLabel(`Ticket de ${customer}`)).toBeInViewport();
    await expect(lane(page, last).getByLabel(`Ticket de ${customer}`)).toHaveCount(0);
    // Stored: a reload finds it there.
    await page.reload();
    await expect(lane(page, "Em aberto").getByLabel(`Ticket de ${customer}`)).toBeVisible();
    await admin.context.close();
  });
});
