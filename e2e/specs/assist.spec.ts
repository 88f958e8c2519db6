import AxeBuilder from "@axe-core/playwright";
import { type Page, expect } from "@playwright/test";
import { type OpenAiFake, startOpenAiFake } from "../../server/src/test/fakes/ai";
import { type Queue, callApi, customerWaiting } from "./chatSetup";
import { shot, test } from "./helpers";

/**
 * AI help in the composer: with a prompt for the company, the agent asks for a suggested reply from
 * the fake OpenAI-compatible API (the server is pointed at it, playwright.config.ts), edits it and
 * sends it; the customer's phone receives the edited text. The prompt is removed afterwards, so the
 * other specs see a company without AI help.
 */

const port = Number(process.env.E2E_PORT ?? 8190);
const KEY = "sk-e2e-assist-0001";
const SUGGESTION = "Olá! Já encontrei o seu pedido e posso trocar o tamanho hoje mesmo.";

let ai: OpenAiFake;

/** axe's WCAG 2.1 A/AA rules on one part of the page (the a11y spec's run sees no AI help: no prompt). */
async function expectAccessible(page: Page, scope: string) {
  const { violations } = await new AxeBuilder({ page })
    .options({ resultTypes: ["violations"] })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .include(scope)
    .analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(" | ")}`)).toEqual([]);
}

test.beforeAll(async () => {
  ai = await startOpenAiFake({ port: port + 1200, apiKey: KEY, answer: () => ({ content: SUGGESTION }) });
});
test.afterAll(async () => {
  await ai?.close();
});

test("an agent asks for a suggested reply, edits it and sends it; the customer receives the edited text", async ({
  browser,
}) => {
  const stamp = Date.now();
  const number = `55119${String(stamp).slice(-8)}`;
  const { admin, whatsappId, ticket } = await customerWaiting(browser, {
    name: `Marta ${stamp}`,
    number,
    body: "Quero trocar o tamanho do meu pedido",
  });
  const page = admin.page;
  const vendas = (await callApi<Queue[]>(page, "GET", "/queue")).find((q) => q.name === "Vendas")!;
  const prompt = await callApi<{ id: number }>(page, "POST", "/prompt", {
    name: `Assistente e2e ${stamp}`,
    prompt: "Você atende a Loja Demo com cordialidade.",
    apiKey: KEY,
    queueId: vendas.id,
  });
  try {
    // Inside the app already: a client-side move, not a reload of the whole app.
    await page.evaluate((to) => {
      window.history.pushState({}, "", to);
      window.dispatchEvent(new PopStateEvent("popstate"));
    }, `/tickets/${ticket.uuid}`);
    await page.getByRole("button", { name: "Aceitar" }).first().click();
    const box = page.getByRole("textbox", { name: "Mensagem" });
    await expect(box).toBeEditable();

    await page.getByRole("button", { name: "Ajuda da IA" }).click();
    // With nothing typed, the rephrasings wait for text.
    await expect(page.getByRole("menuitem", { name: /Reescrever mais curto/ })).toBeDisabled();
    await page.getByRole("menuitem", { name: "Sugerir resposta" }).click();
    await expect(box).toHaveValue(SUGGESTION);
    await expect(page.getByText("Texto da IA: revise antes de enviar.")).toBeVisible();
    // Only this conversation went to the provider, with the company's key.
    const asked = ai.chats().at(-1)!;
    expect(asked.messages[1]!.content).toContain("Cliente: Quero trocar o tamanho do meu pedido");
    // The composer with the AI menu and the Undo bar (the a11y spec's company has no prompt).
    await expectAccessible(page, "footer");
    await shot(page, "assist-suggestion");

    const edited = `${SUGGESTION} Qual tamanho você prefere?`;
    await box.fill(edited);
    await box.press("Enter");
    await expect(box).toHaveValue("");
    await expect
      .poll(async () => {
        const got = await callApi<{ body: string }[]>(
          page,
          "GET",
          `/simulator/${whatsappId}/messages?number=${number}`,
        );
        return got.some((m) => m.body.includes(edited));
      })
      .toBe(true);
  } finally {
    await callApi(page, "DELETE", `/prompt/${prompt.id}`);
  }
});
