import {
  type CompanySignupAnswer,
  type InvoicesPage,
  type PublicPlanDTO,
  formatDateBR,
  todayInZone,
} from "@atende/contracts";
import { type Page, expect } from "@playwright/test";
import { startFakeAsaas } from "./fakeAsaas";
import { callApi, loginAs, newPerson, shot, test } from "./helpers";

const SUPER = { email: "super@atende.demo", password: "Super123" };
const SETTING_SAVED = "Operação atualizada com sucesso.";
/** The fake Asaas listens where playwright.config.ts points the server (ASAAS_API_URL). */
const FAKE_ASAAS_PORT = Number(process.env.E2E_PORT ?? 8190) + 1000;
const ASAAS_KEY = "$aact_e2e_fake_key";
const WEBHOOK_TOKEN = "e2e-webhook-token-7f3a";

/** A setting text field of the Options tab: typed, then left, which saves it. */
async function saveField(page: Page, label: string, value: string) {
  const field = page.getByLabel(label, { exact: true });
  await field.fill(value);
  await field.blur();
  await expect(page.getByText(SETTING_SAVED).first()).toBeVisible();
}

/** A company signed up for a trial through the sign-up API (the sign-up page has its own spec). */
async function signUpCompany(su: Page, name: string, email: string) {
  await callApi(su, "PUT", "/settings/allowregister", { key: "allowregister", value: "enabled" });
  const plans = await callApi<PublicPlanDTO[]>(su, "GET", "/plans/list");
  const plan = plans.find((p) => p.value > 0) ?? plans[0]!;
  const company = await callApi<CompanySignupAnswer>(su, "POST", "/companies/cadastro", {
    name,
    email,
    phone: "11987654321",
    password: "Loja12345",
    planId: plan.id,
  });
  return { plan, company };
}

test("an admin in trial subscribes: Dados, Personalizar, Revisar, the Pix QR; the gateway confirms, the licence is renewed and the app goes to /", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const asaas = await startFakeAsaas(FAKE_ASAAS_PORT, ASAAS_KEY);
  try {
    const suffix = Date.now() % 100000;

    // The super user chooses Asaas in Settings (Options, Pagamentos) with its key and webhook token.
    const su = await newPerson(browser);
    await loginAs(su.page, SUPER.email, SUPER.password);
    await su.page.goto("/settings");
    await su.page.getByRole("combobox", { name: "Forma de cobrança" }).click();
    await su.page.getByRole("option", { name: "Asaas" }).click();
    await expect(su.page.getByText(SETTING_SAVED).first()).toBeVisible();
    await saveField(su.page, "Token do ASAAS", ASAAS_KEY);
    await saveField(su.page, "Token do webhook Asaas", WEBHOOK_TOKEN);
    await shot(su.page, "billing-1-settings");

    // A company signs up for a trial.
    const email = `assina-${suffix}@cliente.test`;
    const { plan } = await signUpCompany(su.page, `Loja Assina ${suffix}`, email);

    // Its admin, in trial, opens /subscription: the days left, the billing e-mail, 'Assine Agora!'.
    const admin = await newPerson(browser);
    await loginAs(admin.page, email, "Loja12345");
    await expect(admin.page.getByTestId("trial-chip")).toBeVisible();
    await admin.page
      .getByRole("navigation", { name: "menu" })
      .getByRole("link", { name: "Financeiro" })
      .click();
    await expect(admin.page).toHaveURL(/\/financeiro$/);
    await admin.page.getByRole("button", { name: "Assinatura" }).click();
    await expect(admin.page).toHaveURL(/\/subscription$/);
    await expect(admin.page.getByTestId("subscription-trial")).toContainText(
      "Seu período de teste termina em 3 dias",
    );
    await expect(admin.page.getByTestId("subscription-email")).toHaveText(email);
    const dueBefore = (await admin.page.getByTestId("subscription-due-date").textContent()) ?? "";
    await shot(admin.page, "billing-2-subscription");
    await admin.page.getByRole("button", { name: "Assine Agora!" }).click();

    // Dados: the spec's required messages, then a CPF refused by its check digits.
    const dialog = admin.page.getByRole("dialog", { name: "Falta pouco!" });
    await expect(dialog.getByText("Dados")).toBeVisible();
    await dialog.getByLabel("Nome completo").fill("");
    await dialog.getByRole("button", { name: "PRÓXIMO" }).click();
    await expect(dialog.getByText("O nome completo e obrigatorio")).toBeVisible();
    await expect(dialog.getByText("O Endereco e obrigatorio")).toBeVisible();
    await expect(dialog.getByText("Cidade e obrigatoria")).toBeVisible();
    await expect(dialog.getByText("CEP e obrigatorio")).toBeVisible();
    await dialog.getByLabel("Nome completo").fill("Maria Assinante");
    await dialog.getByLabel("CPF ou CNPJ").fill("12345678900");
    await expect(dialog.getByLabel("CPF ou CNPJ")).toHaveValue("123.456.789-00");
    await dialog.getByLabel("Endereço").fill("Rua das Flores, 100");
    await dialog.getByLabel("Cidade").fill("São Paulo");
    await dialog.getByLabel("CEP").fill("01310-100");
    await dialog.getByRole("button", { name: "PRÓXIMO" }).click();
    await expect(dialog.getByText("CPF ou CNPJ inválido")).toBeVisible();
    await shot(admin.page, "billing-3-dados-errors");
    await dialog.getByLabel("CPF ou CNPJ").fill("52998224725");
    await expect(dialog.getByRole("combobox", { name: "País" })).toHaveText("Brasil");
    await dialog.getByRole("button", { name: "PRÓXIMO" }).click();

    // Personalizar: the plan, its price per month. Revisar: price, users, connections, total.
    await expect(dialog.getByTestId(`checkout-plan-${plan.id}`)).toContainText(plan.name);
    await shot(admin.page, "billing-4-personalizar");
    await dialog.getByRole("button", { name: "PRÓXIMO" }).click();
    const review = dialog.getByTestId("checkout-review");
    await expect(review).toContainText("Resumo da assinatura");
    await expect(review).toContainText(plan.name);
    await expect(review).toContainText("Maria Assinante");
    await expect(review).toContainText("529.982.247-25");
    await shot(admin.page, "billing-5-revisar");

    // PAGAR: the Pix screen with the QR code, the copy-and-paste code, the amount and the expiry.
    await dialog.getByRole("button", { name: "PAGAR" }).click();
    await expect(
      admin.page.getByText("Assinatura realizada com sucesso!, aguardando a realizacao do pagamento."),
    ).toBeVisible();
    const pix = dialog.getByTestId("pix-payment");
    await expect(pix.getByTestId("pix-qrcode")).toBeVisible();
    expect(asaas.payments).toHaveLength(1);
    const payment = asaas.payments[0]!;
    await expect(pix.getByLabel("Pix copia e cola")).toHaveValue(payment.payload);
    const amount = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" }).format(
      payment.value,
    );
    await expect(pix.getByTestId("pix-amount")).toHaveText(amount);
    await expect(pix.getByTestId("pix-expiry")).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    await shot(admin.page, "billing-6-pix");

    // The open invoice it pays shows in /financeiro for the super user, with the company's name.
    const invoices = await callApi<InvoicesPage>(
      su.page,
      "GET",
      `/invoices?searchParam=${encodeURIComponent(`Loja Assina ${suffix}`)}`,
    );
    expect(invoices.invoices.map((i) => i.status)).toEqual(["open"]);

    // The payer pays; Asaas tells the server (PAYMENT_RECEIVED): the toast with the new due date,
    // the trial chip gone, and / after 4 s, without a reload.
    await admin.page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    expect(await asaas.receive(payment.id, `${baseURL}/webhooks/asaas`, WEBHOOK_TOKEN)).toBe(200);
    const renewed = admin.page.getByText(/^Sua licença foi renovada até \d{2}\/\d{2}\/\d{4}!$/);
    await expect(renewed).toBeVisible();
    await shot(admin.page, "billing-7-renewed");
    const renewedText = (await renewed.textContent()) ?? "";
    expect(renewedText).not.toContain(dueBefore);
    await expect(admin.page.getByTestId("trial-chip")).toBeHidden();
    await expect(admin.page).toHaveURL(/\/$/, { timeout: 8_000 });
    expect(await admin.page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(
      true,
    );
    await shot(admin.page, "billing-8-home");

    // /financeiro now shows the invoice paid: 'Pago' and PAGO, no PAGAR.
    await admin.page.goto("/financeiro");
    const row = admin.page.getByTestId("invoices-table").locator("tbody tr").first();
    await expect(row).toContainText("Pago");
    await expect(row.getByRole("button", { name: "PAGO" })).toBeDisabled();
    await expect(row.getByRole("button", { name: /Pagar a fatura/ })).toHaveCount(0);
    await shot(admin.page, "billing-9-financeiro-paid");
  } finally {
    await asaas.close();
  }
});

test("a past-due admin reaches only the payment pages, pays by Pix key, the super user confirms in /financeiro and everything opens again", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const suffix = Date.now() % 100000;
  const name = `Loja Vencida ${suffix}`;
  const email = `vencida-${suffix}@cliente.test`;

  // The super user switches payments to a plain Pix key, confirmed by hand.
  const su = await newPerson(browser);
  await loginAs(su.page, SUPER.email, SUPER.password);
  await su.page.goto("/settings");
  await su.page.getByRole("combobox", { name: "Forma de cobrança" }).click();
  await su.page.getByRole("option", { name: "Chave Pix (confirmação manual)" }).click();
  await expect(su.page.getByText(SETTING_SAVED).first()).toBeVisible();
  await saveField(su.page, "Chave Pix", "financeiro@atende.test");
  await saveField(su.page, "Nome do recebedor Pix", "Atende Plataforma");
  await saveField(su.page, "Cidade do recebedor Pix", "Sao Paulo");

  // A company whose due date passed yesterday.
  const { company } = await signUpCompany(su.page, name, email);
  const yesterday = todayInZone(new Date(Date.now() - 86_400_000));
  await callApi(su.page, "PUT", `/companies/${company.id}`, { dueDate: yesterday });

  // Its admin logs in to /financeiro with the spec's message; every other page sends them back.
  const admin = await newPerson(browser);
  await loginAs(admin.page, email, "Loja12345");
  await expect(admin.page).toHaveURL(/\/financeiro$/);
  await expect(admin.page.getByTestId("past-due-notice")).toContainText(
    `Opss! Sua assinatura venceu ${formatDateBR(yesterday)}.`,
  );
  // Its trial's days do not count any more: the due date passed.
  await expect(admin.page.getByTestId("trial-chip")).toBeHidden();
  const menu = admin.page.getByRole("navigation", { name: "menu" });
  await expect(menu.getByRole("link")).toHaveText(["Financeiro", "Assinatura"]);
  await admin.page.goto("/tickets");
  await expect(admin.page).toHaveURL(/\/financeiro$/);
  await shot(admin.page, "billing-10-past-due");

  // The checkout (no CPF asked by a plain Pix key) gives the Pix code of the open invoice.
  await menu.getByRole("link", { name: "Assinatura" }).click();
  await expect(admin.page.getByTestId("past-due-notice")).toBeVisible();
  // On a phone: the checkout fills the screen and nothing overflows.
  await admin.page.setViewportSize({ width: 390, height: 844 });
  await admin.page.getByRole("button", { name: "Assine Agora!" }).click();
  const dialog = admin.page.getByRole("dialog", { name: "Falta pouco!" });
  await expect(dialog.getByLabel("CPF ou CNPJ")).toHaveCount(0);
  await dialog.getByLabel("Endereço").fill("Av. Paulista, 1000");
  await dialog.getByLabel("Cidade").fill("São Paulo");
  await dialog.getByLabel("CEP").fill("01310-100");
  await dialog.getByRole("button", { name: "PRÓXIMO" }).click();
  await dialog.getByRole("button", { name: "PRÓXIMO" }).click();
  await dialog.getByRole("button", { name: "PAGAR" }).click();
  const code = dialog.getByLabel("Pix copia e cola");
  await expect(code).toHaveValue(/^000201.*br\.gov\.bcb\.pix.*financeiro@atende\.test.*6304[0-9A-F]{4}$/);
  await expect(dialog.getByTestId("pix-qrcode")).toBeVisible();
  await shot(admin.page, "billing-11-pix-key");
  expect(await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await admin.page.setViewportSize({ width: 1280, height: 720 });

  // The super user sees it in /financeiro with the company's name and confirms it by hand.
  await su.page.goto("/financeiro");
  await su.page.getByRole("searchbox", { name: "Pesquisar" }).fill(name);
  const row = su.page.getByTestId("invoices-table").locator("tbody tr", { hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute("data-status", "overdue");
  await shot(su.page, "billing-12-super-invoices");
  await row.getByRole("button", { name: /Marcar como paga/ }).click();
  await su.page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
  await expect(su.page.getByText("Pagamento confirmado.")).toBeVisible();
  await expect(row).toHaveAttribute("data-status", "paid");

  // The admin hears it: the licence renewed, / after 4 s, and the whole menu back.
  await expect(admin.page.getByText(/^Sua licença foi renovada até \d{2}\/\d{2}\/\d{4}!$/)).toBeVisible();
  await expect(admin.page).toHaveURL(/\/$/, { timeout: 8_000 });
  await expect(menu.getByRole("link", { name: "Atendimentos" })).toBeVisible();
  await admin.page.goto("/tickets");
  await expect(admin.page).toHaveURL(/\/tickets$/);
  await expect(admin.page.getByRole("tab", { name: /^Atendendo/ })).toBeVisible();
  await shot(admin.page, "billing-13-open-again");
});
