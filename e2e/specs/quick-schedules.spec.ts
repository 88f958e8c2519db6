import { type Locator, type Page, expect } from "@playwright/test";
import { PNG as PHOTO, customerWaiting } from "./chatSetup";
import {
  DEMO,
  callApi,
  companyClock,
  dateFieldDigits,
  loginAs,
  newPerson,
  shot,
  typeDate,
  test,
} from "./helpers";

interface Whatsapp {
  id: number;
  name: string;
  provider: string;
  status: string;
  isDefault: boolean;
}

/** The demo's default simulator connection, connected (paired like a person would, if it is not). */
async function connectedSimulator(admin: Page): Promise<Whatsapp> {
  const list = await callApi<Whatsapp[]>(admin, "GET", "/whatsapp");
  const connection =
    list.find((w) => w.provider === "simulator" && w.isDefault) ??
    list.find((w) => w.provider === "simulator");
  if (!connection) throw new Error("the demo simulator connection is missing");
  const status = async () =>
    (await callApi<Whatsapp[]>(admin, "GET", "/whatsapp")).find((w) => w.id === connection.id)?.status;
  await expect.poll(status, { timeout: 20_000 }).toMatch(/qrcode|CONNECTED/);
  if ((await status()) === "qrcode") await callApi(admin, "POST", `/simulator/${connection.id}/scan`);
  await expect.poll(status, { timeout: 20_000 }).toBe("CONNECTED");
  return connection;
}

function dialog(page: Page, name: string | RegExp): Locator {
  return page.getByRole("dialog", { name });
}

/** A tiny PNG, as a file chooser would hand it over. */
const PNG = {
  name: "cardapio.png",
  mimeType: "image/png",
  buffer: Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    "base64",
  ),
};

const suffix = () => Math.random().toString(36).slice(2, 7);

test.describe("quick messages, schedules and the todo list", () => {
  test("an admin creates a global quick message with an image after the shortcode rule; an agent sees it but edits only her own", async ({
    browser,
  }) => {
    const admin = await newPerson(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    const page = admin.page;
    await page.goto("/quick-messages");
    await expect(page.getByRole("heading", { name: /Respostas rápidas/ })).toBeVisible();

    await page.getByRole("button", { name: "Adicionar", exact: true }).click();
    const form = dialog(page, "Adicionar resposta rápida");
    await form.getByRole("button", { name: "Salvar" }).click();
    await expect(form.getByText("Obrigatório")).toBeVisible();

    const shortcode = `cardapio${suffix()}`;
    await form.getByLabel(/Atalho/).fill(shortcode);
    await form
      .getByLabel("Mensagem")
      .fill("Olá! Segue o nosso cardápio da semana. Qualquer dúvida, estamos aqui.");
    await form.getByLabel("Geral (disponível para toda a empresa)").check();
    await form.getByLabel("Anexar arquivo").setInputFiles(PNG);
    await expect(form.getByText("cardapio.png")).toBeVisible();
    await shot(page, "quick-message-dialog");
    await form.getByRole("button", { name: "Salvar" }).click();
    await expect(page.getByText("Resposta rápida salva com sucesso!")).toBeVisible();
    await expect(form).toBeHidden();

    const row = page.getByRole("row").filter({ hasText: `/${shortcode}` });
    await expect(row).toBeVisible();
    await expect(row.getByText("cardapio.png")).toBeVisible();
    await expect(row.getByText("Geral")).toBeVisible();
    // The preview is cut at 35 characters.
    await expect(row.getByText("Olá! Segue o nosso cardápio da sema...")).toBeVisible();
    await shot(page, "quick-messages-page");

    // Ana (a plain agent) sees the global one, cannot change it, and has no global switch.
    const ana = await newPerson(browser);
    await loginAs(ana.page, DEMO.ana.email, DEMO.ana.password);
    await ana.page.goto("/quick-messages");
    const seen = ana.page.getByRole("row").filter({ hasText: `/${shortcode}` });
    await expect(seen).toBeVisible();
    await expect(seen.getByRole("button", { name: /Editar/ })).toHaveCount(0);
    await ana.page.getByRole("button", { name: "Adicionar", exact: true }).click();
    const mine = dialog(ana.page, "Adicionar resposta rápida");
    await expect(mine.getByLabel(/Geral/)).toHaveCount(0);
    const own = `meu${suffix()}`;
    await mine.getByLabel(/Atalho/).fill(`/${own}`);
    await mine.getByLabel("Mensagem").fill("Um momento, por favor.");
    await mine.getByRole("button", { name: "Salvar" }).click();
    const ownRow = ana.page.getByRole("row").filter({ hasText: `/${own}` });
    await expect(ownRow.getByRole("button", { name: `Editar resposta rápida /${own}` })).toBeVisible();
    await expect(ownRow.getByText("Ana")).toBeVisible();

    // The admin's page hears Ana's personal one live (admins see all); the chat's '/' list offers Ana both.
    await expect(page.getByRole("row").filter({ hasText: `/${own}` })).toBeVisible();
    const offered = await callApi<{ shortcode: string }[]>(ana.page, "GET", "/quick-messages/list");
    expect(offered.map((q) => q.shortcode)).toEqual(expect.arrayContaining([shortcode, own]));

    await ownRow.getByRole("button", { name: `Excluir resposta rápida /${own}` }).click();
    await ana.page.getByRole("dialog").getByRole("button", { name: "Confirmar" }).click();
    await expect(ana.page.getByText("Resposta rápida excluída com sucesso!")).toBeVisible();
    await expect(ownRow).toHaveCount(0);
    await admin.context.close();
    await ana.context.close();
  });

  test("an agent types '/' in the chat, picks quick messages by keyboard and by click, and one sends its image too", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const stamp = Date.now();
    const customer = `Rita ${stamp}`;
    const number = `55119${String(stamp).slice(-8)}`;
    const { admin, whatsappId, ticket } = await customerWaiting(browser, {
      name: customer,
      number,
      body: "Chegou minha entrega?",
    });

    // Ana makes her own quick message with an image on /quick-messages, and one without.
    const ana = await newPerson(browser);
    const page = ana.page;
    await loginAs(page, DEMO.ana.email, DEMO.ana.password);
    const code = `entrega${suffix()}`;
    const withImage = "Segue o comprovante da sua entrega. Qualquer dúvida, é só chamar!";
    await page.goto("/quick-messages");
    await page.getByRole("button", { name: "Adicionar", exact: true }).click();
    const form = dialog(page, "Adicionar resposta rápida");
    await form.getByLabel(/Atalho/).fill(code);
    await form.getByLabel("Mensagem").fill(withImage);
    await form
      .getByLabel("Anexar arquivo")
      .setInputFiles({ name: "comprovante.png", mimeType: "image/png", buffer: PHOTO });
    await form.getByRole("button", { name: "Salvar" }).click();
    await expect(page.getByText("Resposta rápida salva com sucesso!")).toBeVisible();
    await expect(
      page
        .getByRole("row")
        .filter({ hasText: `/${code}` })
        .getByText("comprovante.png"),
    ).toBeVisible();
    await callApi(page, "POST", "/quick-messages", {
      shortcode: `${code}prazo`,
      message: "O prazo de entrega é de 3 dias úteis.",
    });

    await page.goto(`/tickets/${ticket.uuid}`);
    await page.getByRole("button", { name: "Aceitar" }).first().click();
    const box = page.getByRole("textbox", { name: "Mensagem" });
    const list = page.getByRole("listbox", { name: "Respostas rápidas" });

    // '/' alone lists nothing; '/' and the shortcode lists both, the one with an image marked.
    await box.pressSequentially("/");
    await expect(list).toHaveCount(0);
    await box.pressSequentially(code);
    await expect(list.getByRole("option")).toHaveCount(2);
    await expect(
      list.getByRole("option", { name: new RegExp(`^/${code} `) }).getByLabel("com anexo"),
    ).toBeVisible();
    await shot(page, "chat-quick-message-list");
    // The arrows move the highlight, and the box points at the highlighted option for screen readers.
    const options = list.getByRole("option");
    await expect(options.nth(0)).toHaveAttribute("aria-selected", "true");
    await box.press("ArrowDown");
    await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
    await expect(box).toHaveAttribute("aria-activedescendant", (await options.nth(1).getAttribute("id"))!);
    await expect(box).toHaveValue(`/${code}`);

    // Esc closes the list and keeps the text; typing on narrows it; the keyboard picks.
    await box.press("Escape");
    await expect(list).toHaveCount(0);
    await expect(box).toHaveValue(`/${code}`);
    await box.pressSequentially("pr");
    await expect(list.getByRole("option")).toHaveCount(1);
    await box.press("ArrowDown");
    await box.press("Enter");
    await expect(list).toHaveCount(0);
    await expect(box).toHaveValue("O prazo de entrega é de 3 dias úteis.");
    await expect(page.getByRole("group", { name: /^Anexo da resposta rápida/ })).toHaveCount(0);
    await box.press("Enter");
    const chat = page.getByRole("log", { name: "Mensagens" });
    await expect(
      chat.getByRole("article").filter({ hasText: "O prazo de entrega é de 3 dias úteis." }),
    ).toBeVisible();
    await expect(box).toHaveValue("");

    // A click picks the one with the image: the text fills the box, the image waits above it.
    await box.pressSequentially(`/${code}`);
    await list.getByRole("option", { name: new RegExp(`^/${code} `) }).click();
    await expect(box).toHaveValue(withImage);
    const attachment = page.getByRole("group", { name: "Anexo da resposta rápida: comprovante.png" });
    await expect(attachment.getByRole("img", { name: "comprovante.png" })).toBeVisible();
    await shot(page, "chat-quick-message-picked");
    await box.press("Enter");
    const sent = chat.getByRole("article").filter({ hasText: withImage });
    await expect(sent.getByRole("img", { name: "comprovante.png" })).toBeVisible();
    await expect(attachment).toHaveCount(0);
    await expect(box).toHaveValue("");
    await shot(page, "chat-quick-message-sent");

    // The customer's phone got the image with the text as its caption.
    await expect
      .poll(async () => {
        const phone = await callApi<
          { direction: string; body: string; media: { filename: string } | null }[]
        >(admin.page, "GET", `/simulator/${whatsappId}/messages?number=${number}`);
        return phone.some(
          (m) =>
            m.direction === "out" && m.media?.filename === "comprovante.png" && m.body.includes(withImage),
        );
      })
      .toBe(true);
    await ana.context.close();
    await admin.context.close();
  });

  test("a message scheduled 10 s ahead reaches the simulator phone and the ticket, then reads as sent", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const admin = await newPerson(browser);
    await loginAs(admin.page, DEMO.admin.email, DEMO.admin.password);
    const page = admin.page;
    const connection = await connectedSimulator(page);
    const name = `Agenda ${suffix()}`;
    const number = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    await callApi(page, "POST", "/contacts", { name, number });

    await page.goto("/schedules");
    await expect(page.getByRole("heading", { name: /Agendamentos/ })).toBeVisible();
    await page.getByRole("button", { name: "Novo agendamento" }).click();
    const form = dialog(page, "Novo agendamento");
    // The default send time is one hour ahead (on the company's clock, to the minute), and the
    // default connection is chosen.
    const sendAt = form.getByRole("group", { name: /Data e hora de envio/ });
    const anHourAhead = [59, 60, 61].map((m) => companyClock(new Date(Date.now() + m * 60_000)));
    expect(anHourAhead).toContain(await dateFieldDigits(sendAt));
    await expect(form.getByRole("combobox", { name: "Conexão" })).toHaveText(connection.name);

    await form.getByRole("button", { name: "Salvar" }).click();
    await expect(form.getByText("Obrigatório")).toHaveCount(2);
    await form.getByLabel("Mensagem", { exact: false }).first().fill("Oi");
    await form.getByRole("button", { name: "Salvar" }).click();
    await expect(form.getByText("Mensagem muito curta")).toBeVisible();

    await form.getByRole("combobox", { name: "Contato" }).fill(name.slice(0, 9));
    await page.getByRole("option", { name: new RegExp(name) }).click();
    const body = `Lembrete agendado ${suffix()}: sua entrega chega hoje.`;
    await form.getByRole("textbox", { name: "Mensagem" }).fill(body);
    // Two minutes ahead, typed on the company's clock (the field's, to the minute).
    const typed = companyClock(new Date(Date.now() + 120_000));
    await typeDate(sendAt, typed);
    await shot(page, "schedule-dialog");
    await form.getByRole("button", { name: "Salvar" }).click();
    await expect(page.getByText("Agendamento salvo com sucesso!")).toBeVisible();
    // Saved at that minute where the company is; then moved to ten seconds ahead through the API,
    // so the test waits seconds for it rather than a minute.
    const { schedules } = await callApi<{ schedules: { id: number; body: string; sendAt: string }[] }>(
      page,
      "GET",
      `/schedules?searchParam=${encodeURIComponent(name)}`,
    );
    const saved = schedules.find((s) => s.body === body)!;
    expect(companyClock(new Date(saved.sendAt))).toBe(typed);
    await callApi(page, "PUT", `/schedules/${saved.id}`, {
      sendAt: new Date(Date.now() + 10_000).toISOString(),
    });

    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row.getByText("Pendente")).toBeVisible();
    // The status moves on live, without a reload.
    await expect(row.getByText("Enviada")).toBeVisible({ timeout: 30_000 });
    await shot(page, "schedules-list-sent");

    const phone = await callApi<{ direction: string; body: string }[]>(
      page,
      "GET",
      `/simulator/${connection.id}/messages?number=${number}`,
    );
    expect(phone.map((m) => m.body)).toContain(body);

    // Sent: the form is read-only.
    await row.getByRole("button", { name: `Ver agendamento ${name}` }).click();
    const sent = dialog(page, /Agendamento enviado/);
    await expect(sent.getByText(/já foi enviada em/)).toBeVisible();
    await expect(sent.getByRole("button", { name: "Salvar" })).toHaveCount(0);
    await expect(sent.getByRole("textbox", { name: "Mensagem" })).toBeDisabled();
    await shot(page, "schedule-sent-dialog");
    await sent.getByRole("button", { name: "Fechar" }).click();

    // The calendar shows it on its day.
    await page.getByRole("button", { name: "Calendário" }).click();
    await expect(page.getByRole("grid").getByText(name)).toBeVisible();
    await shot(page, "schedules-calendar");
    await page.getByRole("button", { name: "Lista" }).click();

    // And the message is in the contact's ticket.
    await page
      .getByRole("row")
      .filter({ hasText: name })
      .getByRole("link", { name: `Abrir o ticket ${name}` })
      .click();
    await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
    await expect(page.getByText(body).first()).toBeVisible();
    await admin.context.close();
  });

  test("the todo list adds, edits and deletes tasks, ignores empty text and survives a reload", async ({
    browser,
  }) => {
    const ana = await newPerson(browser);
    await loginAs(ana.page, DEMO.ana.email, DEMO.ana.password);
    const page = ana.page;
    await page.goto("/todolist");
    await expect(page.getByRole("heading", { name: /Tarefas/ })).toBeVisible();
    const input = page.getByLabel("Nova tarefa");
    const tasks = page.getByRole("list", { name: "Tarefas" });

    await input.fill("   ");
    await page.getByRole("button", { name: "Adicionar" }).click();
    await expect(page.getByText("Nenhuma tarefa.", { exact: false })).toBeVisible();

    await input.fill("Ligar para a cliente Maria");
    await input.press("Enter");
    await input.fill("Conferir pedidos atrasados");
    await page.getByRole("button", { name: "Adicionar" }).click();
    await expect(tasks.getByRole("listitem")).toHaveCount(2);
    await expect(tasks.getByText(/Criada em \d{2}\/\d{2}\/\d{4} às \d{2}:\d{2}/).first()).toBeVisible();

    await page.getByRole("button", { name: "Editar tarefa: Ligar para a cliente Maria" }).click();
    await expect(input).toHaveValue("Ligar para a cliente Maria");
    await input.fill("Ligar para a cliente Maria às 15h");
    await page.getByRole("button", { name: "Salvar" }).click();
    const edited = tasks.getByRole("listitem").filter({ hasText: "Ligar para a cliente Maria às 15h" });
    await expect(edited.getByText(/Atualizada em/)).toBeVisible();

    await page.getByRole("button", { name: "Excluir tarefa: Conferir pedidos atrasados" }).click();
    await expect(tasks.getByRole("listitem")).toHaveCount(1);

    await page.reload();
    await expect(
      page.getByRole("list", { name: "Tarefas" }).getByText("Ligar para a cliente Maria às 15h"),
    ).toBeVisible();
    await expect(page.getByRole("list", { name: "Tarefas" }).getByRole("listitem")).toHaveCount(1);
    await shot(page, "todolist");
    await ana.context.close();
  });
});
