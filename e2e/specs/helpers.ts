import { type Browser, type Page, expect } from "@playwright/test";

export const DEMO = {
  admin: { email: "admin@atende.demo", password: "Admin123" },
  ana: { email: "ana@atende.demo", password: "Agente123" },
};

/** Logs in through the login page as a person would, and waits for the app shell. */
export async function loginAs(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("textbox", { name: "Senha", exact: true }).fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByRole("navigation", { name: "menu" })).toBeVisible();
}

/** A fresh browser context: its own storage and cookies, like another computer. */
export async function newPerson(browser: Browser) {
  const context = await browser.newContext({ locale: "pt-BR" });
  return { context, page: await context.newPage() };
}

export function shot(page: Page, name: string) {
  return page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}
