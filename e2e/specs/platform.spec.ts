import { type MailOutboxDTO, addMonthsToDate, formatDateBR, todayInZone } from "@atende/contracts";
import { type Page, expect } from "@playwright/test";
import { callApi, loginAs, newPerson, shot, typeDate, test } from "./helpers";

const SUPER = { email: "super@atende.demo", password: "Super123" };
const SAVED = "Operação realizada com sucesso!";

/** Picks a value in an MUI select by its label. */
async function choose(page: Page, label: string, value: string | RegExp) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: value }).click();
}

async function openTab(page: Page, name: string) {
  await page.getByRole("tab", { name, exact: true }).click();
}

test("the super user runs the platform from Settings; help videos show on /helps; a visitor signs up and sees the trial", async ({
  browser,
}) => {
  // Three people and a dozen saves on a machine the whole team shares.
  test.setTimeout(180_000);
  const suffix = Date.now() % 100000;
  const planName = `Plano E2E ${suffix}`;
  const companyName = `Padaria E2E ${suffix}`;
  const helpTitle = `Como atender ${suffix}`;
  const su = await newPerson(browser);
  await loginAs(su.page, SUPER.email, SUPER.password);
  await su.page.goto("/settings");

  // Planos: a plan with its limits and the kanban switched on.
  await openTab(su.page, "Planos");
  const planForm = su.page.getByRole("form", { name: "Novo plano" });
  await planForm.getByRole("button", { name: "Salvar" }).click();
  await expect(planForm.getByText("Required")).toBeVisible();
  await planForm.getByRole("textbox", { name: "Nome" }).fill(planName);
  await planForm.getByRole("spinbutton", { name: "Usuários" }).fill("5");
  await planForm.getByRole("spinbutton", { name: "Conexões" }).fill("2");
  await planForm.getByRole("spinbutton", { name: "Filas" }).fill("3");
  await planForm.getByRole("spinbutton", { name: "Valor (R$)" }).fill("49.90");
  await planForm.getByRole("switch", { name: "Kanban" }).check();
  await planForm.getByRole("button", { name: "Salvar" }).click();
  await expect(su.page.getByText(SAVED).first()).toBeVisible();
  const planRow = su.page.getByRole("row").filter({ hasText: planName });
  await expect(planRow).toContainText("R$");
  await expect(planRow).toContainText("Kanban");
  await shot(su.page, "platform-1-plans");

  // Cadastrar Empresa: e-mail and plan required; the admin is told about the invitation.
  await openTab(su.page, "Cadastrar Empresa");
  const newForm = su.page.getByRole("form", { name: "Cadastrar empresa" });
  await expect(newForm.getByText("receberá um e-mail")).toBeVisible();
  await newForm.getByRole("button", { name: "Salvar" }).click();
  await expect(newForm.getByText("Required").first()).toBeVisible();
  await newForm.getByRole("textbox", { name: "Nome" }).fill(companyName);
  await newForm.getByRole("textbox", { name: "E-mail do administrador" }).fill(`dona-${suffix}@padaria.test`);
  await choose(su.page, "Plano", planName);
  const today = todayInZone(new Date());
  // Due in 3 days: the row is yellow.
  const due = new Date(`${today}T12:00:00Z`);
  due.setUTCDate(due.getUTCDate() + 3);
  const dueDate = due.toISOString().slice(0, 10);
  const [year, month, day] = dueDate.split("-");
  await typeDate(newForm.getByRole("group", { name: "Data de vencimento" }), `${day}${month}${year}`);
  await shot(su.page, "platform-2-new-company");
  await newForm.getByRole("button", { name: "Salvar" }).click();
  await expect(su.page.getByText(SAVED).first()).toBeVisible();

  // Empresas: the new company, yellow (due in 3 days); 'Vencimento' moves it a month on.
  await expect(su.page.getByRole("tab", { name: "Empresas", exact: true })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  const companyRow = su.page.getByRole("row").filter({ hasText: companyName });
  await expect(companyRow).toHaveAttribute("data-due", "soon");
  await expect(companyRow).toContainText(formatDateBR(dueDate));
  await expect(companyRow).toContainText("Vence em breve");
  await shot(su.page, "platform-3-companies-due-soon");
  await companyRow.getByRole("button", { name: `Vencimento ${companyName}` }).click();
  const renewed = addMonthsToDate(dueDate, 1);
  await expect(companyRow).toContainText(formatDateBR(renewed));
  await expect(companyRow).toHaveAttribute("data-due", "ok");

  // The new admin sets a password from the invitation mail (the dev outbox: no SMTP_URL here) and logs in.
  const adminEmail = `dona-${suffix}@padaria.test`;
  let link: string | undefined;
  await expect
    .poll(async () => {
      const box = await callApi<MailOutboxDTO>(su.page, "GET", "/mail/outbox");
      const mail = box.mails.find((m) => m.to === adminEmail);
      link = mail ? /\/forgetpsw#\S+/.exec(mail.text)?.[0] : undefined;
      return link;
    })
    .toMatch(/code=\d{6}/);
  const owner = await newPerson(browser);
  await owner.page.goto(link!);
  await expect(owner.page.getByLabel("Código de Verificação")).not.toHaveValue("");
  await owner.page.getByLabel("Nova senha").fill("Padaria123");
  await owner.page.getByLabel("Confirme a senha").fill("Padaria123");
  await owner.page.getByRole("button", { name: "Redefinir Senha" }).click();
  await expect(owner.page).toHaveURL(/\/login$/);
  await loginAs(owner.page, adminEmail, "Padaria123");
  await shot(owner.page, "platform-3b-invited-admin");
  await owner.context.close();

  // Deleting it asks, naming the company.
  await companyRow.getByRole("button", { name: `Excluir ${companyName}` }).click();
  const confirm = su.page.getByRole("dialog", { name: `Excluir a empresa ${companyName}?` });
  await expect(confirm).toContainText(companyName);
  await confirm.getByRole("button", { name: "Confirmar" }).click();
  await expect(companyRow).toHaveCount(0);

  // Ajuda: a help video, then the /helps page and its player.
  await openTab(su.page, "Ajuda");
  const helpForm = su.page.getByRole("form", { name: "Novo vídeo de ajuda" });
  await helpForm.getByRole("textbox", { name: "Título" }).fill(helpTitle);
  await helpForm.getByRole("textbox", { name: "Código do vídeo" }).fill("https://youtu.be/dQw4w9WgXcQ");
  await helpForm.getByRole("textbox", { name: "Descrição" }).fill("Os primeiros passos no atendimento.");
  await helpForm.getByRole("button", { name: "Salvar" }).click();
  await expect(su.page.getByText(SAVED).first()).toBeVisible();
  await expect(su.page.getByRole("row").filter({ hasText: helpTitle })).toContainText("dQw4w9WgXcQ");

  await su.page.goto("/helps");
  await expect(su.page.getByRole("heading", { level: 1, name: /^Ajuda\s*\(\d+\)$/ })).toBeVisible();
  const card = su.page.getByRole("button", { name: `Assistir: ${helpTitle}` });
  await expect(card).toContainText("Os primeiros passos no atendimento.");
  await shot(su.page, "platform-4-helps");
  await card.click();
  const player = su.page.getByRole("dialog", { name: helpTitle });
  await expect(player.locator("iframe")).toHaveAttribute("src", /youtube\.com\/embed\/dQw4w9WgXcQ/);
  await su.page.keyboard.press("Escape");
  await expect(player).toBeHidden();

  // Sign-up opens: allowed and shown on the login page. Closed first through the API: another spec
  // of the shared app (billing) may have opened it, and choosing the value already set saves nothing.
  for (const key of ["allowregister", "viewregister"])
    await callApi(su.page, "PUT", `/settings/${key}`, { key, value: "disabled" });
  await su.page.goto("/settings");
  await choose(su.page, "Registro (inscrição) permitido", "Habilitado");
  await expect(su.page.getByText("Operação atualizada com sucesso.").first()).toBeVisible();
  await choose(su.page, "Registro (inscrição) visível", "Habilitado");

  // A visitor signs up from the login page's link, then logs in and sees the trial.
  const visitor = await newPerson(browser);
  const email = `loja-${suffix}@cliente.test`;
  await visitor.page.goto("/login");
  await visitor.page.getByRole("link", { name: "Não tem uma conta? Cadastre-se!" }).click();
  await expect(visitor.page).toHaveURL(/\/signup$/);
  await visitor.page.getByRole("textbox", { name: "Nome da empresa" }).fill(`Loja ${suffix}`);
  await visitor.page.getByRole("textbox", { name: "E-mail" }).fill(email);
  const phone = visitor.page.getByRole("textbox", { name: "Telefone" });
  await phone.pressSequentially("11987654321999");
  await expect(phone).toHaveValue("(11) 98765-4321");
  await visitor.page.getByRole("textbox", { name: "Senha", exact: true }).fill("Loja12345");
  await choose(visitor.page, "Plano", new RegExp(planName));
  await shot(visitor.page, "platform-5-signup");
  await visitor.page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(visitor.page).toHaveURL(/\/login$/);
  await expect(visitor.page.getByText("Cadastro realizado com sucesso! Faça seu login.")).toBeVisible();

  await loginAs(visitor.page, email, "Loja12345");
  await expect(visitor.page.getByTestId("trial-chip")).toContainText("Período de teste: 3 dias restantes");
  await shot(visitor.page, "platform-6-trial");

  // The same e-mail cannot sign up twice: said on the field.
  const again = await newPerson(browser);
  await again.page.goto("/signup");
  await again.page.getByRole("textbox", { name: "Nome da empresa" }).fill(`Outra ${suffix}`);
  await again.page.getByRole("textbox", { name: "E-mail" }).fill(email);
  await again.page.getByRole("textbox", { name: "Senha", exact: true }).fill("Loja12345");
  await choose(again.page, "Plano", new RegExp(planName));
  await again.page.getByRole("button", { name: "Cadastrar" }).click();
  await expect(again.page).toHaveURL(/\/signup$/);
  await expect(again.page.locator("#signup-email-helper-text")).not.toBeEmpty();
  await shot(again.page, "platform-7-signup-taken");
});
