import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "@playwright/test";
import { DEMO, callApi, loginAs, newPerson, shot, test } from "./helpers";

interface Connection {
  id: number;
  name: string;
  provider: string;
  status: string;
}

/**
 * The public API as a company uses it: an admin reads /messages-api, sends a test message with a
 * connection's token and the simulator's phone receives it; then subscribes a webhook to a receiver
 * started here, sends the test event and sees it delivered in the log.
 */
test("an admin sends a test message from /messages-api and it reaches the phone", async ({ browser }) => {
  const { context, page } = await newPerson(browser);
  await loginAs(page, DEMO.admin.email, DEMO.admin.password);
  const connections = await callApi<Connection[]>(page, "GET", "/whatsapp/");
  const sim = connections.find((c) => c.provider === "simulator" && c.status === "CONNECTED")!;
  expect(sim).toBeTruthy();
  // The server makes connection tokens and shows each once: the admin generates one in the
  // connection's dialog (which shows only the last characters of the one it replaces).
  await page.goto("/connections");
  const row = page.getByRole("row").filter({ has: page.getByRole("cell", { name: sim.name, exact: true }) });
  await row.getByRole("button", { name: "Editar" }).click();
  const connection = page.getByRole("dialog", { name: "Editar WhatsApp" });
  const tokenField = connection.getByLabel("Token", { exact: true });
  await expect(tokenField).toHaveValue(/^(••••.{4})?$/);
  const hadToken = (await tokenField.inputValue()) !== "";
  await connection.getByRole("button", { name: "Gerar novo token" }).click();
  if (hadToken) {
    // Replacing a token revokes it: the dialog asks first.
    const confirm = page.getByRole("dialog", { name: "Gerar novo token" });
    await expect(confirm.getByText("Gerar um novo token? O atual deixa de funcionar.")).toBeVisible();
    await confirm.getByRole("button", { name: "Confirmar" }).click();
    // Until it has faded out, the confirmation is the top dialog and takes the Escape below.
    await expect(confirm).toBeHidden();
  }
  await expect(connection.getByText("Copie agora: este token não será mostrado de novo.")).toBeVisible();
  const token = await tokenField.inputValue();
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await page.keyboard.press("Escape");
  await expect(connection).toBeHidden();

  await page.goto("/messages-api");
  await expect(page.getByRole("heading", { name: "Documentação para envio de mensagens" })).toBeVisible();
  const origin = new URL(page.url()).origin;
  await expect(page.getByText(`curl -X POST '${origin}/api/messages/send'`).first()).toBeVisible();
  await expect(page.getByRole("link", { name: /OpenAPI/ })).toHaveAttribute("href", "/docs");

  const number = `55119${String(Date.now()).slice(-8)}`;
  const body = `Teste da API ${Date.now()}`;
  const form = page.getByRole("form", { name: "Teste de envio (texto)" });
  await form.getByLabel("Token").fill(token);
  await form.getByLabel("Número").fill(number);
  await form.getByLabel("Mensagem").fill(body);
  await form.getByRole("button", { name: "Enviar" }).click();
  await expect(page.getByText("Mensagem enviada com sucesso")).toBeVisible();
  await shot(page, "messages-api-sent");

  await expect
    .poll(
      async () =>
        (
          await callApi<{ body: string; direction: string }[]>(
            page,
            "GET",
            `/simulator/${sim.id}/messages?number=${number}`,
          )
        ).some((m) => m.direction === "out" && m.body === body),
      { timeout: 15_000 },
    )
    .toBe(true);

  // A wrong token is an answer on the page, not the end of the session.
  await form.getByLabel("Token").fill("token-errado");
  await form.getByLabel("Mensagem").fill("não vai");
  await form.getByRole("button", { name: "Enviar" }).click();
  await expect(page.getByText(/Token inválido/)).toBeVisible();
  await expect(page).toHaveURL(/\/messages-api$/);
  await context.close();
});

test("an admin subscribes a webhook and sees the test event delivered in the log", async ({ browser }) => {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/atende`;
  const { context, page } = await newPerson(browser);
  try {
    await loginAs(page, DEMO.admin.email, DEMO.admin.password);
    await page.goto("/settings");
    await page.getByRole("tab", { name: "Webhooks" }).click();
    await page.getByRole("button", { name: "Adicionar webhook" }).click();
    const dialog = page.getByRole("dialog", { name: "Adicionar webhook" });
    await dialog.getByLabel("URL").fill(url);
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await expect(page.getByTestId("webhook-secret")).toHaveText(/^whsec_/);
    const card = page.getByLabel(url);
    await card.getByRole("button", { name: "Enviar evento de teste" }).click();
    await expect
      .poll(() => received.some((r) => r.body.includes('"webhook.test"')), { timeout: 15_000 })
      .toBe(true);
    expect(received[0]!.headers["x-atende-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    await card.getByRole("button", { name: "Ver entregas" }).click();
    await expect(card.getByText("Entregue")).toBeVisible();
    await shot(page, "messages-api-webhook-log");
  } finally {
    await context.close();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
