import type { SettingDTO } from "@atende/contracts";
import { type Page, expect } from "@playwright/test";
import { callApi, loginAs, newPerson, shot, test } from "./helpers";

const SUPER = { email: "super@atende.demo", password: "Super123" };
const IXC_TOKEN = "ixc-e2e-token-secreto-8642";
const MK_SECRET = "mk-e2e-client-secret-1357";

async function secretOf(page: Page, key: string) {
  const list = await callApi<SettingDTO[]>(page, "GET", "/settings");
  return list.find((s) => s.key === key);
}

test("the super user saves the IXC token and the MK-AUTH secret, sees only their last characters, and removes one", async ({
  browser,
}) => {
  const su = await newPerson(browser);
  await loginAs(su.page, SUPER.email, SUPER.password);
  // From a known state: nothing stored.
  for (const key of ["tokenixc", "clientsecretmkauth"]) await callApi(su.page, "DELETE", `/settings/${key}`);
  await su.page.goto("/settings");

  // Typed, then left: saved, and shown back only as a hint.
  for (const [label, value] of [
    ["Token do IXC", IXC_TOKEN],
    ["Client Secret do MK-AUTH", MK_SECRET],
  ] as const) {
    const field = su.page.getByLabel(label, { exact: true });
    await field.fill(value);
    await field.blur();
    await expect(su.page.getByText("Operação atualizada com sucesso.").first()).toBeVisible();
  }
  await expect(su.page.getByText("Salvo: ••••8642. Deixe em branco para manter.")).toBeVisible();
  await expect(su.page.getByText("Salvo: ••••1357. Deixe em branco para manter.")).toBeVisible();
  expect(await secretOf(su.page, "tokenixc")).toEqual({ key: "tokenixc", value: "", hint: "8642" });

  // After a reload the field is blank (the value never reaches the page) and a blank field keeps it.
  await su.page.reload();
  const ixc = su.page.getByLabel("Token do IXC", { exact: true });
  await expect(ixc).toHaveValue("");
  await ixc.focus();
  await ixc.blur();
  expect(await secretOf(su.page, "tokenixc")).toEqual({ key: "tokenixc", value: "", hint: "8642" });
  await shot(su.page, "settings-secrets-saved");

  // Remover, confirmed: the hint and the button go; the other secret stays.
  await su.page.getByRole("button", { name: "Remover Token do IXC" }).click();
  const dialog = su.page.getByRole("dialog", { name: "Remover Token do IXC?" });
  await dialog.getByRole("button", { name: "Confirmar" }).click();
  await expect(su.page.getByText("Credencial removida.")).toBeVisible();
  await expect(su.page.getByText("Salvo: ••••8642. Deixe em branco para manter.")).toHaveCount(0);
  await expect(su.page.getByRole("button", { name: "Remover Token do IXC" })).toHaveCount(0);
  await expect(su.page.getByRole("button", { name: "Remover Client Secret do MK-AUTH" })).toBeVisible();
  expect((await secretOf(su.page, "tokenixc"))?.hint ?? "").toBe("");
  expect(await secretOf(su.page, "clientsecretmkauth")).toEqual({
    key: "clientsecretmkauth",
    value: "",
    hint: "1357",
  });
  await su.page.reload();
  await expect(su.page.getByText("Salvo: ••••1357. Deixe em branco para manter.")).toBeVisible();
  await expect(su.page.getByRole("button", { name: "Remover Token do IXC" })).toHaveCount(0);
  await shot(su.page, "settings-secrets-removed");

  // Leave the demo as it was for other specs.
  await callApi(su.page, "DELETE", "/settings/clientsecretmkauth");
  await su.context.close();
});
