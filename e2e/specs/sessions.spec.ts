import { type Page, type WebSocket, expect, test } from "@playwright/test";
import { DEMO, callApi, loginAs, newPerson } from "./helpers";

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
});
