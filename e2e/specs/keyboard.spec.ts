import { type Locator, type Page, expect } from "@playwright/test";
import { DEMO, newPerson, test } from "./helpers";
import { customerSends, vendasConnection, waitingTicketOf } from "./chatSetup";

/**
 * The tickets screen with the keyboard alone (issue 24): no click, no hover, no focus() call; only
 * Tab, Shift+Tab, Enter, Space, Escape, the arrows and typing. Each control reached shows its focus.
 */

/** True when the element with the focus is `target`. */
function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate((el) => el === document.activeElement).catch(() => false);
}

/** What has the focus, for a failure message. */
function focusedDescription(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el) return "nothing";
    const name = el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 40) ?? "";
    return `<${el.tagName.toLowerCase()} role=${el.getAttribute("role")}> ${name}`;
  });
}

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus, and checks the focus can be seen: an
 * outline, a focus ring or MUI's focus-visible/focused look on it or on its field.
 */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  await expect(target).toBeVisible();
  for (let presses = 0; !(await isFocused(target)); presses++) {
    if (presses === max)
      throw new Error(`${max} presses of ${back ? "Shift+Tab" : "Tab"} never reached ${target.toString()}`);
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  await expectVisibleFocus(page);
}

async function expectVisibleFocus(page: Page) {
  const shown = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || !el.matches(":focus-visible")) return false;
    const drawn = (node: Element) => {
      const style = getComputedStyle(node);
      return (
        (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== "none"
      );
    };
    const muiFocus = (node: Element | null) =>
      node !== null &&
      (node.classList.contains("Mui-focusVisible") || node.classList.contains("Mui-focused"));
    return (
      drawn(el) || muiFocus(el) || muiFocus(el.parentElement) || muiFocus(el.closest(".MuiInputBase-root"))
    );
  });
  expect(shown, `the focus on ${await focusedDescription(page)} is visible`).toBe(true);
}

test("the ticket flow with the keyboard only: open, accept, send, reply, react, transfer, resolve", async ({
  browser,
}) => {
  // Each key press is a round trip to the browser: on a loaded machine the flow takes a while.
  test.setTimeout(300_000);
  const stamp = Date.now();
  const customer = `Teclado ${stamp}`;
  const number = `55116${String(stamp).slice(-8)}`;

  // The customer writes to Vendas (Ana's queue), through the simulator's API.
  const admin = await newPerson(browser);
  await admin.page.goto("/login");
  await admin.page.getByLabel("Email").fill(DEMO.admin.email);
  await admin.page.getByRole("textbox", { name: "Senha", exact: true }).fill(DEMO.admin.password);
  await admin.page.getByRole("textbox", { name: "Senha", exact: true }).press("Enter");
  await expect(admin.page.getByRole("navigation", { name: "menu" })).toBeVisible();
  const whatsappId = await vendasConnection(admin.page);
  await customerSends(admin.page, whatsappId, { from: number, name: customer, body: "Preciso de ajuda" });
  await waitingTicketOf(admin.page, number);
  // A second customer, whose ticket Ana transfers at the end.
  const other = `Teclado B ${stamp}`;
  const otherNumber = `55115${String(stamp).slice(-8)}`;
  await customerSends(admin.page, whatsappId, { from: otherNumber, name: other, body: "Oi" });
  await waitingTicketOf(admin.page, otherNumber);

  // Ana logs in from the keyboard.
  const { page } = await newPerson(browser);
  const keys = page.keyboard;
  await page.goto("/login");
  await tabTo(page, page.getByLabel("Email"));
  await keys.type(DEMO.ana.email);
  await tabTo(page, page.getByRole("textbox", { name: "Senha", exact: true }));
  await keys.type(DEMO.ana.password);
  await keys.press("Enter");
  await expect(page).toHaveURL(/\/tickets$/);

  // The Waiting tab (the arrows move along the tabs, Enter picks one), then Accept on the ticket:
  // it opens in the chat.
  const waitingTab = page.getByRole("tab", { name: /Aguardando/ });
  await pickTab(page, page.getByRole("tablist", { name: "Abertas" }), waitingTab);
  const acceptInList = page.getByRole("button", { name: `Aceitar: ${customer}` });
  await tabTo(page, acceptInList);
  await keys.press("Enter");
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  const ticketUrl = page.url();
  const box = page.getByRole("textbox", { name: "Mensagem" });
  await expect(box).toBeVisible();

  // Send: Enter in the message box.
  await tabTo(page, box);
  await keys.type("Olá! Vou verificar.");
  await keys.press("Enter");
  const chat = page.getByRole("log");
  const sent = chat.getByRole("article").filter({ hasText: "Olá! Vou verificar." });
  await expect(sent).toBeVisible();
  await expect(box).toHaveValue("");

  // Reply: back from the box to the customer's message, its options menu, Reply.
  // The customer's message (the first row with its text: the reply quotes it further down).
  const question = chat.locator("[data-message-id]").filter({ hasText: "Preciso de ajuda" }).first();
  await tabTo(page, question.getByRole("button", { name: "Opções da mensagem" }), { back: true });
  await keys.press("Enter");
  const menu = page.getByRole("menu");
  await expect(menu).toBeVisible();
  await keyTo(page, menu.getByRole("menuitem", { name: "Responder" }), "ArrowDown");
  await keys.press("Enter");
  await expect(page.getByText(`Respondendo a ${customer}`)).toBeVisible();
  await tabTo(page, box);
  await keys.type("Qual o número do pedido?");
  await keys.press("Enter");
  const reply = chat.getByRole("article").filter({ hasText: "Qual o número do pedido?" });
  await expect(reply.getByRole("button", { name: "Ir para a mensagem respondida" })).toContainText(
    "Preciso de ajuda",
  );

  // React: the options menu again, React, then a quick emoji.
  await tabTo(page, question.getByRole("button", { name: "Opções da mensagem" }), { back: true });
  await keys.press("Enter");
  await keyTo(page, menu.getByRole("menuitem", { name: "Reagir" }), "ArrowDown");
  await keys.press("Enter");
  const thumbs = page.getByRole("button", { name: "Reagir com 👍" });
  await expect(thumbs).toBeVisible();
  await tabTo(page, thumbs, { max: 10 });
  await keys.press("Enter");
  await expect(
    chat
      .getByRole("article")
      .filter({ hasText: "Preciso de ajuda" })
      .first()
      .getByRole("button", { name: "Reações: 👍" }),
  ).toBeVisible();

  // Resolve, from the chat's header.
  await tabTo(page, page.getByRole("button", { name: "Resolver", exact: true }).first(), { back: true });
  await keys.press("Enter");
  await expect(page.getByText("Atendimento resolvido.")).toBeVisible();

  // Open it again from the Resolved tab.
  const mainTabs = page.getByRole("tablist").filter({ has: page.getByRole("tab", { name: "Resolvidos" }) });
  await pickTab(page, mainTabs, page.getByRole("tab", { name: "Resolvidos" }));
  await tabTo(page, page.getByRole("listitem").filter({ hasText: customer }).getByRole("button").first());
  await keys.press("Enter");
  await expect(page).toHaveURL(ticketUrl);
  await expect(page.getByRole("log").getByText("Preciso de ajuda").first()).toBeVisible();

  // The second customer: accepted from the Waiting tab, then transferred to Vendas with no agent.
  await pickTab(page, mainTabs, page.getByRole("tab", { name: "Abertas" }));
  await pickTab(page, page.getByRole("tablist", { name: "Abertas" }), waitingTab);
  await tabTo(page, page.getByRole("button", { name: `Aceitar: ${other}` }));
  await keys.press("Enter");
  await expect(page).not.toHaveURL(ticketUrl);
  await expect(page.getByRole("log").getByText("Oi", { exact: true })).toBeVisible();
  await tabTo(page, page.getByRole("button", { name: "Transferir" }).first());
  await keys.press("Enter");
  const transfer = page.getByRole("dialog", { name: "Transferir atendimento" });
  await expect(transfer).toBeVisible();
  const queue = transfer.getByRole("combobox", { name: "Fila" });
  await tabTo(page, queue);
  await keys.press("ArrowDown");
  await keyTo(page, page.getByRole("option", { name: "Vendas" }), "ArrowDown");
  await keys.press("Enter");
  await expect(queue).toHaveText(/Vendas/);
  const connection = transfer.getByRole("combobox", { name: "Conexão" });
  if (!/\w/.test((await connection.textContent()) ?? "")) {
    await tabTo(page, connection);
    await keys.press("ArrowDown");
    await keys.press("Enter");
  }
  await tabTo(page, transfer.getByRole("button", { name: "Transferir" }));
  await keys.press("Enter");
  await expect(transfer).toBeHidden();
  await expect(page).toHaveURL(/\/tickets$/);
  await admin.context.close();
});

/**
 * Picks a tab as the keyboard does: Tab reaches the tab list's selected tab (the others are out of
 * the Tab order), the arrows move along the tabs, Enter picks one.
 */
async function pickTab(page: Page, tablist: Locator, tab: Locator) {
  await tabTo(page, tablist.getByRole("tab", { selected: true }), { max: 120 });
  for (let presses = 0; !(await isFocused(tab)); presses++) {
    if (presses === 5) throw new Error(`the arrows never reached ${tab.toString()}`);
    await page.keyboard.press("ArrowRight");
  }
  await expectVisibleFocus(page);
  await page.keyboard.press("Enter");
  await expect(tab).toHaveAttribute("aria-selected", "true");
}

/** Presses an arrow key until `target` has the focus (menus and list boxes move the focus with arrows). */
async function keyTo(page: Page, target: Locator, key: "ArrowDown" | "ArrowUp", max = 15) {
  await expect(target).toBeVisible();
  for (let presses = 0; !(await isFocused(target)); presses++) {
    if (presses === max) throw new Error(`${max} presses of ${key} never reached ${target.toString()}`);
    await page.keyboard.press(key);
  }
  await expectVisibleFocus(page);
}
