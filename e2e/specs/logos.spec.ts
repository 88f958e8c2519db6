import zlib from "node:zlib";
import { expect } from "@playwright/test";
import { loginAs, newPerson, shot, test } from "./helpers";

const SUPER = { email: "super@atende.demo", password: "Super123" };

/** A real PNG: a 180x48 bar in the brand's green with a lighter band, drawn row by row. */
function brandPng(width = 180, height = 48): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const band = y > 16 && y < 32;
      row.set(band ? [0x25, 0xd3, 0x66] : [0x00, 0x80, 0x69], 1 + x * 3);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

test.describe("logos", () => {
  test("the super user uploads a PNG for the login page; after logout the login page shows it", async ({
    browser,
  }) => {
    // Two browsers and a first build of each page: past the default minute on a busy machine.
    test.setTimeout(120_000);
    const { context, page } = await newPerson(browser);
    await loginAs(page, SUPER.email, SUPER.password);
    await page.goto("/settings");
    await page.getByRole("tab", { name: "Logo" }).click();

    // Sending without a file or a target says what is missing.
    await page.getByRole("button", { name: "Enviar arquivo" }).click();
    await expect(page.getByText("Escolha um arquivo!")).toBeVisible();

    await page.getByTestId("logo-file").setInputFiles({
      name: "marca.png",
      mimeType: "image/png",
      buffer: brandPng(),
    });
    await expect(page.getByRole("img", { name: "Prévia" })).toBeVisible();
    await page.getByRole("combobox", { name: "Escolha uma opção:" }).click();
    await page.getByRole("option", { name: "Tela de Login" }).click();
    await page.getByRole("button", { name: "Enviar arquivo" }).click();
    await expect(page.getByText("Arquivo enviado com sucesso!")).toBeVisible();
    await expect(page.getByRole("row", { name: /Tela de Login/ }).getByRole("img")).toBeVisible();
    await shot(page, "logos-tab");

    await page.getByRole("navigation", { name: "menu" }).getByRole("button", { name: "Sair" }).click();
    await expect(page).toHaveURL(/\/login$/);
    const logo = page.locator('img[data-logo="login"]');
    await expect(logo).toBeVisible();
    await expect(logo).toHaveAttribute("src", /^\/public\/logotipos\/login\.png\?v=/);
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(180);

    // Another visitor, who never logged in, sees it too.
    const visitor = await newPerson(browser);
    await visitor.page.goto("/login");
    const seen = visitor.page.locator('img[data-logo="login"]');
    await expect
      .poll(() => seen.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(180);
    await shot(visitor.page, "logos-login");
    await visitor.context.close();
    await context.close();
  });
});
