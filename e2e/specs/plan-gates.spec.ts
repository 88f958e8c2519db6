import { type Page, expect } from "@playwright/test";
import { DEMO, callApi, loginAs, newPerson, shot, test } from "./helpers";

interface Plan {
  id: number;
  name: string;
  useKanban: boolean;
}
interface Company {
  id: number;
  plan: { id: number | null };
}

const SUPER = { email: "super@atende.demo", password: "Super123" };
const MESSAGE = "Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.";

async function setKanban(superPage: Page, planId: number, useKanban: boolean) {
  await callApi<Plan>(superPage, "PUT", `/plans/${planId}`, { useKanban });
}

/**
 * A company whose plan lacks kanban: its admin does not see Kanban in the menu, opening /kanban
 * shows the spec's message and lands on / a second later, and the server refuses the board's call.
 * The demo company's plan loses kanban for this test only (the super user gives it back).
 */
test("an admin whose plan lacks kanban is sent from /kanban to /", async ({ browser }) => {
  const operator = await newPerson(browser);
  await loginAs(operator.page, SUPER.email, SUPER.password);
  // The demo company's plan, as the super user reads it.
  const demo = await newPerson(browser);
  await loginAs(demo.page, DEMO.admin.email, DEMO.admin.password);
  const companyId = Number(await demo.page.evaluate(() => localStorage.getItem("companyId")));
  await demo.context.close();
  const planId = (await callApi<Company>(operator.page, "GET", `/companies/listPlan/${companyId}`)).plan.id!;
  await setKanban(operator.page, planId, false);
  const admin = await newPerson(browser);
  try {
    // The plan comes with the session: the admin logs in on the plan as it is now.
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    const menu = admin.page.getByRole("navigation", { name: "menu" });
    await expect(menu.getByRole("link", { name: "Tags" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "Kanban" })).toHaveCount(0);

    await admin.page.goto("/kanban");
    await expect(admin.page.getByText(MESSAGE)).toBeVisible();
    await shot(admin.page, "plan-gates-kanban-refused");
    await expect(admin.page).toHaveURL(/\/$/, { timeout: 5_000 });
    await expect(admin.page.getByRole("heading", { name: "Kanban" })).toHaveCount(0);

    // The server says the same to a direct call.
    await expect(callApi(admin.page, "GET", "/ticket/kanban")).rejects.toThrow(
      /403.*ERR_PLAN_FEATURE_DISABLED/,
    );
  } finally {
    await setKanban(operator.page, planId, true);
    await operator.context.close();
    await admin.context.close();
  }
});
