import { type APIRequestContext, expect } from "@playwright/test";
import type { LoginAnswer, MailOutboxDTO } from "@atende/contracts";
import { DEMO, loginAs, newPerson, shot, test } from "./helpers";

const SUPER = { email: "super@atende.demo", password: "Super123" };

async function tokenOf(request: APIRequestContext, who: { email: string; password: string }) {
  const res = await request.post("/auth/login", { data: who });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as LoginAnswer).token;
}

/**
 * The code mailed to `email`, read where mail goes without SMTP_URL: the dev outbox the super user
 * reads (GET /mail/outbox), newest first.
 */
async function mailedCode(request: APIRequestContext, email: string): Promise<string> {
  const token = await tokenOf(request, SUPER);
  let code: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get("/mail/outbox", { headers: { authorization: `Bearer ${token}` } });
      const box = (await res.json()) as MailOutboxDTO;
      const mail = box.mails.find((m) => m.to === email);
      code = mail ? /code=(\d{6})/.exec(mail.text)?.[1] : undefined;
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code!;
}

test("a user resets a forgotten password with the e-mailed code and logs in with the new one", async ({
  browser,
  request,
}) => {
  // A user of the demo company, made for this test (the demo people keep their passwords).
  const email = `esquecida-${Date.now()}@atende.demo`;
  const adminToken = await tokenOf(request, DEMO.admin);
  const created = await request.post("/users", {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { name: "Esquecida", email, password: "Antiga123", profile: "user" },
  });
  expect(created.ok(), await created.text()).toBe(true);

  const { page, context } = await newPerson(browser);
  await page.goto("/login");
  await page.getByRole("link", { name: "Esqueci minha senha" }).click();
  await expect(page).toHaveURL(/\/forgetpsw$/);
  // The URL changes at once, the login page stays until the page's code has loaded: its own Email
  // field would take the address (both failed so on a first visit, the field then empty at submit).
  await expect(page.getByRole("heading", { name: "Recuperar senha" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Enviar Email" }).click();
  await expect(page.getByText("Email enviado com sucesso!")).toBeVisible();

  // Step 2: the e-mail shown, the code from the mail, the new password twice.
  await expect(page.getByText(`Digite o código que enviamos para ${email}`)).toBeVisible();
  const code = await mailedCode(request, email);
  await page.getByLabel("Código de Verificação").fill(code);
  await page.getByLabel("Nova senha").fill("fraca");
  await page.getByLabel("Confirme a senha").fill("fraca");
  await page.getByRole("button", { name: "Redefinir Senha" }).click();
  await expect(
    page.getByText(
      "Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.",
    ),
  ).toBeVisible();
  await page.getByLabel("Nova senha").fill("NovaSenha9");
  await page.getByLabel("Confirme a senha").fill("NovaSenha9");
  await shot(page, "password-reset-step2");
  await page.getByRole("button", { name: "Redefinir Senha" }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Senha redefinida com sucesso.")).toBeVisible();
  await loginAs(page, email, "NovaSenha9");
  await context.close();
});

test("the mail's link opens step 2 filled in, and the super user reads the dev outbox in the app", async ({
  browser,
}) => {
  const visitor = await newPerson(browser);
  await visitor.page.goto("/forgetpsw#email=link%40atende.demo&code=123456");
  await expect(visitor.page.getByText("Digite o código que enviamos para link@atende.demo")).toBeVisible();
  await expect(visitor.page.getByLabel("Código de Verificação")).toHaveValue("123456");
  // The code leaves the address bar (and the history) at once.
  await expect.poll(() => new URL(visitor.page.url()).hash).toBe("");
  await visitor.context.close();

  const operator = await newPerson(browser);
  await loginAs(operator.page, SUPER.email, SUPER.password);
  await operator.page.getByRole("link", { name: "Caixa de saída", exact: true }).click();
  await expect(operator.page).toHaveURL(/\/mail-outbox$/);
  await expect(operator.page.getByText("Seu código para redefinir a senha").first()).toBeVisible();
  await shot(operator.page, "mail-outbox");
  await operator.context.close();
});
