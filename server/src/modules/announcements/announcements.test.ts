import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import {
  type AnnouncementAdminDTO,
  type AnnouncementDTO,
  type AnnouncementEventPayload,
  type AnnouncementsPage,
  LIMITS,
  type MyAnnouncements,
  hasUnseenAnnouncement,
} from "@atende/contracts";
import { TINY_PNG, caller, expectError, expectOk, fieldsOf, fileForm } from "../../test/calls.js";
import { type LoggedIn, buildPlatformOperator, buildTeam, uid } from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, waitFor } from "../../test/harness.js";
import { caughtUp } from "../../test/settled.js";

/**
 * Announcements on a real database: the super user writes them (for every company or for chosen
 * ones), each company's users read the active ones addressed to them, live on
 * `company-announcement` only in those companies' rooms, and the popover's dot goes once opened.
 */

let ctx: TestContext;
let url: string;
let root: LoggedIn;
/** Company A: an admin and an agent. */
let adminA: LoggedIn;
let agentA: LoggedIn;
let companyA: number;
/** Company B: a company that is not chosen. */
let adminB: LoggedIn;
let companyB: number;

const call = caller(() => ctx);
const open: Socket[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  url = await ctx.url();
  root = (await buildPlatformOperator(ctx)).login;
  const a = await buildTeam(ctx);
  adminA = a.adminLogin;
  agentA = a.agentLogin;
  companyA = a.company.id;
  const b = await buildTeam(ctx);
  adminB = b.adminLogin;
  companyB = b.company.id;
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
  ctx.clock.now = new Date();
});
afterAll(() => ctx.close());

async function create(body: Record<string, unknown> = {}): Promise<AnnouncementAdminDTO> {
  return expectOk<AnnouncementAdminDTO>(
    await call("POST", "/announcements", root, {
      title: `Aviso ${uid()}`,
      text: "Manutenção às 22h",
      ...body,
    }),
    201,
  );
}

async function forMe(who: LoggedIn): Promise<MyAnnouncements> {
  return expectOk<MyAnnouncements>(await call("GET", "/announcements/for-me", who));
}

/** The socket behind what `listen` answered. */
const socketOf = new WeakMap<AnnouncementEventPayload[], Socket>();

/** What a user's socket hears on `company-announcement`. */
async function listen(who: LoggedIn): Promise<AnnouncementEventPayload[]> {
  const socket = await connectSocket(url, who.token);
  open.push(socket);
  const got: AnnouncementEventPayload[] = [];
  socket.on("company-announcement", (p: AnnouncementEventPayload) => got.push(p));
  socketOf.set(got, socket);
  return got;
}

describe("the super user writes announcements", () => {
  it("creates one with the spec's defaults, changes it, deletes it", async () => {
    const made = await create({ title: "  Nova versão  ", text: "Veja as novidades" });
    expect(made).toEqual({
      id: expect.any(Number),
      title: "Nova versão",
      text: "Veja as novidades",
      priority: 3,
      status: true,
      mediaPath: null,
      mediaName: null,
      mediaUrl: null,
      allCompanies: true,
      companyIds: [],
      publishedAt: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const changed = expectOk<AnnouncementAdminDTO>(
      await call("PUT", `/announcements/${made.id}`, root, { priority: "1", status: "false" }),
    );
    expect(changed).toMatchObject({ id: made.id, title: "Nova versão", priority: 1, status: false });
    expect(expectOk<AnnouncementAdminDTO>(await call("GET", `/announcements/${made.id}`, root))).toEqual(
      changed,
    );

    expectOk(await call("DELETE", `/announcements/${made.id}`, root), 204);
    expectError(await call("GET", `/announcements/${made.id}`, root), 404, "ERR_NO_ANNOUNCEMENT_FOUND");
    expectError(
      await call("PUT", `/announcements/${made.id}`, root, { title: "x" }),
      404,
      "ERR_NO_ANNOUNCEMENT_FOUND",
    );
    expectError(await call("DELETE", `/announcements/${made.id}`, root), 404, "ERR_NO_ANNOUNCEMENT_FOUND");
  });

  it("refuses a missing title or text, a priority outside 1-3, chosen companies left empty or unknown", async () => {
    expect(fieldsOf(await call("POST", "/announcements", root, { text: "x" }))).toHaveProperty("title");
    expect(fieldsOf(await call("POST", "/announcements", root, { title: "x", text: "  " }))).toHaveProperty(
      "text",
    );
    expect(
      fieldsOf(await call("POST", "/announcements", root, { title: "x", text: "y", priority: 4 })),
    ).toHaveProperty("priority");
    expect(
      fieldsOf(await call("POST", "/announcements", root, { title: "x", text: "y", allCompanies: false })),
    ).toHaveProperty("companyIds");
    expectError(
      await call("POST", "/announcements", root, {
        title: "x",
        text: "y",
        allCompanies: false,
        companyIds: [companyA, 2_000_000_000],
      }),
      404,
      "ERR_NO_COMPANY_FOUND",
    );
  });

  it("a company's admin or agent writes nothing: 403 ERR_NO_PERMISSION, before any lookup", async () => {
    const made = await create();
    const png = fileForm(TINY_PNG, "a.png", "image/png");
    for (const who of [adminA, agentA]) {
      expectError(
        await call("POST", "/announcements", who, { title: "Meu", text: "x" }),
        403,
        "ERR_NO_PERMISSION",
      );
      for (const id of [made.id, 2_000_000_000]) {
        expectError(
          await call("PUT", `/announcements/${id}`, who, { title: "Meu" }),
          403,
          "ERR_NO_PERMISSION",
        );
        expectError(await call("DELETE", `/announcements/${id}`, who), 403, "ERR_NO_PERMISSION");
        expectError(
          await call("POST", `/announcements/${id}/media-upload`, who, png.payload, png.headers),
          403,
          "ERR_NO_PERMISSION",
        );
      }
    }
    expect(expectOk<AnnouncementAdminDTO>(await call("GET", `/announcements/${made.id}`, root))).toEqual(
      made,
    );
    for (const [method, path] of [
      ["GET", "/announcements"],
      ["GET", "/announcements/for-me"],
      ["POST", "/announcements"],
    ] as const)
      expectError(await call(method, path, null, { title: "x", text: "y" }), 401, "ERR_NO_SESSION");
  });
});

describe("who receives an announcement", () => {
  it("one for chosen companies reaches only them: lists, popover, its page and the socket", async () => {
    const heardA = await listen(agentA);
    const heardB = await listen(adminB);
    const made = await create({ allCompanies: false, companyIds: [companyA], priority: 1 });
    expect(made).toMatchObject({ allCompanies: false, companyIds: [companyA] });

    await waitFor(() => heardA.length > 0);
    const { allCompanies: _a, companyIds: _c, ...asRead } = made;
    expect(heardA).toEqual([{ action: "create", record: asRead }]);
    expect((await forMe(agentA)).records).toContainEqual(asRead);
    expect(expectOk<AnnouncementDTO>(await call("GET", `/announcements/${made.id}`, agentA))).toEqual(asRead);
    const pageA = expectOk<AnnouncementsPage>(
      await call("GET", `/announcements?searchParam=${encodeURIComponent(made.title)}`, agentA),
    );
    expect(pageA).toEqual({ records: [asRead], count: 1, hasMore: false });

    // Company B: not in any list, 404 by id, nothing on its socket.
    expect((await forMe(adminB)).records.map((r) => r.id)).not.toContain(made.id);
    const pageB = expectOk<AnnouncementsPage>(
      await call("GET", `/announcements?searchParam=${encodeURIComponent(made.title)}`, adminB),
    );
    expect(pageB).toEqual({ records: [], count: 0, hasMore: false });
    expectError(await call("GET", `/announcements/${made.id}`, adminB), 404, "ERR_NO_ANNOUNCEMENT_FOUND");

    // Moved to company B: A hears it left, B hears it, by their rooms alone.
    const moved = expectOk<AnnouncementAdminDTO>(
      await call("PUT", `/announcements/${made.id}`, root, { allCompanies: false, companyIds: [companyB] }),
    );
    await waitFor(() => heardA.length > 1 && heardB.length > 0);
    expect(heardA[1]).toEqual({ action: "delete", id: made.id });
    // B's socket hears in order: the move is the first it heard, so it never heard the creation.
    expect(heardB).toEqual([{ action: "update", record: expect.objectContaining({ id: made.id }) }]);
    expect(moved.companyIds).toEqual([companyB]);
    expect((await forMe(agentA)).records.map((r) => r.id)).not.toContain(made.id);
    expect((await forMe(adminB)).records.map((r) => r.id)).toContain(made.id);
  });

  it("one for every company reaches every company", async () => {
    const heardA = await listen(agentA);
    const heardB = await listen(adminB);
    const made = await create();
    await waitFor(() => heardA.length > 0 && heardB.length > 0);
    for (const heard of [heardA, heardB])
      expect(heard[0]).toMatchObject({ action: "create", record: { id: made.id } });
    for (const who of [agentA, adminB]) expect((await forMe(who)).records[0]!.id).toBe(made.id);
  });

  it("an inactive one is hidden from everyone but the super user, and made inactive it leaves the popovers", async () => {
    const heardA = await listen(agentA);
    const hidden = await create({ status: false, allCompanies: false, companyIds: [companyA] });
    expect((await forMe(agentA)).records.map((r) => r.id)).not.toContain(hidden.id);
    expectError(await call("GET", `/announcements/${hidden.id}`, agentA), 404, "ERR_NO_ANNOUNCEMENT_FOUND");
    const search = `/announcements?searchParam=${encodeURIComponent(hidden.title)}`;
    expect(expectOk<AnnouncementsPage>(await call("GET", search, agentA)).count).toBe(0);
    expect(expectOk<AnnouncementsPage>(await call("GET", search, root)).records).toEqual([hidden]);

    const shown = await create({ allCompanies: false, companyIds: [companyA] });
    await waitFor(() => heardA.length > 0);
    // The first thing A's socket heard is the shown one: the hidden one was never sent.
    expect(heardA).toEqual([{ action: "create", record: expect.objectContaining({ id: shown.id }) }]);
    expectOk(await call("PUT", `/announcements/${shown.id}`, root, { status: false }));
    await waitFor(() => heardA.length === 2);
    expect(heardA[1]).toEqual({ action: "delete", id: shown.id });
    expect((await forMe(agentA)).records.map((r) => r.id)).not.toContain(shown.id);

    expectOk(await call("DELETE", `/announcements/${hidden.id}`, root), 204);
    await caughtUp(socketOf.get(heardA)!);
    expect(heardA).toHaveLength(2);
  });
});

describe("the popover's dot", () => {
  it("shows until the user opens the popover, and again for what is published after", async () => {
    const team = await buildTeam(ctx);
    const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 12, 0, s));
    ctx.clock.now = at(0);
    const first = await create({ allCompanies: false, companyIds: [team.company.id] });
    const before = await forMe(team.agentLogin);
    expect(before.seenAt).toBeNull();
    expect(hasUnseenAnnouncement(before.records, before.seenAt)).toBe(true);

    ctx.clock.now = at(10);
    expect(expectOk(await call("POST", "/announcements/seen", team.agentLogin))).toEqual({
      seenAt: at(10).toISOString(),
    });
    const seen = await forMe(team.agentLogin);
    expect(hasUnseenAnnouncement(seen.records, seen.seenAt)).toBe(false);
    // Another user of the same company has not opened it.
    const other = await forMe(team.adminLogin);
    expect(hasUnseenAnnouncement(other.records, other.seenAt)).toBe(true);

    ctx.clock.now = at(20);
    await create({ allCompanies: false, companyIds: [team.company.id] });
    const fresh = await forMe(team.agentLogin);
    expect(hasUnseenAnnouncement(fresh.records, fresh.seenAt)).toBe(true);

    // Seen again; then the first one, made inactive and active again, is news again.
    ctx.clock.now = at(30);
    expectOk(await call("POST", "/announcements/seen", team.agentLogin));
    expectOk(await call("PUT", `/announcements/${first.id}`, root, { status: false }));
    ctx.clock.now = at(40);
    expectOk(await call("PUT", `/announcements/${first.id}`, root, { status: true }));
    const again = await forMe(team.agentLogin);
    expect(again.records[0]).toMatchObject({ id: first.id, publishedAt: at(40).toISOString() });
    expect(hasUnseenAnnouncement(again.records, again.seenAt)).toBe(true);
  });
});

describe("the attachment", () => {
  it("takes a PNG or JPEG by its bytes and serves it only to who may read the announcement", async () => {
    const made = await create({ allCompanies: false, companyIds: [companyA] });
    const form = fileForm(TINY_PNG, "banner da loja.png", "image/png");
    const withFile = expectOk<AnnouncementAdminDTO>(
      await call("POST", `/announcements/${made.id}/media-upload`, root, form.payload, form.headers),
    );
    expect(withFile).toMatchObject({
      mediaName: "banner_da_loja.png",
      mediaPath: expect.stringMatching(/^0\/[0-9a-f-]{36}\.png$/),
      mediaUrl: `/announcements/${made.id}/media`,
    });
    const file = await call("GET", withFile.mediaUrl!, agentA);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    expect(file.headers["x-content-type-options"]).toBe("nosniff");
    expect(file.rawPayload.equals(TINY_PNG)).toBe(true);
    expectError(await call("GET", withFile.mediaUrl!, adminB), 404, "ERR_NOT_FOUND");
    // Not through the companies' media route either.
    expect((await call("GET", `/media/${withFile.mediaPath}`, agentA)).statusCode).toBe(404);

    // Named .png but not a picture; a GIF: refused.
    for (const [data, name] of [
      [Buffer.from("<script>alert(1)</script>"), "x.png"],
      [Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "binary"), "x.gif"],
    ] as const) {
      const bad = fileForm(data, name, "image/png");
      expectError(
        await call("POST", `/announcements/${made.id}/media-upload`, root, bad.payload, bad.headers),
        400,
        "ERR_ANNOUNCEMENT_MEDIA_TYPE",
      );
    }
    const removed = expectOk<AnnouncementAdminDTO>(
      await call("DELETE", `/announcements/${made.id}/media-upload`, root),
    );
    expect(removed).toMatchObject({ mediaPath: null, mediaName: null, mediaUrl: null });
    expectError(await call("GET", `/announcements/${made.id}/media`, agentA), 404, "ERR_NOT_FOUND");
  });
});

describe("GET /announcements/: the super user's page", () => {
  it("searches title and text, newest first, a page at a time, with every addressee", async () => {
    const tag = uid();
    const made: AnnouncementAdminDTO[] = [];
    for (let i = 0; i < LIMITS.pageSize + 1; i++) {
      ctx.clock.now = new Date(Date.UTC(2031, 0, 1, 0, i));
      made.push(
        await create({
          title: `Tema ${tag} ${i}`,
          allCompanies: i % 2 === 0,
          companyIds: i % 2 ? [companyB] : [],
        }),
      );
    }
    const byText = await create({ title: "Outro", text: `fala de ${tag}`, status: false });
    const newest = [byText, ...made.reverse()];
    const first = expectOk<AnnouncementsPage>(await call("GET", `/announcements?searchParam=${tag}`, root));
    expect(first.count).toBe(LIMITS.pageSize + 2);
    expect(first.hasMore).toBe(true);
    expect(first.records).toEqual(newest.slice(0, LIMITS.pageSize));
    const second = expectOk<AnnouncementsPage>(
      await call("GET", `/announcements?searchParam=${tag}&pageNumber=2`, root),
    );
    expect(second).toEqual({
      records: newest.slice(LIMITS.pageSize),
      count: LIMITS.pageSize + 2,
      hasMore: false,
    });
    expect(
      expectOk<AnnouncementsPage>(await call("GET", "/announcements?searchParam=%25%25_", root)).count,
    ).toBe(0);
    expectError(await call("GET", "/announcements?pageNumber=0", root), 400, "ERR_VALIDATION");
  });
});
