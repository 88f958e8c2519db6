import { expect } from "@playwright/test";
import { DEMO, loginAs, newPerson, shot, test } from "./helpers";

const SUPER = { email: "super@atende.demo", password: "Super123" };
/** A 1×1 PNG: the attachment. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);

test("a super user posts a high-priority announcement; an agent sees it in the popover live, in red", async ({
  browser,
}) => {
  const agent = await newPerson(browser);
  await loginAs(agent.page, DEMO.ana.email, DEMO.ana.password);
  // Agents do not reach the super user's page: a toast, then back home.
  await agent.page.goto("/announcements");
  await expect(
    agent.page.getByText("Esta empresa não possui permissão para acessar essa página!"),
  ).toBeVisible();
  await expect(agent.page).not.toHaveURL(/\/announcements/);

  const root = await newPerson(browser);
  await loginAs(root.page, SUPER.email, SUPER.password);
  await root.page.goto("/announcements");
  await expect(root.page.getByRole("heading", { name: "Informativos" })).toBeVisible();
  await root.page.getByRole("button", { name: "Adicionar informativo" }).click();
  const dialog = root.page.getByRole("dialog", { name: "Novo informativo" });
  const title = `Manutenção programada ${Date.now()}`;
  await dialog.getByLabel("Título").fill(title);
  await dialog.getByLabel("Texto").fill("O sistema ficará fora do ar das 23h às 23h30.");
  await dialog.getByLabel("Prioridade").click();
  await root.page.getByRole("option", { name: "Alta" }).click();
  await dialog
    .getByLabel("Anexar imagem")
    .setInputFiles({ name: "aviso.png", mimeType: "image/png", buffer: PNG });
  await expect(dialog.getByText("aviso.png")).toBeVisible();
  await dialog.getByRole("button", { name: "Salvar" }).click();
  await expect(dialog).toBeHidden();
  const row = root.page.getByRole("row").filter({ hasText: title });
  await expect(row.getByText("Alta")).toBeVisible();
  await expect(row.getByText("Todas as empresas")).toBeVisible();
  await shot(root.page, "announcements-page");

  // The agent did not reload: the dot appears live, the popover shows it in red with its picture.
  const button = agent.page.getByRole("button", { name: "Informativos (há novidades)" });
  await expect(button).toBeVisible();
  await button.click();
  const popover = agent.page.getByRole("dialog", { name: "Informativos" });
  const item = popover.getByRole("listitem").filter({ hasText: title });
  await expect(item).toBeVisible();
  await expect(item).toHaveAttribute("data-priority", "1");
  await expect(item).toHaveCSS("border-left-color", "rgb(211, 47, 47)");
  await expect(item.getByRole("heading", { name: title })).toHaveCSS("color", "rgb(211, 47, 47)");
  await expect(item.getByRole("img", { name: "aviso.png" })).toBeVisible();
  await shot(agent.page, "announcements-popover");
  // Opened: the dot goes, and stays gone after a reload.
  await agent.page.keyboard.press("Escape");
  await expect(agent.page.getByRole("button", { name: "Informativos", exact: true })).toBeVisible();
  await agent.page.reload();
  await expect(agent.page.getByRole("button", { name: "Informativos", exact: true })).toBeVisible();

  await agent.context.close();
  await root.context.close();
});
