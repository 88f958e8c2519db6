import { type Page, expect } from "@playwright/test";
import { BRUNO, DEMO, loginAs, newPerson, shot, test } from "./helpers";

/** Counts the sounds the page starts through the Web Audio API (the notification chime). */
function countSounds() {
  const spied = window as unknown as { __sounds: number };
  spied.__sounds = 0;
  const start = AudioScheduledSourceNode.prototype.start;
  AudioScheduledSourceNode.prototype.start = function (this: AudioScheduledSourceNode, when?: number) {
    spied.__sounds += 1;
    return start.call(this, when);
  };
}
const soundsOf = (page: Page) => page.evaluate(() => (window as unknown as { __sounds: number }).__sounds);

const menuDot = (page: Page) => page.getByTestId("chats-menu-dot").locator(".MuiBadge-badge");

test("two colleagues chat: one creates a chat and writes, the other sees the dot, hears it, opens it and replies live", async ({
  browser,
}) => {
  // Two people logging in and working side by side on a shared two-core machine.
  test.setTimeout(120_000);
  const title = `Plantão ${Date.now()}`;
  const ana = await newPerson(browser);
  const bruno = await newPerson(browser);
  await bruno.context.addInitScript(countSounds);
  await loginAs(ana.page, DEMO.ana.email, DEMO.ana.password);
  await loginAs(bruno.page, BRUNO.email, BRUNO.password);
  await bruno.page.goto("/todolist");
  // A click, as a person makes: browsers let a page play sound only after one.
  await bruno.page.locator("main").click({ position: { x: 400, y: 300 } });
  await expect(menuDot(bruno.page)).toHaveClass(/MuiBadge-invisible/);

  // Ana creates the chat: the two alerts first, then with Bruno.
  await ana.page.goto("/chats");
  await ana.page.getByRole("button", { name: "Nova conversa" }).click();
  const dialog = ana.page.getByRole("dialog", { name: "Nova conversa" });
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(ana.page.getByText("Por favor, preencha o título da conversa.")).toBeVisible();
  await dialog.getByLabel("Título").fill(title);
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(ana.page.getByText("Por favor, selecione pelo menos um usuário.")).toBeVisible();
  await dialog.getByLabel("Usuários").click();
  await ana.page.getByRole("option", { name: "Bruno", exact: true }).click();
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
  await expect(ana.page).toHaveURL(/\/chats\/[0-9a-f-]{36}$/);

  // An empty message is not sent; Enter sends and the box keeps the focus.
  const box = ana.page.getByRole("textbox", { name: "Digite uma mensagem" });
  await box.fill("   ");
  await box.press("Enter");
  const log = ana.page.getByRole("log", { name: "Mensagens" });
  await expect(log.getByText("Nenhuma mensagem ainda. Diga olá!")).toBeVisible();
  await box.fill("Bruno, pode cobrir o plantão?");
  await box.press("Enter");
  await expect(log.getByText("Bruno, pode cobrir o plantão?")).toBeVisible();
  await expect(box).toBeFocused();
  await expect(box).toHaveValue("");
  await shot(ana.page, "internal-chat-sent");

  // Bruno, on another page: the dot on the menu entry, the count in the top bar, the chime.
  await expect(menuDot(bruno.page)).not.toHaveClass(/MuiBadge-invisible/);
  await expect(bruno.page.getByTestId("chat-unread-badge")).toContainText("1");
  await expect.poll(() => soundsOf(bruno.page)).toBeGreaterThan(0);
  await shot(bruno.page, "internal-chat-dot");
  await bruno.page.getByRole("button", { name: "Chat interno" }).click();
  const popover = bruno.page.getByRole("dialog", { name: "Chat interno" });
  await popover.getByText(title).click();
  await expect(bruno.page).toHaveURL(/\/chats\/[0-9a-f-]{36}$/);
  await expect(
    bruno.page.getByRole("log", { name: "Mensagens" }).getByText("Bruno, pode cobrir o plantão?"),
  ).toBeVisible();
  // Opening it read it: the dot goes.
  await expect(menuDot(bruno.page)).toHaveClass(/MuiBadge-invisible/);

  // Shift+Enter breaks the line; Enter sends the reply, which reaches Ana live.
  const reply = bruno.page.getByRole("textbox", { name: "Digite uma mensagem" });
  await reply.fill("Posso sim.");
  await reply.press("Shift+Enter");
  await reply.pressSequentially("Chego às 8h.");
  await reply.press("Enter");
  await expect(log.getByText(/Posso sim\.\s*Chego às 8h\./)).toBeVisible();
  await shot(bruno.page, "internal-chat-reply");
  await shot(ana.page, "internal-chat-reply-received");

  // Only the owner edits or deletes: Bruno has neither button.
  await expect(bruno.page.getByRole("button", { name: "Excluir conversa" })).toHaveCount(0);
  await expect(ana.page.getByRole("button", { name: "Excluir conversa" })).toBeVisible();

  // On a phone-sized screen: the two tabs, Chats and Mensagens.
  await ana.page.setViewportSize({ width: 390, height: 780 });
  await expect(ana.page.getByRole("tab", { name: "Mensagens" })).toHaveAttribute("aria-selected", "true");
  await ana.page.getByRole("tab", { name: "Chats" }).click();
  await expect(ana.page.getByText(title)).toBeVisible();
  await shot(ana.page, "internal-chat-narrow");

  await ana.context.close();
  await bruno.context.close();
});
