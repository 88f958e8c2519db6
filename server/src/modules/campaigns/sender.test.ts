import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampaignReportDTO } from "@atende/contracts";
import { and, asc } from "drizzle-orm";
import { campaigns, jobs, simulatorMessages } from "../../db/schema/index.js";
import { enqueueJob } from "../../jobs/runner.js";
import { phoneSends } from "../../test/channels.js";
import { jobsIdle } from "../../test/settled.js";
import { TINY_PNG, expectOk, fileForm } from "../../test/calls.js";
import { login } from "../../test/factories.js";
import { type TestContext, createTestContext, openTestDatabase, waitFor } from "../../test/harness.js";
import {
  buildList,
  buildTagAudience,
  campaignCalls,
  campaignCompany,
  drain,
  nextStepAt,
  phoneReceived,
  shippingsOf,
  storedTo,
} from "./testing.js";

/**
 * The sender on a real database and a simulator connection, the job runner driven by the test
 * and the app's clock frozen and moved by hand: the waits measured (random within messageInterval,
 * greaterInterval after every longerIntervalAfter sends), one variant per recipient with its
 * variables, the message in the contact's history, not-on-WhatsApp skipped, confirmation, opt-out,
 * cancel and restart sending only the unsent, a disconnected connection pausing; and two instances
 * racing on one database never sending one recipient twice.
 */

const CONFIG = { LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 };
let ctx: TestContext;
let current: () => TestContext = () => ctx;
const api = campaignCalls(() => current());
const T0 = new Date("2030-03-04T15:00:00.000Z"); // 12:00 in São Paulo

beforeAll(async () => {
  ctx = await createTestContext(CONFIG);
  ctx.built.startBackground();
  // The test runs the jobs itself, on its own clock.
  await ctx.built.channels.jobs.stop();
  ctx.clock.now = T0;
}, 30_000);
afterAll(async () => {
  await ctx.close();
});

/** Runs the campaign to the end, moving the clock to each next step; answers the clock at each send. */
async function runToEnd(companyId: number, maxSteps = 500) {
  for (let i = 0; i < maxSteps; i++) {
    await drain(ctx);
    const next = await nextStepAt(ctx.deps.db, companyId);
    if (!next) return;
    if (next > ctx.clock.now) ctx.clock.now = next;
  }
  throw new Error("the campaign never ended");
}

const past = () => new Date(ctx.clock.now.getTime() - 60_000).toISOString();

describe("campaign sender: pacing, variants, history", () => {
  it("waits 0..messageInterval s between sends and exactly greaterInterval after every longerIntervalAfter", async () => {
    const team = await campaignCompany(ctx);
    await api.settings(team.adminLogin, { messageInterval: 20, longerIntervalAfter: 3, greaterInterval: 60 });
    const { list, items } = await buildList(
      ctx.deps.db,
      team.company.id,
      Array.from({ length: 8 }, (_, i) => ({ name: `Pessoa ${i}` })),
    );
    const campaign = await api.create(team.adminLogin, {
      name: "Ritmo",
      message1: "Oi {nome}",
      contactListId: list.id,
      whatsappId: team.connection.id,
      scheduledAt: past(),
    });
    expect(campaign.status).toBe("PROGRAMADA");
    await runToEnd(team.company.id);
    const rows = await shippingsOf(ctx.deps.db, campaign.id);
    expect(rows.map((r) => r.state)).toEqual(Array(8).fill("sent"));
    const times = rows.map((r) => r.deliveredAt!.getTime());
    const gaps = times.slice(1).map((t, i) => (t - times[i]!) / 1000);
    expect(gaps).toHaveLength(7);
    for (const [i, gap] of gaps.entries()) {
      // The wait after send n (1-based) is gaps[n-1]: after sends 3 and 6, the greater interval.
      if ((i + 1) % 3 === 0) expect(gap, `after send ${i + 1}`).toBe(60);
      else {
        expect(Number.isInteger(gap)).toBe(true);
        expect(gap).toBeGreaterThanOrEqual(0);
        expect(gap).toBeLessThanOrEqual(20);
      }
    }
    expect((await api.get(team.adminLogin, campaign.id)).status).toBe("FINALIZADA");
    for (const [i, item] of items.entries())
      expect(await phoneReceived(ctx.deps.db, team.connection.id, item.number)).toEqual([`Oi Pessoa ${i}`]);
  }, 60_000);

  it("gives each recipient exactly one of the non-empty variants, variables filled, stored in the contact's history", async () => {
    const team = await campaignCompany(ctx);
    await api.settings(team.adminLogin, {
      messageInterval: 0,
      longerIntervalAfter: 0,
      greaterInterval: 0,
      variables: [{ key: "loja", value: "Loja Centro" }],
    });
    const { list, items } = await buildList(
      ctx.deps.db,
      team.company.id,
      Array.from({ length: 24 }, (_, i) => ({ name: i % 4 === 0 ? "" : `P${i}`, email: `p${i}@x.test` })),
    );
    const campaign = await api.create(team.adminLogin, {
      name: "Variantes",
      message1: "A: Olá {nome}, {loja}!",
      message2: "",
      message3: "C: {email} / {numero}",
      message4: "   ",
      message5: "E: oi {nome}",
      contactListId: list.id,
      whatsappId: team.connection.id,
      scheduledAt: past(),
    });
    await runToEnd(team.company.id);
    const rows = await shippingsOf(ctx.deps.db, campaign.id);
    const used = new Set<number>();
    for (const item of items) {
      const row = rows.find((r) => r.number === item.number)!;
      const got = await phoneReceived(ctx.deps.db, team.connection.id, item.number);
      expect(got, item.number).toHaveLength(1);
      expect([1, 3, 5]).toContain(row.variant);
      used.add(row.variant!);
      const expected = {
        1: item.name ? `A: Olá ${item.name}, Loja Centro!` : "A: Olá, Loja Centro!",
        3: `C: ${item.email} / ${item.number}`,
        5: item.name ? `E: oi ${item.name}` : "E: oi",
      }[row.variant as 1 | 3 | 5];
      expect(got[0]).toBe(expected);
      expect(got[0]).not.toContain("{");
      // The same text in the contact's history, through the agents' outbound path.
      const stored = await storedTo(ctx.deps.db, team.company.id, row.contactId!);
      expect(stored.map((m) => m.body)).toEqual([expected]);
      expect(stored[0]!.wid).toBe(row.wid);
    }
    // 24 recipients, 3 variants: every one is picked (the chance one never is: 3·(2/3)^24 < 0.2%).
    expect(used.size).toBeGreaterThan(1);
  }, 60_000);

  it("sends to every contact with the tag; skips numbers not on WhatsApp and goes on", async () => {
    const team = await campaignCompany(ctx);
    await api.settings(team.adminLogin, { messageInterval: 0, longerIntervalAfter: 0 });
    const { tag, people } = await buildTagAudience(ctx.deps.db, team.company.id, 3);
    const { list, items } = await buildList(ctx.deps.db, team.company.id, [
      { name: "Bom" },
      { name: "Sem zap", number: "5511987650000" },
      { name: "Conferido sem zap", isWhatsappValid: false },
    ]);
    const byTag = await api.create(team.adminLogin, {
      name: "Por tag",
      message1: "Promo",
      tagListId: tag.id,
      whatsappId: team.connection.id,
      scheduledAt: past(),
    });
    const byList = await api.create(team.adminLogin, {
      name: "Lista",
      message1: "Promo lista",
      contactListId: list.id,
      whatsappId: team.connection.id,
      scheduledAt: past(),
    });
    await runToEnd(team.company.id);
    for (const p of people)
      expect(await phoneReceived(ctx.deps.db, team.connection.id, p.number)).toEqual(["Promo"]);
    const rows = await shippingsOf(ctx.deps.db, byList.id);
    expect(rows.map((r) => [r.name, r.state, r.error])).toEqual([
      ["Bom", "sent", null],
      ["Sem zap", "skipped", "ERR_CAMPAIGN_NOT_ON_WHATSAPP"],
      ["Conferido sem zap", "skipped", "ERR_CAMPAIGN_NOT_ON_WHATSAPP"],
    ]);
    expect(await phoneReceived(ctx.deps.db, team.connection.id, items[1]!.number)).toEqual([]);
    for (const id of [byTag.id, byList.id])
      expect((await api.get(team.adminLogin, id)).status).toBe("FINALIZADA");
    const report = expectOk<CampaignReportDTO>(
      await api.call("GET", `/campaigns/${byList.id}/report`, team.adminLogin),
    );
    expect(report.totals).toMatchObject({ total: 3, valid: 1, sent: 1, skipped: 2, failed: 0, pending: 0 });
  }, 60_000);
});

/** The uploadList form (POST /files/uploadList/{id}): each file with the option it is for. */
function fileListForm(parts: { id: number; data: Buffer; filename: string; type: string }[]) {
  const boundary = `----atende${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  const field = (name: string, value: string) =>
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  field("typeArch", "fileList");
  for (const p of parts) {
    field("id", String(p.id));
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`,
      ),
      p.data,
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

/** What a phone got from the connection: text, kind and the file's name and type. */
async function phoneGot(whatsappId: number, number: string) {
  const rows = await ctx.deps.db
    .select()
    .from(simulatorMessages)
    .where(
      and(
        eq(simulatorMessages.whatsappId, whatsappId),
        eq(simulatorMessages.number, number),
        eq(simulatorMessages.direction, "out"),
      ),
    )
    .orderBy(asc(simulatorMessages.id));
  return rows.map((r) => ({
    body: r.body,
    kind: r.kind,
    file: r.media ? { name: r.media.filename, type: r.media.mimetype } : null,
  }));
}

describe("campaign sender: media and the file list", () => {
  it("sends the message with the campaign's media, then each file of its file list with its name and type", async () => {
    const team = await campaignCompany(ctx);
    await api.settings(team.adminLogin, { messageInterval: 0, longerIntervalAfter: 0 });
    const { list, items } = await buildList(ctx.deps.db, team.company.id, [{ name: "Ana" }, { name: "Bia" }]);
    const files = expectOk<{ id: number; options: { id: number; name: string }[] }>(
      await api.call("POST", "/files", team.adminLogin, {
        name: "Catálogo de verão",
        message: "Nossos arquivos",
        options: [{ name: "Tabela de preços" }, { name: "contatos.csv" }, { name: "Sem arquivo" }],
      }),
      201,
    );
    const [prices, contacts] = files.options;
    const pdf = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
    const form = fileListForm([
      { id: prices!.id, data: pdf, filename: "precos.pdf", type: "application/pdf" },
      { id: contacts!.id, data: Buffer.from("nome,numero\nAna,1\n"), filename: "c.csv", type: "text/csv" },
    ]);
    expectOk(
      await api.call("POST", `/files/uploadList/${files.id}`, team.adminLogin, form.payload, form.headers),
    );

    const draft = await api.create(team.adminLogin, {
      name: "Com arquivos",
      message1: "Oi {nome}, veja a foto",
      contactListId: list.id,
      fileListId: files.id,
      whatsappId: team.connection.id,
    });
    const photo = fileForm(TINY_PNG, "foto da loja.png", "image/png");
    expectOk(
      await api.call(
        "POST",
        `/campaigns/${draft.id}/media-upload`,
        team.adminLogin,
        photo.payload,
        photo.headers,
      ),
    );
    expect(
      expectOk<{ status: string }>(
        await api.call("PUT", `/campaigns/${draft.id}`, team.adminLogin, { scheduledAt: past() }),
      ).status,
    ).toBe("PROGRAMADA");
    await runToEnd(team.company.id);
    await waitFor(async () => {
      await drain(ctx);
      return (await phoneGot(team.connection.id, items[1]!.number)).length >= 3;
    }, 10_000);

    expect((await api.get(team.adminLogin, draft.id)).status).toBe("FINALIZADA");
    for (const item of items)
      expect(await phoneGot(team.connection.id, item.number), item.name).toEqual([
        {
          body: `Oi ${item.name}, veja a foto`,
          kind: "image",
          file: { name: "foto_da_loja.png", type: "image/png" },
        },
        { body: "", kind: "document", file: { name: "Tabela de preços.pdf", type: "application/pdf" } },
        { body: "", kind: "document", file: { name: "contatos.csv", type: "text/csv" } },
      ]);
    // The recipient's row points at the message itself, the one with the media.
    const rows = await shippingsOf(ctx.deps.db, draft.id);
    for (const row of rows) {
      const stored = await storedTo(ctx.deps.db, team.company.id, row.contactId!);
      expect(stored.find((m) => m.id === row.messageId)).toMatchObject({
        body: row.message,
        mediaName: "foto_da_loja.png",
      });
      expect(stored).toHaveLength(3);
    }
  }, 60_000);
});

describe("campaign sender: cancel, restart, confirmation, opt-out, pause", () => {
  it("cancel stops before the next recipient; restart sends only those not sent", async () => {
    const team = await campaignCompany(ctx);
    await api.settings(team.adminLogin, { messageInterval: 10, longerIntervalAfter: 0 });
    const { list, items } = await buildList(
      ctx.deps.db,
      team.company.id,
      Array.from({ length: 6 }, () => ({})),
    );
    const campaign = await api.create(team.adminLogin, {
      name: "Cancelável",
      message1: "Oferta",
      contactListId: list.id,
      whatsappId: team.connection.id,
      scheduledAt: past(),
    });
    // Two sends, then cancel.
    for (let sent = 0; sent < 2;) {
      await drain(ctx);
      sent = (await shippingsOf(ctx.deps.db, campaign.id)).filter((r) => r.state === "sent").length;
      if (sent < 2) ctx.clock.now = (await nextStepAt(ctx.deps.db, team.company.id)) ?? ctx.clock.now;
    }
    // (A wait of 0 s may have let a third go in the same round: what counts is that none goes after.)
    const sentBefore = (await shippingsOf(ctx.deps.db, campaign.id)).filter((r) => r.state === "sent").length;
    expect(sentBefore).toBeLessThan(6);
    expectOk(await api.call("POST", `/campaigns/${campaign.id}/cancel`, team.adminLogin));
    ctx.clock.now = new Date(ctx.clock.now.getTime() + 3600_000);
    await drain(ctx);
    let rows = await shippingsOf(ctx.deps.db, campaign.id);
    expect(rows.filter((r) => r.state === "sent")).toHaveLength(sentBefore);
    expect((await api.get(team.adminLogin, campaign.id)).status).toBe("CANCELADA");
    // Cancel again: refused; restart.
    expect((await api.call("POST", `/campaigns/${campaign.id}/cancel`, team.adminLogin)).statusCode).toBe(
      409,
    );
    expect((await api.get(team.adminLogin, campaign.id)).status).toBe("CANCELADA");
    const restarted = expectOk<{ status: string }>(
      await api.call("POST", `/campaigns/${campaign.id}/restart`, team.adminLogin),
    );
    expect(restarted.status).toBe("EM_ANDAMENTO");
    await runToEnd(team.company.id);
    rows = await shippingsOf(ctx.deps.db, campaign.id);
    expect(rows.map((r) => r.state)).toEqual(Array(6).fill("sent"));
    for (const item of items)
      expect(await phoneReceived(ctx.deps.db, team.connection.id, item.number)).toEqual(["Oferta"]);
    expect((await api.get(team.adminLogin, campaign.id)).status).toBe("FINALIZADA");
    expect((await api.call("POST", `/campaigns/${campaign.id}/restart`, team.adminLogin)).statusCode).toBe(
      409,
    );
  }, 60_000);

  it("with confirmation: the confirmation first, the message after the answer; an opt-out word stops it for good", async () => {
    const team = await campaignCompany(ctx);
    await api.settings(team.adminLogin, { messageInterval: 0, longerIntervalAfter: 0 });
    const { list, items } = await buildList(ctx.deps.db, team.company.id, [
      { name: "Rita" },
      { name: "Saulo" },
    ]);
    const [rita, saulo] = items as [(typeof items)[0], (typeof items)[0]];
    const campaign = await api.create(team.adminLogin, {
      name: "Confirma",
      message1: "Aqui está a oferta, {nome}",
      confirmation: true,
      confirmationMessage2: "{nome}, posso enviar a oferta?",
      contactListId: list.id,
      whatsappId: team.connection.id,
      scheduledAt: past(),
    });
    await runToEnd(team.company.id);
    let rows = await shippingsOf(ctx.deps.db, campaign.id);
    expect(rows.map((r) => r.state)).toEqual(["awaiting_confirmation", "awaiting_confirmation"]);
    expect(rows.every((r) => r.confirmationRequestedAt && !r.deliveredAt)).toBe(true);
    expect(await phoneReceived(ctx.deps.db, team.connection.id, rita.number)).toEqual([
      "Rita, posso enviar a oferta?",
    ]);
    expect((await api.get(team.adminLogin, campaign.id)).status).toBe("EM_ANDAMENTO");

    expect(
      (await phoneSends(ctx, team.adminLogin, team.connection.id, { from: rita.number, body: "Sim" }))
        .statusCode,
    ).toBe(201);
    expect(
      (await phoneSends(ctx, team.adminLogin, team.connection.id, { from: saulo.number, body: " parar! " }))
        .statusCode,
    ).toBe(201);
    await waitFor(async () => {
      await drain(ctx);
      const now = await shippingsOf(ctx.deps.db, campaign.id);
      return now.every((r) => r.state !== "awaiting_confirmation");
    }, 10_000);
    rows = await shippingsOf(ctx.deps.db, campaign.id);
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(byName.Rita).toMatchObject({ state: "sent" });
    expect(byName.Rita!.confirmedAt).not.toBeNull();
    expect(byName.Rita!.deliveredAt).not.toBeNull();
    expect(byName.Saulo).toMatchObject({ state: "skipped", error: "ERR_CAMPAIGN_OPTED_OUT" });
    expect(await phoneReceived(ctx.deps.db, team.connection.id, rita.number)).toEqual([
      "Rita, posso enviar a oferta?",
      "Aqui está a oferta, Rita",
    ]);
    expect(await phoneReceived(ctx.deps.db, team.connection.id, saulo.number)).toEqual([
      "Saulo, posso enviar a oferta?",
    ]);
    expect((await api.get(team.adminLogin, campaign.id)).status).toBe("FINALIZADA");

    // Saulo is out of every later campaign; the dialog counts him; a word inside a sentence is no opt-out.
    const audience = expectOk<{ total: number; optedOut: number }>(
      await api.call("GET", `/campaigns/audience?contactListId=${list.id}`, team.adminLogin),
    );
    expect(audience).toEqual({ total: 2, optedOut: 1 });
    const later = await api.create(team.adminLogin, {
      name: "Depois",
      message1: "Nova oferta",
      contactListId: list.id,
      whatsappId: team.connection.id,
      scheduledAt: past(),
    });
    await runToEnd(team.company.id);
    expect((await shippingsOf(ctx.deps.db, later.id)).map((r) => [r.name, r.state])).toEqual([
      ["Rita", "sent"],
      ["Saulo", "skipped"],
    ]);
    expect(await phoneReceived(ctx.deps.db, team.connection.id, saulo.number)).toHaveLength(1);
  }, 60_000);

  it("answers arriving together (one inbound batch): each recipient confirmed and sent once, an opt-out skipping only its sender", async () => {
    const team = await campaignCompany(ctx);
    await api.settings(team.adminLogin, { messageInterval: 0, longerIntervalAfter: 0 });
    const { list, items } = await buildList(ctx.deps.db, team.company.id, [
      { name: "Ana" },
      { name: "Beto" },
      { name: "Caio" },
    ]);
    const [ana, beto, caio] = items as [(typeof items)[0], (typeof items)[0], (typeof items)[0]];
    const campaign = await api.create(team.adminLogin, {
      name: "Lote",
      message1: "Oferta para {nome}",
      confirmation: true,
      confirmationMessage2: "{nome}, posso enviar?",
      contactListId: list.id,
      whatsappId: team.connection.id,
      scheduledAt: past(),
    });
    await runToEnd(team.company.id);
    // Sent at once, so the pipeline stores them in as few transactions as it can: Ana twice.
    const answers = [
      { from: ana.number, body: "Sim" },
      { from: beto.number, body: "pode mandar" },
      { from: ana.number, body: "Quero sim!" },
      { from: caio.number, body: "parar" },
    ];
    const sent = await Promise.all(
      answers.map((a) => phoneSends(ctx, team.adminLogin, team.connection.id, a)),
    );
    expect(sent.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    await waitFor(async () => {
      await drain(ctx);
      const now = await shippingsOf(ctx.deps.db, campaign.id);
      return now.every((r) => r.state !== "awaiting_confirmation");
    }, 10_000);
    const rows = await shippingsOf(ctx.deps.db, campaign.id);
    expect(Object.fromEntries(rows.map((r) => [r.name, r.state]))).toEqual({
      Ana: "sent",
      Beto: "sent",
      Caio: "skipped",
    });
    expect(await phoneReceived(ctx.deps.db, team.connection.id, ana.number)).toEqual([
      "Ana, posso enviar?",
      "Oferta para Ana",
    ]);
    expect(await phoneReceived(ctx.deps.db, team.connection.id, beto.number)).toEqual([
      "Beto, posso enviar?",
      "Oferta para Beto",
    ]);
    expect(await phoneReceived(ctx.deps.db, team.connection.id, caio.number)).toEqual([
      "Caio, posso enviar?",
    ]);
    expect((await api.get(team.adminLogin, campaign.id)).status).toBe("FINALIZADA");
  }, 60_000);

  it("a recipient who never answers the confirmation is not confirmed after the timeout, and the campaign finishes", async () => {
    const team = await campaignCompany(ctx);
    // The default is 24 h; a longer timeout set later moves a pending deadline on.
    const stored = expectOk<{ key: string; value: string }[]>(
      await api.call("GET", "/campaign-settings", team.adminLogin),
    );
    expect(stored.find((r) => r.key === "confirmationTimeoutHours")).toBeUndefined();
    await api.settings(team.adminLogin, { messageInterval: 0, longerIntervalAfter: 0 });
    const refused = await api.call("POST", "/campaign-settings", team.adminLogin, {
      settings: { confirmationTimeoutHours: 0 },
    });
    expect(refused.statusCode).toBe(400);
    const { list, items } = await buildList(ctx.deps.db, team.company.id, [
      { name: "Responde" },
      { name: "Calado" },
      { name: "Tardio" },
    ]);
    const [answers, silent, late] = items as [(typeof items)[0], (typeof items)[0], (typeof items)[0]];
    const campaign = await api.create(team.adminLogin, {
      name: "Prazo",
      message1: "A oferta, {nome}",
      confirmation: true,
      confirmationMessage1: "{nome}, quer a oferta?",
      contactListId: list.id,
      whatsappId: team.connection.id,
      scheduledAt: past(),
    });
    await runToEnd(team.company.id);
    const requestedAt = ctx.clock.now.getTime();
    expect((await shippingsOf(ctx.deps.db, campaign.id)).map((r) => r.state)).toEqual(
      Array(3).fill("awaiting_confirmation"),
    );
    // 23 h later one answers: sent; the campaign still waits for the other two.
    ctx.clock.now = new Date(requestedAt + 23 * 3600_000);
    await phoneSends(ctx, team.adminLogin, team.connection.id, { from: answers.number, body: "quero" });
    await waitFor(async () => {
      await drain(ctx);
      return (await shippingsOf(ctx.deps.db, campaign.id))[0]!.state === "sent";
    }, 10_000);
    expect((await api.get(team.adminLogin, campaign.id)).status).toBe("EM_ANDAMENTO");

    // The timeout becomes 30 h before the 24 h pass: at 25 h nobody is given up yet.
    await api.settings(team.adminLogin, { confirmationTimeoutHours: 30 });
    ctx.clock.now = new Date(requestedAt + 25 * 3600_000);
    await drain(ctx);
    expect((await shippingsOf(ctx.deps.db, campaign.id)).map((r) => r.state)).toEqual([
      "sent",
      "awaiting_confirmation",
      "awaiting_confirmation",
    ]);
    // Past 30 h: the two silent ones are not confirmed, the campaign is FINALIZADA.
    ctx.clock.now = new Date(requestedAt + 30 * 3600_000 + 1000);
    await drain(ctx);
    const rows = await shippingsOf(ctx.deps.db, campaign.id);
    expect(rows.map((r) => [r.name, r.state])).toEqual([
      ["Responde", "sent"],
      ["Calado", "unconfirmed"],
      ["Tardio", "unconfirmed"],
    ]);
    expect(rows[1]!.deliveredAt).toBeNull();
    expect((await api.get(team.adminLogin, campaign.id)).status).toBe("FINALIZADA");
    const report = expectOk<CampaignReportDTO>(
      await api.call("GET", `/campaigns/${campaign.id}/report`, team.adminLogin),
    );
    expect(report.totals).toMatchObject({
      total: 3,
      sent: 1,
      confirmationRequested: 3,
      confirmed: 1,
      unconfirmed: 2,
      awaitingConfirmation: 0,
      pending: 0,
    });
    const filtered = expectOk<CampaignReportDTO>(
      await api.call("GET", `/campaigns/${campaign.id}/report?state=unconfirmed`, team.adminLogin),
    );
    expect(filtered.records.map((r) => r.name)).toEqual(["Calado", "Tardio"]);

    // A late answer sends nothing (stored with whatever it queued when the request answers; drained).
    await phoneSends(ctx, team.adminLogin, team.connection.id, { from: late.number, body: "sim" });
    await drain(ctx);
    expect(await phoneReceived(ctx.deps.db, team.connection.id, late.number)).toEqual([
      "Tardio, quer a oferta?",
    ]);
    expect(await phoneReceived(ctx.deps.db, team.connection.id, silent.number)).toEqual([
      "Calado, quer a oferta?",
    ]);
    expect(await phoneReceived(ctx.deps.db, team.connection.id, answers.number)).toEqual([
      "Responde, quer a oferta?",
      "A oferta, Responde",
    ]);
    expect((await shippingsOf(ctx.deps.db, campaign.id))[2]!.state).toBe("unconfirmed");
  }, 60_000);

  it("pauses while the connection is down (shown on the campaign) and resumes when it is back", async () => {
    const team = await campaignCompany(ctx);
    await api.settings(team.adminLogin, { messageInterval: 0, longerIntervalAfter: 0 });
    const { list } = await buildList(ctx.deps.db, team.company.id, [{}, {}]);
    const { whatsapps } = await import("../../db/schema/index.js");
    await ctx.deps.db
      .update(whatsapps)
      .set({ status: "DISCONNECTED" })
      .where(eq(whatsapps.id, team.connection.id));
    const campaign = await api.create(team.adminLogin, {
      name: "Pausa",
      message1: "Oi",
      contactListId: list.id,
      whatsappId: team.connection.id,
      scheduledAt: past(),
    });
    await drain(ctx);
    expect(await api.get(team.adminLogin, campaign.id)).toMatchObject({
      status: "EM_ANDAMENTO",
      pausedReason: "ERR_CAMPAIGN_PAUSED_DISCONNECTED",
    });
    expect((await shippingsOf(ctx.deps.db, campaign.id)).every((r) => r.state === "pending")).toBe(true);
    await ctx.deps.db
      .update(whatsapps)
      .set({ status: "CONNECTED" })
      .where(eq(whatsapps.id, team.connection.id));
    await runToEnd(team.company.id);
    expect(await api.get(team.adminLogin, campaign.id)).toMatchObject({
      status: "FINALIZADA",
      pausedReason: null,
    });
  }, 60_000);
});

describe("campaign sender: two instances", () => {
  it("never sends one recipient twice with two instances and a second chain racing", async () => {
    const database = await openTestDatabase();
    const one = await createTestContext(CONFIG, { database });
    const two = await createTestContext(CONFIG, { database });
    one.built.startBackground();
    two.built.startBackground();
    current = () => one;
    try {
      const team = await campaignCompany(one);
      await api.settings(team.adminLogin, { messageInterval: 0, longerIntervalAfter: 0 });
      const { list, items } = await buildList(
        one.deps.db,
        team.company.id,
        Array.from({ length: 15 }, () => ({})),
      );
      const campaign = await api.create(team.adminLogin, {
        name: "Corrida",
        message1: "Uma vez só",
        contactListId: list.id,
        whatsappId: team.connection.id,
        scheduledAt: new Date(Date.now() + 1500).toISOString(),
      });
      // A second chain of the same run, as a crash between steps could leave: both race for every recipient.
      await waitFor(
        async () => (await api.get(team.adminLogin, campaign.id)).status === "EM_ANDAMENTO",
        15_000,
      );
      const [row] = await one.deps.db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
      for (let i = 0; i < 3; i++)
        await enqueueJob(two.deps.db, {
          type: "campaign-step",
          companyId: team.company.id,
          payload: { campaignId: campaign.id, run: row!.run, sent: 0 },
        });
      await waitFor(
        async () => (await api.get(team.adminLogin, campaign.id)).status === "FINALIZADA",
        30_000,
      );
      // Both instances are done with everything due: a second send to anyone would show now.
      await jobsIdle(one, team.company.id);
      for (const item of items)
        expect(await phoneReceived(one.deps.db, team.connection.id, item.number), item.number).toEqual([
          "Uma vez só",
        ]);
      const adminTwo = await login(two, team.admin.email);
      expect((await api.call("GET", `/campaigns/${campaign.id}`, adminTwo)).statusCode).toBe(200);
      const left = await one.deps.db.select().from(jobs).where(eq(jobs.status, "failed"));
      expect(left.filter((j) => j.type.startsWith("campaign"))).toEqual([]);
    } finally {
      current = () => ctx;
      await one.close();
      await two.close();
      await database.drop();
    }
  }, 90_000);
});
