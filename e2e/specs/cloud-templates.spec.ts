import crypto from "node:crypto";
import { expect } from "@playwright/test";
import { type FakeGraph, cloudWebhookPayload, startFakeGraph } from "../../server/src/test/fakes/graph";
import { DEMO, callApi, loginAs, shot, test } from "./helpers";

/**
 * A WhatsApp Cloud API ticket whose customer last wrote more than 24 hours ago: the composer says
 * only a template may go, the agent picks an approved one, fills its variables and sends it; the
 * fake Graph API (the server is pointed at it, playwright.config.ts) receives the template send.
 */

const port = Number(process.env.E2E_PORT ?? 8190);
const PNID = "109900011122233";
const WABA = "109900011199999";
const APP_SECRET = "e2e-app-secret";
const CUSTOMER = `5511955${String(Date.now()).slice(-6)}`;

interface Whatsapp {
  id: number;
  status: string;
}
interface Ticket {
  id: number;
  uuid: string;
}

let fake: FakeGraph;
let connectionId = 0;

test.beforeAll(async () => {
  fake = await startFakeGraph({ port: port + 1100, accessToken: "e2e-graph-token" });
  fake.phoneNumbers.set(PNID, { display_phone_number: "+55 11 3000-0000", verified_name: "Atende e2e" });
  fake.templates.set(WABA, [
    {
      name: "retomar_conversa",
      language: "pt_BR",
      status: "APPROVED",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Olá {{1}}, podemos continuar o atendimento {{2}}?" }],
    },
  ]);
});
test.afterAll(async () => {
  await fake?.close();
});

test("outside the 24-hour window the composer offers the approved templates, and one goes out", async ({
  page,
}) => {
  await loginAs(page, DEMO.admin.email, DEMO.admin.password);
  const created = await callApi<Whatsapp>(page, "POST", "/whatsapp", {
    name: `Cloud e2e ${crypto.randomBytes(3).toString("hex")}`,
    provider: "cloud",
    cloud: {
      phoneNumberId: PNID,
      wabaId: WABA,
      verifyToken: "e2e-verify",
      accessToken: fake.accessToken,
      appSecret: APP_SECRET,
    },
  });
  connectionId = created.id;
  try {
    await expect
      .poll(async () => (await callApi<Whatsapp>(page, "GET", `/whatsapp/${connectionId}`)).status, {
        timeout: 30_000,
      })
      .toBe("CONNECTED");

    // The customer wrote 25 hours ago (Meta's webhook, signed with the app secret).
    const raw = Buffer.from(
      JSON.stringify(
        cloudWebhookPayload(PNID, {
          contacts: [{ profile: { name: "Cliente Nuvem" }, wa_id: CUSTOMER }],
          messages: [
            {
              from: CUSTOMER,
              id: `wamid.E2E${Date.now()}`,
              timestamp: String(Math.floor(Date.now() / 1000) - 25 * 3600),
              type: "text",
              text: { body: "Vocês têm horário amanhã?" },
            },
          ],
        }),
      ),
    );
    const signature = `sha256=${crypto.createHmac("sha256", APP_SECRET).update(raw).digest("hex")}`;
    const delivered = await fetch(`http://localhost:${port}/webhooks/cloud/${connectionId}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": signature },
      body: raw,
    });
    expect(delivered.status).toBe(200);

    let ticket: Ticket | undefined;
    await expect
      .poll(async () => {
        const page1 = await callApi<{ tickets: Ticket[] }>(
          page,
          "GET",
          `/tickets?status=pending&showAll=true&searchParam=${CUSTOMER}`,
        );
        ticket = page1.tickets[0];
        return Boolean(ticket);
      })
      .toBe(true);
    const me = await callApi<{ id: number }>(page, "GET", "/auth/me");
    await callApi(page, "PUT", `/tickets/${ticket!.id}`, { status: "open", userId: me.id });

    // The composer asks whether the window is open (GET /tickets/{id}/window).
    const windowAnswer = page.waitForResponse((r) => r.url().endsWith(`/tickets/${ticket!.id}/window`));
    await page.goto(`/tickets/${ticket!.uuid}`);
    expect(await (await windowAnswer).json()).toMatchObject({ applies: true, open: false });
    await expect(
      page.getByText("Passaram-se mais de 24 horas desde a última mensagem do cliente"),
    ).toBeVisible();
    await page.getByRole("button", { name: "Escolher modelo" }).click();

    const dialog = page.getByRole("dialog", { name: "Enviar um modelo aprovado" });
    await dialog.getByRole("combobox", { name: "Modelo" }).click();
    await page.getByRole("option", { name: "retomar_conversa · pt_BR" }).click();
    // Sending with a variable empty is refused on the spot.
    await dialog.getByRole("button", { name: "Enviar" }).click();
    await expect(dialog.getByText("Preencha este campo").first()).toBeVisible();
    await dialog.getByRole("textbox", { name: "Variável 1" }).fill("Cliente");
    await dialog.getByRole("textbox", { name: "Variável 2" }).fill("amanhã às 10h");
    await expect(dialog.getByTestId("template-preview")).toHaveText(
      "Olá Cliente, podemos continuar o atendimento amanhã às 10h?",
    );
    await shot(page, "cloud-template-dialog");
    await dialog.getByRole("button", { name: "Enviar" }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page
        .getByRole("log", { name: "Mensagens" })
        .getByText("Olá Cliente, podemos continuar o atendimento amanhã às 10h?"),
    ).toBeVisible();

    // Sends only (opening the ticket also POSTs the customer's read receipt there).
    const sends = () =>
      fake.requests.filter(
        (r) => r.method === "POST" && r.path === `/${PNID}/messages` && (r.json as { type?: string }).type,
      );
    await expect.poll(() => sends().length).toBe(1);
    const sent = sends()[0]!;
    expect(sent.json).toMatchObject({
      to: CUSTOMER,
      type: "template",
      template: {
        name: "retomar_conversa",
        language: { code: "pt_BR" },
        components: [
          {
            type: "body",
            parameters: [
              { type: "text", text: "Cliente" },
              { type: "text", text: "amanhã às 10h" },
            ],
          },
        ],
      },
    });
  } finally {
    // The suite shares one app: the connection goes with the spec.
    await callApi(page, "DELETE", `/whatsapp/${connectionId}`).catch(() => undefined);
  }
});
