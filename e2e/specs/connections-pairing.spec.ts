import { expect } from "@playwright/test";
import { DEMO, callApi, liveChannelReady, loginAs, newPerson, shot, test } from "./helpers";

/**
 * Pairing by phone number instead of the QR code (the QR dialog's link), and the alert an admin
 * gets on another page when a connected number goes down.
 */

interface Whatsapp {
  id: number;
  name: string;
  status: string;
}

const pageErrors: string[] = [];
test.beforeEach(() => {
  pageErrors.length = 0;
});
test.afterEach(() => {
  expect(pageErrors).toEqual([]);
});

test.describe("connection pairing and alerts", () => {
  test("the QR dialog gives a pairing code for a phone number, and goes back to the QR code", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const stamp = Date.now();
    const name = `Pareamento ${stamp}`;
    const { context, page } = await newPerson(browser);
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await loginAs(page, DEMO.admin.email, DEMO.admin.password);
    await page.goto("/connections");
    const created = await callApi<Whatsapp>(page, "POST", "/whatsapp", { name, provider: "simulator" });
    const row = page.getByRole("row").filter({ has: page.getByRole("cell", { name, exact: true }) });
    await row.getByRole("button", { name: "QR CODE", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "QR Code" });
    await expect(dialog.getByRole("img", { name: "QR Code" })).toBeVisible();

    await dialog.getByRole("button", { name: "Conectar com número de telefone" }).click();
    await expect(dialog).toContainText(
      "Toque em Conectar dispositivo e depois em Conectar com número de telefone.",
    );
    const number = dialog.getByRole("textbox", { name: "Número do WhatsApp" });
    await expect(number).toBeFocused();

    // Too short to be a phone's number: said under the field, nothing asked of WhatsApp.
    await number.fill("11 9876");
    await dialog.getByRole("button", { name: "Gerar código" }).click();
    await expect(dialog.getByText("Informe o número completo, com código do país e DDD")).toBeVisible();
    await expect(dialog.getByTestId("pairing-code")).toHaveCount(0);

    await number.fill("+55 (11) 98765-4321");
    await dialog.getByRole("button", { name: "Gerar código" }).click();
    const code = dialog.getByTestId("pairing-code");
    await expect(code).toHaveText(/^[1-9A-HJ-NP-TV-Z]{4}-[1-9A-HJ-NP-TV-Z]{4}$/);
    await expect(dialog.getByRole("button", { name: "Gerar outro código" })).toBeVisible();
    await shot(page, "connections-pairing-code");

    // Back to the QR code, still live; the simulator's scan pairs it and the dialog closes itself.
    await dialog.getByRole("button", { name: "Usar o QR code" }).click();
    await expect(dialog.getByRole("img", { name: "QR Code" })).toBeVisible();
    await dialog.getByRole("button", { name: "Escanear com o simulador" }).click();
    await expect(dialog).toBeHidden();

    await callApi(page, "DELETE", `/whatsapp/${created.id}`);
    await context.close();
  });

  test("an admin on another page is told when a connected number is disconnected", async ({ browser }) => {
    test.setTimeout(120_000);
    const stamp = Date.now();
    const name = `Alerta ${stamp}`;
    const { context, page } = await newPerson(browser);
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await loginAs(page, DEMO.admin.email, DEMO.admin.password);
    const created = await callApi<Whatsapp>(page, "POST", "/whatsapp", { name, provider: "simulator" });
    await expect
      .poll(async () => (await callApi<Whatsapp>(page, "GET", `/whatsapp/${created.id}`)).status)
      .toBe("qrcode");
    await callApi(page, "POST", `/simulator/${created.id}/scan`);
    await expect
      .poll(async () => (await callApi<Whatsapp>(page, "GET", `/whatsapp/${created.id}`)).status)
      .toBe("CONNECTED");

    const live = liveChannelReady(page);
    await page.goto("/tickets");
    await live;
    const menuEntry = page
      .getByRole("navigation", { name: "menu" })
      .getByRole("link", { name: "Conexões", exact: true });
    await expect(menuEntry).toBeVisible();
    // Logged out elsewhere (here through the API, as the phone would): the toast names it.
    await callApi(page, "DELETE", `/whatsappsession/${created.id}`);
    await expect(page.getByText(`A conexão ${name} foi desconectada do WhatsApp.`)).toBeVisible();
    await expect(menuEntry).toHaveAttribute("aria-description", "Há conexões que precisam de atenção");

    await callApi(page, "DELETE", `/whatsapp/${created.id}`);
    await context.close();
  });
});
