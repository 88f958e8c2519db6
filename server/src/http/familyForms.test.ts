import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampaignDTO, CompanyDTO, QueueDetailDTO, UserDTO } from "@atende/contracts";
import { campaignCompany } from "../modules/campaigns/testing.js";
import { caller, expectError, expectOk, fieldsOf } from "../test/calls.js";
import { type Member, buildConnection, buildPlan, buildPlatformOperator, uid } from "../test/factories.js";
import { type TestContext, createTestContext } from "../test/harness.js";

/**
 * The forms of the Whaticket SaaS front end send an empty optional field as null, "" or false (an
 * empty select starts as "" or false; the campaign dialog turns every "" into null before it
 * sends). Each body below is what that form sends; each is read as "not set" (a cleared link, an
 * empty text, or a field left as it is), and anything else wrong is still refused whole.
 */

let ctx: TestContext;
let team: Awaited<ReturnType<typeof campaignCompany>>;
let root: Member;
const call = caller(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  team = await campaignCompany(ctx);
  root = await buildPlatformOperator(ctx);
});
afterAll(() => ctx.close());

/** The campaign dialog's save: every "" of the form sent as null. */
function asCampaignDialogSends(values: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === "" ? null : v]));
}

describe("campaigns as the campaign dialog sends them", () => {
  const emptyDialog = {
    name: "",
    message1: "",
    message2: "",
    message3: "",
    message4: "",
    message5: "",
    confirmationMessage1: "",
    confirmationMessage2: "",
    confirmationMessage3: "",
    confirmationMessage4: "",
    confirmationMessage5: "",
    status: "INATIVA",
    confirmation: false,
    scheduledAt: "",
    whatsappId: "",
    contactListId: "",
    tagListId: "Nenhuma",
  };

  it("creates with message2-5 and confirmationMessage1-5 null, then edits one back to empty", async () => {
    const body = asCampaignDialogSends({
      ...emptyDialog,
      name: `Campanha ${uid()}`,
      message1: "Olá {nome}",
      companyId: team.company.id,
    });
    expect(body.message2).toBeNull();
    expect(body.confirmationMessage5).toBeNull();
    const made = expectOk<CampaignDTO>(await call("POST", "/campaigns", team.adminLogin, body), 201);
    expect(made).toMatchObject({
      status: "INATIVA",
      message1: "Olá {nome}",
      message2: "",
      message5: "",
      confirmationMessage1: "",
      confirmationMessage5: "",
      scheduledAt: null,
      whatsappId: null,
      contactListId: null,
      tagListId: null,
    });

    // The dialog reopened: it reads the campaign (null shown as ""), then saves it ("" sent as null).
    const shown = Object.fromEntries(Object.entries(made).map(([k, v]) => [k, v === null ? "" : v]));
    const withThird = expectOk<CampaignDTO>(
      await call(
        "PUT",
        `/campaigns/${made.id}`,
        team.adminLogin,
        asCampaignDialogSends({ ...shown, message3: "Terceira" }),
      ),
    );
    expect(withThird).toMatchObject({ message1: "Olá {nome}", message2: "", message3: "Terceira" });
    const cleared = expectOk<CampaignDTO>(
      await call(
        "PUT",
        `/campaigns/${made.id}`,
        team.adminLogin,
        asCampaignDialogSends({ ...shown, message3: "" }),
      ),
    );
    expect(cleared.message3).toBe("");
  });

  it("still refuses a message that is not text, whole", async () => {
    const name = `Recusada ${uid()}`;
    for (const message2 of [5, true, { text: "oi" }, ["oi"]])
      expect(
        fieldsOf(await call("POST", "/campaigns", team.adminLogin, { name, message1: "Oi", message2 })),
      ).toHaveProperty("message2");
    const listed = expectOk<{ records: CampaignDTO[] }>(
      await call("GET", `/campaigns?searchParam=${encodeURIComponent(name)}`, team.adminLogin),
    );
    expect(listed.records).toEqual([]);
  });
});

describe("users as the user dialog sends them", () => {
  const dialog = (email: string) => ({
    name: "Pessoa Nova",
    email,
    password: "Secret123",
    profile: "user",
    allTicket: "desabled",
    queueIds: [],
  });

  it("creates with whatsappId false (no default connection) and edits with '' or false to clear it", async () => {
    const created = expectOk<UserDTO>(
      await call("POST", "/users", team.adminLogin, {
        ...dialog(`nova.${uid()}@atende.test`),
        whatsappId: false,
      }),
      201,
    );
    expect(created.whatsappId).toBeNull();
    const connection = await buildConnection(ctx.deps.db, team.company.id);
    const read = expectOk<UserDTO>(await call("GET", `/users/${created.id}`, team.adminLogin));
    // The dialog sends the user it read, its form values and the connection select.
    const withConnection = expectOk<UserDTO>(
      await call("PUT", `/users/${created.id}`, team.adminLogin, {
        ...read,
        password: "",
        queueIds: [],
        whatsappId: connection.id,
      }),
    );
    expect(withConnection.whatsappId).toBe(connection.id);
    for (const none of ["", false, null]) {
      expectOk(
        await call("PUT", `/users/${created.id}`, team.adminLogin, { ...read, whatsappId: connection.id }),
      );
      const cleared = expectOk<UserDTO>(
        await call("PUT", `/users/${created.id}`, team.adminLogin, {
          ...read,
          password: "",
          whatsappId: none,
        }),
      );
      expect(cleared.whatsappId).toBeNull();
    }
  });

  it("still refuses a connection that is not an id, whole", async () => {
    const email = `recusada.${uid()}@atende.test`;
    for (const whatsappId of [true, "abc", 0, -1, 1.5, {}])
      expect(
        fieldsOf(await call("POST", "/users", team.adminLogin, { ...dialog(email), whatsappId })),
      ).toHaveProperty("whatsappId");
    const users = expectOk<{ users: UserDTO[] }>(
      await call("GET", `/users?searchParam=${encodeURIComponent(email)}`, team.adminLogin),
    );
    expect(users.users).toEqual([]);
  });
});

describe("queues as the queue dialog sends them", () => {
  const schedules = [{ weekday: "Segunda-feira", weekdayEn: "monday", startTime: "08:00", endTime: "18:00" }];

  it("creates with integrationId '', orderQueue '' and promptId null; edits sending the queue it read", async () => {
    const name = `Fila ${uid()}`.slice(0, 40);
    const created = expectOk<QueueDetailDTO>(
      await call("POST", "/queue", team.adminLogin, {
        name,
        color: "#2196f3",
        greetingMessage: "",
        outOfHoursMessage: "",
        orderQueue: "",
        integrationId: "",
        promptId: null,
        schedules,
      }),
      201,
    );
    expect(created).toMatchObject({ name, integrationId: null, promptId: null, orderQueue: null });
    const read = expectOk<QueueDetailDTO>(await call("GET", `/queue/${created.id}`, team.adminLogin));
    const edited = expectOk<QueueDetailDTO>(
      await call("PUT", `/queue/${created.id}`, team.adminLogin, {
        ...read,
        greetingMessage: "Bem-vindo",
        integrationId: read.integrationId || "",
        promptId: read.promptId ? read.promptId : null,
        schedules,
      }),
    );
    expect(edited).toMatchObject({ greetingMessage: "Bem-vindo", integrationId: null, promptId: null });
  });

  it("still refuses an integration that is not an id, whole", async () => {
    const name = `Recusada ${uid()}`.slice(0, 40);
    for (const integrationId of [true, "abc", 0, [1]])
      expect(
        fieldsOf(await call("POST", "/queue", team.adminLogin, { name, color: "#2196f3", integrationId })),
      ).toHaveProperty("integrationId");
    const queues = expectOk<QueueDetailDTO[]>(await call("GET", "/queue", team.adminLogin));
    expect(queues.map((q) => q.name)).not.toContain(name);
  });
});

describe("companies as the super user's company form sends them", () => {
  it("creates with recurrence '' (MENSAL) and saves an edit with recurrence '' without changing it", async () => {
    const plan = await buildPlan(ctx.deps.db);
    const form = {
      id: "",
      name: `Empresa ${uid()}`,
      email: `empresa.${uid()}@atende.test`,
      phone: "",
      planId: plan.id,
      status: true,
      dueDate: null,
      recurrence: "",
    };
    const created = expectOk<CompanyDTO>(await call("POST", "/companies", root.login, form), 201);
    expect(created).toMatchObject({ name: form.name, recurrence: "MENSAL", dueDate: null, phone: null });

    const yearly = expectOk<CompanyDTO>(
      await call("PUT", `/companies/${created.id}`, root.login, {
        ...form,
        id: created.id,
        recurrence: "ANUAL",
      }),
    );
    expect(yearly.recurrence).toBe("ANUAL");
    const saved = expectOk<CompanyDTO>(
      await call("PUT", `/companies/${created.id}`, root.login, {
        ...form,
        id: created.id,
        name: `${form.name} Editada`,
        recurrence: "",
      }),
    );
    expect(saved).toMatchObject({ name: `${form.name} Editada`, recurrence: "ANUAL" });
  });

  it("still refuses a recurrence it does not know, whole", async () => {
    const plan = await buildPlan(ctx.deps.db);
    const name = `Recusada ${uid()}`;
    for (const recurrence of ["SEMANAL", true, 12])
      expect(
        fieldsOf(
          await call("POST", "/companies", root.login, {
            name,
            email: `r.${uid()}@atende.test`,
            planId: plan.id,
            recurrence,
          }),
        ),
      ).toHaveProperty("recurrence");
    expectError(
      await call("PUT", `/companies/${team.company.id}`, root.login, { recurrence: "DIÁRIA" }),
      400,
      "ERR_VALIDATION",
    );
    const found = expectOk<{ companies: CompanyDTO[] }>(
      await call("GET", `/companies?searchParam=${encodeURIComponent(name)}`, root.login),
    );
    expect(found.companies).toEqual([]);
  });
});
