import { type Page, type WebSocket, expect } from "@playwright/test";
import { DEMO, callApi, loginAs, newPerson, test } from "./helpers";

/** What one page's live channel does: the frames it receives and whether it closed. */
function watchSockets(page: Page) {
  const seen = { frames: [] as string[], open: 0, sockets: [] as WebSocket[] };
  page.on("websocket", (ws) => {
    seen.sockets.push(ws);
    seen.open++;
    ws.on("framereceived", (frame) => {
      if (typeof frame.payload === "string") seen.frames.push(frame.payload);
    });
    ws.on("close", () => seen.open--);
  });
  return seen;
}

test.describe("sessions", () => {
  test("after a logout in one tab, the other tab of that session is cut off the live channel", async ({
    browser,
  }) => {
    const ana = await newPerson(browser);
    const first = ana.page;
    await loginAs(first, DEMO.ana.email, DEMO.ana.password);
    // A second tab of the same browser: the same session (token and refresh cookie).
    const second = await ana.context.newPage();
    const live = watchSockets(second);
    await second.goto("/tickets");
    await expect(second.getByRole("navigation", { name: "menu" })).toBeVisible();
    await expect.poll(() => live.open).toBe(1);

    const admin = await newPerson(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    const companyId = (await callApi<{ companyId: number }>(admin.page, "GET", "/auth/me")).companyId;
    // The second tab hears the company's events while the session lives.
    await callApi(admin.page, "POST", "/contacts", { name: "Before Logout", number: "5511987650001" });
    await expect.poll(() => live.frames.some((f) => f.includes("Before Logout"))).toBe(true);

    await first.getByRole("button", { name: "Sair" }).click();
    await expect(first).toHaveURL(/\/login/);
    // Within a second or two the server closes the second tab's socket; it hears nothing more.
    await expect.poll(() => live.open, { timeout: 3_000 }).toBe(0);
    await callApi(admin.page, "POST", "/contacts", { name: "After Logout", number: "5511987650002" });
    await first.waitForTimeout(1_000);
    expect(live.frames.some((f) => f.includes("After Logout"))).toBe(false);
    expect(live.frames.some((f) => f.includes(`company-${companyId}-contact`))).toBe(true);

    await ana.context.close();
    await admin.context.close();
  });

  test("changing one's own password in the profile dialog asks for the current one and keeps the session", async ({
    browser,
  }) => {
    const admin = await newPerson(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    const email = `perfil.${Date.now()}@atende.demo`;
    await callApi(admin.page, "POST", "/users", { name: "Perfil Teste", email, password: "Antiga123" });

    const me = await newPerson(browser);
    const page = me.page;
    await loginAs(page, email, "Antiga123");
    await page.getByRole("button", { name: "Conta" }).click();
    await page.getByRole("menuitem", { name: "Perfil" }).click();
    const dialog = page.getByRole("dialog", { name: "Meus dados" });
    await dialog.getByRole("textbox", { name: "Senha", exact: true }).fill("Nova12345");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(dialog.getByText("Informe a senha atual para trocar a senha.")).toBeVisible();

    await dialog.getByRole("textbox", { name: "Senha atual" }).fill("errada");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(dialog.getByText("A senha atual não confere.")).toBeVisible();
    // A wrong current password is not a lost session (400, not 401): the dialog stays, still logged in.
    await expect(dialog).toBeVisible();
    await expect(page).not.toHaveURL(/\/login/);

    await dialog.getByRole("textbox", { name: "Senha atual" }).fill("Antiga123");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(dialog).toBeHidden();
    // The session lives on with its fresh refresh cookie: a reload (which refreshes) stays in.
    await page.reload();
    await expect(page.getByRole("navigation", { name: "menu" })).toBeVisible();
    await expect(page).not.toHaveURL(/\/login/);

    await me.context.close();
    await admin.context.close();
  });
});
