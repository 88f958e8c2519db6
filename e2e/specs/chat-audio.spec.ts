import { type Page, expect } from "@playwright/test";
import { callApi, customerWaiting } from "./chatSetup";
import { DEMO, loginAs, newPerson, shot, test } from "./helpers";

interface PhoneMessage {
  direction: "in" | "out";
  kind: string;
  media: { filename: string; mimetype: string; url: string; voiceNote?: boolean } | null;
}

/** What the customer's phone (the simulator) received from the business. */
async function phoneReceived(admin: Page, whatsappId: number, number: string): Promise<PhoneMessage[]> {
  const all = await callApi<PhoneMessage[]>(
    admin,
    "GET",
    `/simulator/${whatsappId}/messages?number=${number}`,
  );
  return all.filter((m) => m.direction === "out");
}

test("an agent records a voice note with the microphone and sends it; a too short one is dropped", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const customer = `Rita ${stamp}`;
  const number = `55118${String(stamp).slice(-8)}`;
  const { admin, whatsappId, ticket } = await customerWaiting(browser, {
    name: customer,
    number,
    body: "Pode me explicar por áudio?",
  });

  const ana = await newPerson(browser, { microphone: true });
  const page = ana.page;
  await loginAs(page, DEMO.ana.email, DEMO.ana.password);
  await page.goto(`/tickets/${ticket.uuid}`);
  await expect(page.getByRole("heading", { name: customer })).toBeVisible();
  // Waiting: no box, so no microphone either.
  await expect(page.getByRole("button", { name: "Gravar áudio" })).toHaveCount(0);
  await page.getByRole("button", { name: "Aceitar" }).first().click();

  // The empty box offers the microphone where the send button goes; text brings the send button back.
  const box = page.getByRole("textbox", { name: "Mensagem" });
  const mic = page.getByRole("button", { name: "Gravar áudio" });
  await expect(mic).toBeVisible();
  await expect(page.getByRole("button", { name: "Enviar", exact: true })).toHaveCount(0);
  await box.fill("Um instante");
  await expect(mic).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Enviar", exact: true })).toBeEnabled();
  await box.fill("");
  await expect(mic).toBeVisible();

  const chat = page.getByRole("log", { name: "Mensagens" });
  const players = chat.locator("audio");

  // Recording: a red dot and the running time replace the box, with a bin and a send button.
  await mic.click();
  const bar = page.getByRole("status", { name: "Gravando áudio" });
  await expect(bar).toBeVisible();
  await expect(box).toHaveCount(0);
  await expect(bar).toContainText("0:02");
  await shot(page, "chat-audio-recording");
  await page.getByRole("button", { name: "Enviar áudio" }).click();

  // The bubble plays the recording, and the customer's phone received it as a voice note in
  // Ogg/Opus (Chromium records WebM: the server converts it, for the Cloud API and for iPhones).
  await expect(players).toHaveCount(1);
  await expect(players.first()).toHaveAttribute("aria-label", /^audio-\d{8}-\d{6}\.ogg$/);
  await expect(box).toBeVisible();
  await expect
    .poll(async () => (await phoneReceived(admin.page, whatsappId, number)).map((m) => m.kind))
    .toEqual(["audio"]);
  const [onPhone] = await phoneReceived(admin.page, whatsappId, number);
  expect(onPhone!.media).toMatchObject({
    filename: expect.stringMatching(/^audio-\d{8}-\d{6}\.ogg$/),
    mimetype: "audio/ogg; codecs=opus",
    voiceNote: true,
  });
  await shot(page, "chat-audio-sent");

  // Sent at once: too short, dropped with a notice; nothing reaches the chat or the phone.
  await mic.click();
  await expect(bar).toBeVisible();
  await page.getByRole("button", { name: "Enviar áudio" }).click();
  await expect(page.getByText("Áudio muito curto, não enviado.")).toBeVisible();
  await expect(box).toBeVisible();

  // Cancelled: the bin drops the recording and the box comes back.
  await mic.click();
  await expect(bar).toContainText("0:01");
  await page.getByRole("button", { name: "Cancelar gravação" }).click();
  await expect(bar).toHaveCount(0);
  await expect(box).toBeVisible();

  // Neither the short nor the cancelled recording went anywhere.
  await box.fill("Ouviu o áudio?");
  await box.press("Enter");
  await expect(chat.getByRole("article").filter({ hasText: "Ouviu o áudio?" })).toBeVisible();
  await expect
    .poll(async () => (await phoneReceived(admin.page, whatsappId, number)).map((m) => m.kind))
    .toEqual(["audio", "text"]);
  await expect(players).toHaveCount(1);

  await ana.context.close();
  await admin.context.close();
});

test("a refused microphone says so, and the box stays as it was", async ({ browser }) => {
  const stamp = Date.now();
  const customer = `Caio ${stamp}`;
  const number = `55117${String(stamp).slice(-8)}`;
  const { admin, ticket } = await customerWaiting(browser, { name: customer, number, body: "Oi" });

  const ana = await newPerson(browser);
  const page = ana.page;
  // The browser's answer when the person blocks the microphone.
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () =>
      Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
  });
  await loginAs(page, DEMO.ana.email, DEMO.ana.password);
  await page.goto(`/tickets/${ticket.uuid}`);
  await expect(page.getByRole("heading", { name: customer })).toBeVisible();
  await page.getByRole("button", { name: "Aceitar" }).first().click();

  await page.getByRole("button", { name: "Gravar áudio" }).click();
  await expect(
    page.getByText("O acesso ao microfone foi negado. Permita o microfone no navegador para gravar áudio."),
  ).toBeVisible();
  await expect(page.getByRole("status", { name: "Gravando áudio" })).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "Mensagem" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Gravar áudio" })).toBeEnabled();

  await ana.context.close();
  await admin.context.close();
});
