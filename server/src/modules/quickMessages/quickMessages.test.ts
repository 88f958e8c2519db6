import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompanyEventPayloads, QuickMessageDTO, QuickMessagesPage } from "@atende/contracts";
import { TINY_PNG, caller, expectError, expectOk, fieldsOf, fileForm } from "../../test/calls.js";
import { buildCompany, type Member, uid, buildMember } from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import { caughtUp } from "../../test/settled.js";

/**
 * Quick messages on a real database: the shortcode rule ('Obrigatório'), the global (geral) flag
 * for admins only, who edits what (admin and supervisor any, a user only their own non-global
 * ones), who lists what (the page and the chat's '/' list), attachments, tenant isolation and the
 * live channel.
 */

let ctx: TestContext;
let admin: Member;
let supervisor: Member;
let ana: Member;
let aldo: Member;
let adminB: Member;
let companyId: number;
const sockets: Socket[] = [];
const call = caller(() => ctx);

async function create(who: Member, body: Record<string, unknown> = {}): Promise<QuickMessageDTO> {
  return expectOk<QuickMessageDTO>(
    await call("POST", "/quick-messages", who.login, {
      shortcode: `oi${uid()}`,
      message: "Olá! Como posso ajudar?",
      ...body,
    }),
    201,
  );
}
const chatList = async (who: Member) =>
  expectOk<QuickMessageDTO[]>(await call("GET", "/quick-messages/list", who.login)).map((q) => q.id);
const pageIds = async (who: Member, search = "") =>
  expectOk<QuickMessagesPage>(
    await call("GET", `/quick-messages?searchParam=${encodeURIComponent(search)}`, who.login),
  ).records.map((q) => q.id);

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  const company = await buildCompany(ctx.deps.db);
  companyId = company.id;
  admin = await buildMember(ctx, company.id, { profile: "admin", name: "Admin" });
  supervisor = await buildMember(ctx, company.id, { profile: "supervisor", name: "Sara" });
  ana = await buildMember(ctx, company.id, { name: "Ana" });
  aldo = await buildMember(ctx, company.id, { name: "Aldo" });
  const companyB = await buildCompany(ctx.deps.db);
  adminB = await buildMember(ctx, companyB.id, { profile: "admin" });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await ctx.close();
});

describe("quick messages: validation", () => {
  it("requires the shortcode ('Obrigatório'); a leading '/' is not part of it", async () => {
    for (const shortcode of [undefined, "", "   ", "/", "//"]) {
      const res = await call("POST", "/quick-messages", ana.login, { shortcode, message: "x" });
      expect(fieldsOf(res).shortcode, String(shortcode)).toBe("Obrigatório");
    }
    expect(
      fieldsOf(await call("POST", "/quick-messages", ana.login, { shortcode: "x".repeat(101) })).shortcode,
    ).toBe("Too Long!");
    expect(
      fieldsOf(await call("POST", "/quick-messages", ana.login, { shortcode: "ok", geral: "sim" })),
    ).toHaveProperty("geral");
    const english = await call(
      "POST",
      "/quick-messages",
      ana.login,
      { shortcode: "" },
      { "accept-language": "en" },
    );
    expect(fieldsOf(english).shortcode).toBe("Required");

    const saved = await create(ana, { shortcode: " /bomdia ", message: "Bom dia!" });
    expect(saved).toEqual({
      id: expect.any(Number),
      shortcode: "bomdia",
      message: "Bom dia!",
      mediaPath: null,
      mediaName: null,
      mediaUrl: null,
      geral: false,
      companyId,
      userId: ana.id,
      user: { id: ana.id, name: "Ana" },
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    // The same rule on edit; nothing of a refused edit is written.
    expect(
      fieldsOf(await call("PUT", `/quick-messages/${saved.id}`, ana.login, { shortcode: "" })).shortcode,
    ).toBe("Obrigatório");
    expect(
      expectOk<QuickMessageDTO>(await call("GET", `/quick-messages/${saved.id}`, ana.login)).shortcode,
    ).toBe("bomdia");
  });
});

describe("quick messages: the global flag and ownership", () => {
  it("lets only admins set or clear the global flag", async () => {
    expectError(
      await call("POST", "/quick-messages", ana.login, { shortcode: "g", geral: true }),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(
      await call("POST", "/quick-messages", supervisor.login, { shortcode: "g", geral: true }),
      403,
      "ERR_NO_PERMISSION",
    );
    const global = await create(admin, { geral: true });
    expect(global.geral).toBe(true);
    const mine = await create(ana);
    expectError(
      await call("PUT", `/quick-messages/${mine.id}`, ana.login, { geral: true }),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(
      await call("PUT", `/quick-messages/${global.id}`, supervisor.login, { geral: false }),
      403,
      "ERR_NO_PERMISSION",
    );
    // Sending the flag unchanged (as the dialog does) is not setting it.
    expect(
      expectOk<QuickMessageDTO>(
        await call("PUT", `/quick-messages/${mine.id}`, ana.login, { message: "novo", geral: false }),
      ),
    ).toMatchObject({ message: "novo", geral: false });
    expect(
      expectOk<QuickMessageDTO>(
        await call("PUT", `/quick-messages/${mine.id}`, admin.login, { geral: "true" }),
      ).geral,
    ).toBe(true);
  });

  it("lets admin and supervisor edit or delete any; a user only their own non-global ones", async () => {
    const anas = await create(ana);
    const aldos = await create(aldo);
    const global = await create(admin, { geral: true });

    expect(
      expectOk<QuickMessageDTO>(
        await call("PUT", `/quick-messages/${anas.id}`, ana.login, { shortcode: "meu" }),
      ),
    ).toMatchObject({ shortcode: "meu", userId: ana.id });
    // Someone else's personal one is not even there for her; a global one is there but not hers to change.
    expectError(
      await call("PUT", `/quick-messages/${aldos.id}`, ana.login, { message: "x" }),
      404,
      "ERR_NO_QUICK_MESSAGE_FOUND",
    );
    expectError(
      await call("DELETE", `/quick-messages/${aldos.id}`, ana.login),
      404,
      "ERR_NO_QUICK_MESSAGE_FOUND",
    );
    expectError(
      await call("GET", `/quick-messages/${aldos.id}`, ana.login),
      404,
      "ERR_NO_QUICK_MESSAGE_FOUND",
    );
    expect(expectOk<QuickMessageDTO>(await call("GET", `/quick-messages/${global.id}`, ana.login)).id).toBe(
      global.id,
    );
    expectError(
      await call("PUT", `/quick-messages/${global.id}`, ana.login, { message: "x" }),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(await call("DELETE", `/quick-messages/${global.id}`, ana.login), 403, "ERR_NO_PERMISSION");

    expect(
      expectOk<QuickMessageDTO>(
        await call("PUT", `/quick-messages/${aldos.id}`, supervisor.login, { message: "revisado" }),
      ),
    ).toMatchObject({ message: "revisado", userId: aldo.id });
    expect(
      expectOk<QuickMessageDTO>(
        await call("PUT", `/quick-messages/${global.id}`, supervisor.login, { message: "geral revisado" }),
      ),
    ).toMatchObject({ message: "geral revisado", geral: true });
    expectOk(await call("DELETE", `/quick-messages/${aldos.id}`, supervisor.login), 204);
    expectOk(await call("DELETE", `/quick-messages/${global.id}`, admin.login), 204);
    expectOk(await call("DELETE", `/quick-messages/${anas.id}`, ana.login), 204);
    expectError(
      await call("GET", `/quick-messages/${anas.id}`, ana.login),
      404,
      "ERR_NO_QUICK_MESSAGE_FOUND",
    );
  });
});

describe("quick messages: lists", () => {
  it("offers each user their own and the global ones in the chat; the page shows admin and supervisor all", async () => {
    const anas = await create(ana, { shortcode: `lista${uid()}` });
    const aldos = await create(aldo, { shortcode: `lista${uid()}` });
    const global = await create(admin, { shortcode: `lista${uid()}`, geral: true });
    const adminOwn = await create(admin, { shortcode: `lista${uid()}` });

    const forAna = await chatList(ana);
    expect(forAna).toEqual(expect.arrayContaining([anas.id, global.id]));
    expect(forAna).not.toContain(aldos.id);
    expect(forAna).not.toContain(adminOwn.id);
    // The admin's own '/' list is the same rule: their own and the global ones.
    const forAdmin = await chatList(admin);
    expect(forAdmin).toEqual(expect.arrayContaining([adminOwn.id, global.id]));
    expect(forAdmin).not.toContain(anas.id);

    expect(await pageIds(ana, "lista")).toEqual(expect.arrayContaining([anas.id, global.id]));
    expect(await pageIds(ana, "lista")).not.toContain(aldos.id);
    for (const who of [admin, supervisor])
      expect(await pageIds(who, "lista")).toEqual(
        expect.arrayContaining([anas.id, aldos.id, global.id, adminOwn.id]),
      );
  });

  it("pages by 20 in shortcode order, searching shortcode and text, case-insensitive", async () => {
    const prefix = `pg${uid()}`;
    for (let i = 25; i >= 1; i--)
      await create(ana, {
        shortcode: `${prefix}${String(i).padStart(2, "0")}`,
        message: i === 7 ? "Texto ESPECIAL" : "x",
      });
    const first = expectOk<QuickMessagesPage>(
      await call("GET", `/quick-messages?searchParam=${prefix}`, ana.login),
    );
    expect(first).toMatchObject({ count: 25, hasMore: true });
    expect(first.records.map((r) => r.shortcode)).toEqual(
      Array.from({ length: 20 }, (_, i) => `${prefix}${String(i + 1).padStart(2, "0")}`),
    );
    const second = expectOk<QuickMessagesPage>(
      await call("GET", `/quick-messages?searchParam=${prefix}&pageNumber=2`, ana.login),
    );
    expect(second).toMatchObject({ count: 25, hasMore: false });
    expect(second.records).toHaveLength(5);
    expect(
      expectOk<QuickMessagesPage>(
        await call("GET", "/quick-messages?searchParam=especial", ana.login),
      ).records.map((r) => r.shortcode),
    ).toContain(`${prefix}07`);
    expect(
      expectOk<QuickMessagesPage>(await call("GET", "/quick-messages?searchParam=%25", ana.login)).count,
    ).toBe(0);
  });
});

describe("quick messages: attachments", () => {
  it("uploads and removes a file, served to the company only; refuses a missing file and someone else's", async () => {
    const mine = await create(ana);
    const form = fileForm(TINY_PNG, "logo da loja.png", "image/png");
    const withFile = expectOk<QuickMessageDTO>(
      await call("POST", `/quick-messages/${mine.id}/media-upload`, ana.login, form.payload, form.headers),
    );
    expect(withFile).toMatchObject({
      mediaName: "logo_da_loja.png",
      mediaPath: expect.stringMatching(new RegExp(`^${companyId}/[0-9a-f-]{36}\\.png$`)),
      mediaUrl: `/media/${withFile.mediaPath}`,
    });
    const file = await call("GET", withFile.mediaUrl!, ana.login);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(TINY_PNG)).toBe(true);
    expect((await call("GET", withFile.mediaUrl!, adminB.login)).statusCode).toBe(404);

    const empty = fileForm(Buffer.alloc(0), "vazio.png", "image/png");
    expect(
      fieldsOf(
        await call(
          "POST",
          `/quick-messages/${mine.id}/media-upload`,
          ana.login,
          empty.payload,
          empty.headers,
        ),
      ),
    ).toHaveProperty("file");
    expect(
      fieldsOf(await call("POST", `/quick-messages/${mine.id}/media-upload`, ana.login, {})),
    ).toHaveProperty("file");

    const global = await create(admin, { geral: true });
    expectError(
      await call("POST", `/quick-messages/${global.id}/media-upload`, ana.login, form.payload, form.headers),
      403,
      "ERR_NO_PERMISSION",
    );

    const removed = expectOk<QuickMessageDTO>(
      await call("DELETE", `/quick-messages/${mine.id}/media-upload`, ana.login),
    );
    expect(removed).toMatchObject({ mediaPath: null, mediaName: null, mediaUrl: null });
  });
});

describe("quick messages: tenant isolation", () => {
  it("answers 404 for another company's quick message and never lists it", async () => {
    const global = await create(admin, { geral: true, shortcode: `iso${uid()}` });
    for (const [method, url] of [
      ["GET", `/quick-messages/${global.id}`],
      ["PUT", `/quick-messages/${global.id}`],
      ["DELETE", `/quick-messages/${global.id}`],
      ["DELETE", `/quick-messages/${global.id}/media-upload`],
    ] as const)
      expectError(
        await call(method, url, adminB.login, method === "PUT" ? { message: "x" } : undefined),
        404,
        "ERR_NO_QUICK_MESSAGE_FOUND",
      );
    expect(await chatList(adminB)).not.toContain(global.id);
    expect(await pageIds(adminB)).not.toContain(global.id);
    expect(
      expectOk<QuickMessageDTO>(await call("GET", `/quick-messages/${global.id}`, ana.login)).message,
    ).toBe(global.message);
  });
});

describe("quick messages: the live channel", () => {
  it("sends a global one to the company, a personal one to its author and the admins", async () => {
    const url = await ctx.url();
    const event = `company-${companyId}-quickmessage`;
    const [anaSocket, aldoSocket, adminSocket, bSocket] = await Promise.all([
      connectSocket(url, ana.login.token),
      connectSocket(url, aldo.login.token),
      connectSocket(url, admin.login.token),
      connectSocket(url, adminB.login.token),
    ]);
    sockets.push(anaSocket, aldoSocket, adminSocket, bSocket);
    type Payload = CompanyEventPayloads["quickmessage"];
    const toAna = record<Payload>(anaSocket, event);
    const toAldo = record<Payload>(aldoSocket, event);
    const toAdmin = record<Payload>(adminSocket, event);
    const toB = record<Payload>(bSocket, `company-${adminB.companyId}-quickmessage`);

    const personal = await create(ana);
    await waitFor(() => toAna.length === 1 && toAdmin.length === 1);
    expect(toAna[0]).toEqual({ action: "create", record: personal });

    // Made global: everyone hears it; made personal again: the others hear it is gone.
    const global = expectOk<QuickMessageDTO>(
      await call("PUT", `/quick-messages/${personal.id}`, admin.login, { geral: true }),
    );
    await waitFor(() => toAldo.length === 1);
    expect(toAldo[0]).toEqual({ action: "update", record: global });
    expectOk(await call("PUT", `/quick-messages/${personal.id}`, admin.login, { geral: false }));
    await waitFor(() => toAldo.length === 2);
    expect(toAldo[1]).toEqual({ action: "delete", id: personal.id });
    await waitFor(() => toAna.length === 3);
    expect(toAna[2]).toMatchObject({ action: "update", record: { id: personal.id, geral: false } });

    expectOk(await call("DELETE", `/quick-messages/${personal.id}`, ana.login), 204);
    await waitFor(() => toAna.length === 4 && toAdmin.length === 4);
    expect(toAna[3]).toEqual({ action: "delete", id: personal.id });
    await Promise.all([caughtUp(aldoSocket), caughtUp(bSocket)]);
    expect(toAldo).toHaveLength(2);
    expect(toB).toEqual([]);
  });
});
