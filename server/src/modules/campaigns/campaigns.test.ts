import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  CampaignDTO,
  CampaignEventPayload,
  CampaignReportDTO,
  CampaignSettingRow,
  CampaignsPage,
} from "@atende/contracts";
import { TINY_PNG, expectError, expectOk, fieldsOf, fileForm } from "../../test/calls.js";
import { type Member, buildCompany, buildMember } from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import { buildList, campaignCalls, campaignCompany, drain, enableCampaigns } from "./testing.js";
import { caughtUp } from "../../test/settled.js";

/**
 * The campaigns' calls over HTTP on a real database: the dialog's validation, INATIVA/PROGRAMADA,
 * what a campaign needs before it is scheduled, the editable rule, the plan's flag and limit, who may
 * call, tenant isolation, settings, media, the report and its CSV, and the live channel.
 */

const CONFIG = { LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 };
let ctx: TestContext;
let team: Awaited<ReturnType<typeof campaignCompany>>;
let agent: Member;
let adminB: Member;
const sockets: Socket[] = [];
const api = campaignCalls(() => ctx);
const { call } = api;
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

beforeAll(async () => {
  ctx = await createTestContext(CONFIG);
  ctx.built.startBackground();
  await ctx.built.channels.jobs.stop();
  team = await campaignCompany(ctx);
  agent = await buildMember(ctx, team.company.id, { profile: "user" });
  const companyB = await buildCompany(ctx.deps.db);
  await enableCampaigns(ctx.deps.db, companyB.id);
  adminB = await buildMember(ctx, companyB.id, { profile: "admin" });
}, 30_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  await ctx.close();
});

describe("campaigns: the dialog and the statuses", () => {
  it("answers the name's rules and refuses a connection, tag or list of another company", async () => {
    expect(fieldsOf(await call("POST", "/campaigns", team.adminLogin, { name: "A" })).name).toBe(
      "Too Short!",
    );
    expect(fieldsOf(await call("POST", "/campaigns", team.adminLogin, { name: "x".repeat(51) })).name).toBe(
      "Too Long!",
    );
    expect(fieldsOf(await call("POST", "/campaigns", team.adminLogin, {})).name).toBe("Required");
    const other = await buildList(ctx.deps.db, adminB.companyId, [{}]);
    expectError(
      await call("POST", "/campaigns", team.adminLogin, { name: "Outra", contactListId: other.list.id }),
      404,
      "ERR_CAMPAIGN_CONTACT_LIST_NOT_FOUND",
    );
  });

  it("is INATIVA without a time, PROGRAMADA with one; scheduling needs a message, an audience and a connection", async () => {
    const { list } = await buildList(ctx.deps.db, team.company.id, [{}]);
    // Forms of this API family send "" and "Nenhuma" for empty selects.
    const draft = await api.create(team.adminLogin, {
      name: "Rascunho",
      scheduledAt: "",
      tagListId: "Nenhuma",
      fileListId: "",
      whatsappId: "",
    });
    expect(draft).toMatchObject({ status: "INATIVA", scheduledAt: null, tagListId: null, whatsappId: null });
    const base = { name: "Programada", scheduledAt: inMinutes(120) };
    expectError(await call("POST", "/campaigns", team.adminLogin, base), 400, "ERR_CAMPAIGN_NO_MESSAGE");
    expectError(
      await call("POST", "/campaigns", team.adminLogin, { ...base, message1: "Oi", confirmation: true }),
      400,
      "ERR_CAMPAIGN_NO_CONFIRMATION_MESSAGE",
    );
    expectError(
      await call("POST", "/campaigns", team.adminLogin, { ...base, message1: "Oi" }),
      400,
      "ERR_CAMPAIGN_NO_AUDIENCE",
    );
    expectError(
      await call("POST", "/campaigns", team.adminLogin, { ...base, message1: "Oi", contactListId: list.id }),
      400,
      "ERR_CAMPAIGN_NO_CONNECTION",
    );
    const scheduled = await api.create(team.adminLogin, {
      ...base,
      message1: "Oi",
      contactListId: list.id,
      whatsappId: team.connection.id,
    });
    expect(scheduled).toMatchObject({
      status: "PROGRAMADA",
      contactList: { id: list.id, name: list.name },
      whatsapp: { id: team.connection.id },
    });
    // The form's local time is the company's (São Paulo by default).
    const local = expectOk<CampaignDTO>(
      await call("PUT", `/campaigns/${scheduled.id}`, team.adminLogin, { scheduledAt: "2099-01-01T10:00" }),
    );
    expect(local.scheduledAt).toBe("2099-01-01T13:00:00.000Z");
    expect(
      fieldsOf(await call("PUT", `/campaigns/${scheduled.id}`, team.adminLogin, { scheduledAt: "amanhã" }))
        .scheduledAt,
    ).toBe("Valor inválido");
    // Clearing the time takes it back to INATIVA.
    const back = expectOk<CampaignDTO>(
      await call("PUT", `/campaigns/${scheduled.id}`, team.adminLogin, { scheduledAt: "" }),
    );
    expect(back.status).toBe("INATIVA");
  });

  it("is editable only when INATIVA, PROGRAMADA more than an hour ahead, or CANCELADA", async () => {
    const { list } = await buildList(ctx.deps.db, team.company.id, [{}]);
    const soon = await api.create(team.adminLogin, {
      name: "Em breve",
      message1: "Oi",
      contactListId: list.id,
      whatsappId: team.connection.id,
      scheduledAt: inMinutes(30),
    });
    expectError(
      await call("PUT", `/campaigns/${soon.id}`, team.adminLogin, { name: "Outro nome" }),
      409,
      "ERR_CAMPAIGN_NOT_EDITABLE",
    );
    // Cancelled, it can be edited and saved again.
    const cancelled = expectOk<CampaignDTO>(
      await call("POST", `/campaigns/${soon.id}/cancel`, team.adminLogin),
    );
    expect(cancelled.status).toBe("CANCELADA");
    const saved = expectOk<CampaignDTO>(
      await call("PUT", `/campaigns/${soon.id}`, team.adminLogin, { name: "Outro nome" }),
    );
    expect(saved).toMatchObject({ name: "Outro nome", status: "CANCELADA" });
    const later = await api.create(team.adminLogin, {
      name: "Mais tarde",
      message1: "Oi",
      contactListId: list.id,
      whatsappId: team.connection.id,
      scheduledAt: inMinutes(90),
    });
    expectOk(await call("PUT", `/campaigns/${later.id}`, team.adminLogin, { message2: "Olá" }));
    expectError(
      await call("POST", `/campaigns/${later.id}/restart`, team.adminLogin),
      409,
      "ERR_CAMPAIGN_CANNOT_RESTART",
    );
    const draft = await api.create(team.adminLogin, { name: "Inativa" });
    expectError(
      await call("POST", `/campaigns/${draft.id}/cancel`, team.adminLogin),
      409,
      "ERR_CAMPAIGN_CANNOT_CANCEL",
    );
  });

  it("lists as {records, count, hasMore}, searches by name, and deletes", async () => {
    const name = `Busca ${Date.now()}`;
    const made = await api.create(team.adminLogin, { name });
    const page = expectOk<CampaignsPage>(
      await call("GET", `/campaigns/?searchParam=${encodeURIComponent(name)}`, team.adminLogin),
    );
    expect(page).toMatchObject({ count: 1, hasMore: false });
    expect(page.records.map((r) => r.id)).toEqual([made.id]);
    expectOk(await call("DELETE", `/campaigns/${made.id}`, team.adminLogin), 204);
    expectError(await call("GET", `/campaigns/${made.id}`, team.adminLogin), 404, "ERR_CAMPAIGN_NOT_FOUND");
  });

  it("keeps a media file with the message (spaces in its name as underscores) and removes it", async () => {
    const made = await api.create(team.adminLogin, { name: "Com mídia" });
    const form = fileForm(TINY_PNG, "minha foto.png", "image/png");
    const withMedia = expectOk<CampaignDTO>(
      await call("POST", `/campaigns/${made.id}/media-upload`, team.adminLogin, form.payload, form.headers),
    );
    expect(withMedia.mediaName).toBe("minha_foto.png");
    expect(withMedia.mediaUrl).toMatch(/^\/media\//);
    const without = expectOk<CampaignDTO>(
      await call("DELETE", `/campaigns/${made.id}/media-upload`, team.adminLogin),
    );
    expect(without).toMatchObject({ mediaPath: null, mediaName: null });
  });
});

describe("campaigns: plan, access, tenants", () => {
  it("needs the plan's useCampaigns, and counts the plan's campaign limit", async () => {
    const company = await buildCompany(ctx.deps.db);
    const admin = await buildMember(ctx, company.id, { profile: "admin" });
    expectError(await call("GET", "/campaigns", admin.login), 403, "ERR_PLAN_FEATURE_DISABLED");
    expectError(await call("GET", "/campaign-settings", admin.login), 403, "ERR_PLAN_FEATURE_DISABLED");
    await enableCampaigns(ctx.deps.db, company.id, 1);
    await api.create(admin.login, { name: "Primeira" });
    expectError(
      await call("POST", "/campaigns", admin.login, { name: "Segunda" }),
      403,
      "ERR_PLAN_CAMPAIGN_LIMIT",
    );
  });

  it("is the admin's: an agent is refused", async () => {
    expectError(await call("GET", "/campaigns", agent.login), 403, "ERR_NO_PERMISSION");
    const made = await api.create(team.adminLogin, { name: "Do admin" });
    for (const [method, url] of [
      ["GET", `/campaigns/${made.id}`],
      ["PUT", `/campaigns/${made.id}`],
      ["DELETE", `/campaigns/${made.id}`],
      ["GET", `/campaigns/${made.id}/report`],
      ["POST", `/campaigns/${made.id}/cancel`],
    ] as const)
      expectError(
        await call(method, url, agent.login, method === "PUT" ? { name: "Meu" } : undefined),
        403,
        "ERR_NO_PERMISSION",
      );
    expect((await api.get(team.adminLogin, made.id)).name).toBe("Do admin");
  });

  it("another company sees none of it: 404 on every call with this company's ids", async () => {
    const made = await api.create(team.adminLogin, { name: "Só nossa" });
    for (const [method, url] of [
      ["GET", `/campaigns/${made.id}`],
      ["PUT", `/campaigns/${made.id}`],
      ["DELETE", `/campaigns/${made.id}`],
      ["POST", `/campaigns/${made.id}/cancel`],
      ["POST", `/campaigns/${made.id}/restart`],
      ["DELETE", `/campaigns/${made.id}/media-upload`],
      ["GET", `/campaigns/${made.id}/report`],
      ["GET", `/campaigns/${made.id}/report.csv`],
    ] as const)
      expectError(
        await call(method, url, adminB.login, method === "PUT" ? { name: "Deles" } : undefined),
        404,
        "ERR_CAMPAIGN_NOT_FOUND",
      );
    const theirs = expectOk<CampaignsPage>(await call("GET", "/campaigns", adminB.login));
    expect(theirs.records.find((r) => r.id === made.id)).toBeUndefined();
    expect((await api.get(team.adminLogin, made.id)).name).toBe("Só nossa");
    await api.settings(adminB.login, { messageInterval: 5 });
    const ours = expectOk<CampaignSettingRow[]>(await call("GET", "/campaign-settings", team.adminLogin));
    expect(ours.find((r) => r.key === "messageInterval")?.value ?? "20").not.toBe("5");
  });
});

describe("campaigns: settings, report, live", () => {
  it("stores settings as key and JSON value rows, a repeated variable key kept once", async () => {
    const company = await buildCompany(ctx.deps.db);
    await enableCampaigns(ctx.deps.db, company.id);
    const admin = await buildMember(ctx, company.id, { profile: "admin" });
    expect(expectOk<CampaignSettingRow[]>(await call("GET", "/campaign-settings", admin.login))).toEqual([]);
    const rows = expectOk<CampaignSettingRow[]>(
      await call("POST", "/campaign-settings", admin.login, {
        settings: {
          messageInterval: 10,
          longerIntervalAfter: 5,
          greaterInterval: 30,
          variables: [
            { key: "loja", value: "Centro" },
            { key: "loja", value: "Outra" },
          ],
          optOutWords: ["sair", "Tchau"],
          sendWindowStart: 8,
          sendWindowEnd: 20,
          dailyCap: 500,
        },
      }),
    );
    const byKey = Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
    expect(byKey).toEqual({
      messageInterval: 10,
      longerIntervalAfter: 5,
      greaterInterval: 30,
      variables: [{ key: "loja", value: "Centro" }],
      optOutWords: ["SAIR", "TCHAU"],
      sendWindowStart: 8,
      sendWindowEnd: 20,
      dailyCap: 500,
    });
    expect(
      fieldsOf(await call("POST", "/campaign-settings", admin.login, { settings: { messageInterval: -1 } })),
    ).toHaveProperty(["settings.messageInterval"]);
  });

  it("reports totals and recipients, as JSON and CSV, and tells the admins live", async () => {
    const socket = await connectSocket(await ctx.url(), team.adminLogin.token);
    sockets.push(socket);
    const heard = record<CampaignEventPayload>(socket, `company-${team.company.id}-campaign`);
    await api.settings(team.adminLogin, { messageInterval: 0, longerIntervalAfter: 0 });
    const { list } = await buildList(ctx.deps.db, team.company.id, [
      { name: "Ana", email: "ana@x.test" },
      { name: "=Bob", isWhatsappValid: false },
    ]);
    const campaign = await api.create(team.adminLogin, {
      name: "Relatório",
      message1: "Oi {nome}",
      contactListId: list.id,
      whatsappId: team.connection.id,
      scheduledAt: new Date(Date.now() - 1000).toISOString(),
    });
    await drain(ctx);
    await waitFor(async () => (await api.get(team.adminLogin, campaign.id)).status === "FINALIZADA", 10_000);
    const report = expectOk<CampaignReportDTO>(
      await call("GET", `/campaigns/${campaign.id}/report`, team.adminLogin),
    );
    expect(report.totals).toMatchObject({ total: 2, valid: 1, sent: 1, skipped: 1 });
    expect(report.records.map((r) => [r.name, r.state])).toEqual([
      ["Ana", "sent"],
      ["=Bob", "skipped"],
    ]);
    const sentOnly = expectOk<CampaignReportDTO>(
      await call("GET", `/campaigns/${campaign.id}/report?state=sent`, team.adminLogin),
    );
    expect(sentOnly.records.map((r) => r.name)).toEqual(["Ana"]);
    const csv = await call("GET", `/campaigns/${campaign.id}/report.csv`, team.adminLogin);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toMatch(/text\/csv/);
    const lines = csv.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe(
      "nome,numero,email,estado,variante,confirmacao_pedida_em,confirmado_em,enviado_em,ack,motivo",
    );
    expect(lines[1]).toMatch(/^Ana,\d+,ana@x\.test,sent,1,,,\d{4}-/);
    // A formula-looking name is defused; the reason is in the caller's language.
    expect(lines[2]).toMatch(/^'=Bob,.*skipped,.*Número não está no WhatsApp\.$/);
    await waitFor(() => heard.some((e) => e.action === "update" && e.record.status === "FINALIZADA"), 5_000);
    expect(heard.some((e) => e.action === "create" && e.record.id === campaign.id)).toBe(true);
    const progress = heard.filter((e) => e.action === "progress" && e.campaignId === campaign.id);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    // Another company's admin hears nothing of it.
    const other = await connectSocket(await ctx.url(), adminB.login.token);
    sockets.push(other);
    const theirs = record<CampaignEventPayload>(other, `company-${team.company.id}-campaign`);
    const quiet = await api.create(team.adminLogin, { name: "Silêncio" });
    // The company heard it; whatever went to the other admin's socket by then has reached it.
    await waitFor(() => heard.some((e) => e.action === "create" && e.record.id === quiet.id), 5_000);
    await caughtUp(other);
    expect(theirs).toEqual([]);
  }, 60_000);
});
