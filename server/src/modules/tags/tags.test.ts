import { eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CompanyEventPayloads,
  type KanbanPage,
  type TagDTO,
  type TagsPage,
  type TicketDTO,
  companyEvent,
} from "@atende/contracts";
import { plans, ticketTags, tickets } from "../../db/schema/index.js";
import { buildSimulatorCompany, phoneOpensTicket } from "../../test/channels.js";
import {
  type LoggedIn,
  buildCompany,
  buildQueue,
  buildMember,
  type Member,
  uid,
  newNumber,
  buildContact,
  buildTicket,
} from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import { expectError, expectOk, caller } from "../../test/calls.js";
import { caughtUp } from "../../test/settled.js";

/**
 * Tags and the kanban board on a real database: the tags page (search, pages, counts, the
 * spec's validation texts), the kanban switch (admin and supervisor only), the chat's tag sync,
 * moving a ticket between lanes, who sees which ticket on the board, the useKanban plan flag,
 * tenant isolation, and who hears about it on the live channel. Tickets are born the way they
 * are in production: a customer's phone writes to a simulator connection.
 */

let ctx: TestContext;
let a: Awaited<ReturnType<typeof buildSimulatorCompany>>;
let queueA: (typeof a.queues)[number];
let queueB: (typeof a.queues)[number];

/** Company A: agents of queue A and queue B, one with allTicket, a supervisor. */
let agentA: Member;
let agentA2: Member;
let agentB: Member;
let agentAll: Member;
let supervisor: Member;
/** Company B: another tenant, with its own admin, tag and ticket. */
let b: { admin: Member; tag: TagDTO; ticketId: number };
const sockets: Socket[] = [];

const call = caller(() => ctx);

async function createTag(who: LoggedIn, body: Record<string, unknown>): Promise<TagDTO> {
  return expectOk<TagDTO>(await call("POST", "/tags", who, body), 201);
}
const newTag = (who: LoggedIn = a.adminLogin, extra: Record<string, unknown> = {}) =>
  createTag(who, { name: `Tag ${uid()}`, ...extra });

async function board(who: LoggedIn, query = ""): Promise<KanbanPage> {
  return expectOk<KanbanPage>(await call("GET", `/ticket/kanban${query}`, who));
}
const boardIds = async (who: LoggedIn, query = "") => (await board(who, query)).tickets.map((t) => t.id);

const sync = (who: LoggedIn, ticketId: number, tags: unknown[]) =>
  call("POST", "/tags/sync", who, { ticketId, tags });
const leaveLane = (who: LoggedIn, ticketId: number) => call("DELETE", `/ticket-tags/${ticketId}`, who);
const addTag = (who: LoggedIn, ticketId: number, tagId: number) =>
  call("PUT", `/ticket-tags/${ticketId}/${tagId}`, who);

async function tagIdsOf(ticketId: number): Promise<number[]> {
  const rows = await ctx.deps.db
    .select({ tagId: ticketTags.tagId })
    .from(ticketTags)
    .where(eq(ticketTags.ticketId, ticketId));
  return rows.map((r) => r.tagId).sort((x, y) => x - y);
}

/** The customer's phone writes in; answers the contact's live ticket as the pipeline left it. */
async function customerWrites(body = "olá") {
  return phoneOpensTicket(ctx, a, { number: newNumber(), name: `Cliente ${uid()}`, body });
}

/** A waiting ticket placed in a queue (null: left without one, as inbound leaves it). */
async function pendingIn(queueId: number | null, body = "olá") {
  const ticket = await customerWrites(body);
  await ctx.deps.db.update(tickets).set({ queueId }).where(eq(tickets.id, ticket.id));
  return { ...ticket, queueId };
}

/** A ticket in service: open, held by `userId`, in `queueId`. */
async function openFor(userId: number, queueId: number | null, body = "olá") {
  const ticket = await customerWrites(body);
  await ctx.deps.db.update(tickets).set({ queueId, userId, status: "open" }).where(eq(tickets.id, ticket.id));
  return { ...ticket, queueId, userId };
}

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  ctx.built.startBackground();
  a = await buildSimulatorCompany(ctx, { queues: 2, bot: false });
  [queueA, queueB] = [a.queues[0]!, a.queues[1]!];
  agentA = await buildMember(ctx, a.company.id, { name: "Ana", queueIds: [queueA.id] });
  agentA2 = await buildMember(ctx, a.company.id, { name: "Aldo", queueIds: [queueA.id] });
  agentB = await buildMember(ctx, a.company.id, { name: "Bia", queueIds: [queueB.id] });
  agentAll = await buildMember(ctx, a.company.id, { name: "Tati", allTicket: "enabled" });
  supervisor = await buildMember(ctx, a.company.id, {
    name: "Sara",
    profile: "supervisor",
    queueIds: [queueA.id],
  });

  const companyB = await buildCompany(ctx.deps.db);
  const queue = await buildQueue(ctx.deps.db, companyB.id);
  const contact = await buildContact(ctx.deps.db, companyB.id, { name: "Cliente B" });
  const ticket = await buildTicket(ctx.deps.db, companyB.id, {
    contactId: contact.id,
    queueId: queue.id,
    status: "pending",
  });
  const adminB = await buildMember(ctx, companyB.id, { profile: "admin", name: "Admin B" });
  b = {
    admin: adminB,
    tag: await createTag(adminB.login, { name: "Tag da B", kanban: 1 }),
    ticketId: ticket.id,
  };
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await ctx.close();
});

describe("tags: validation", () => {
  it("answers the spec's texts: 'Obrigatório' when empty, 'Mensagem muito curta' under 3 characters", async () => {
    for (const [body, text] of [
      [{}, "Obrigatório"],
      [{ name: "" }, "Obrigatório"],
      [{ name: "   " }, "Obrigatório"],
      [{ name: "ab" }, "Mensagem muito curta"],
      [{ name: " ab " }, "Mensagem muito curta"],
    ] as const) {
      const res = await call("POST", "/tags", a.adminLogin, body);
      expectError(res, 400, "ERR_VALIDATION");
      expect(res.json<{ fields: Record<string, string> }>().fields.name, JSON.stringify(body)).toBe(text);
    }
    const english = await call("POST", "/tags", a.adminLogin, { name: "ab" }, { "accept-language": "en" });
    expect(english.json<{ fields: Record<string, string> }>().fields.name).toBe("Message too short");

    const badColor = await call("POST", "/tags", a.adminLogin, { name: "Cor ruim", color: "red;" });
    expectError(badColor, 400, "ERR_VALIDATION");
    expect(badColor.json<{ fields: Record<string, string> }>().fields).toHaveProperty("color");

    // The same rule on edit; nothing of a refused request is written.
    const tag = await newTag();
    const edit = await call("PUT", `/tags/${tag.id}`, a.adminLogin, { name: "x" });
    expect(edit.json<{ fields: Record<string, string> }>().fields.name).toBe("Mensagem muito curta");
    expect(expectOk<TagDTO>(await call("GET", `/tags/${tag.id}`, a.adminLogin)).name).toBe(tag.name);
  });

  it("refuses a second tag with the same name in one company, not across companies", async () => {
    const name = `Único ${uid()}`;
    await createTag(a.adminLogin, { name });
    expectError(await call("POST", "/tags", agentA.login, { name }), 409, "ERR_TAG_NAME_TAKEN");
    await createTag(b.admin.login, { name });
    const other = await newTag();
    expectError(await call("PUT", `/tags/${other.id}`, a.adminLogin, { name }), 409, "ERR_TAG_NAME_TAKEN");
  });
});

describe("tags: create, read, edit, delete", () => {
  it("creates with the default colour and no tickets, edits and deletes", async () => {
    const name = `Vip ${uid()}`;
    const created = await createTag(agentA.login, { name: `  ${name}  ` });
    expect(created).toEqual({
      id: expect.any(Number),
      name,
      color: "#5C59A0",
      kanban: 0,
      userId: agentA.id,
      ticketsCount: 0,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(expectOk<TagDTO>(await call("GET", `/tags/${created.id}`, agentB.login))).toEqual(created);

    const edited = expectOk<TagDTO>(
      await call("PUT", `/tags/${created.id}`, agentA.login, { name: `${name} Ouro`, color: "#ff9800" }),
    );
    expect(edited).toMatchObject({ id: created.id, name: `${name} Ouro`, color: "#ff9800", kanban: 0 });

    expectOk(await call("DELETE", `/tags/${created.id}`, agentA.login), 204);
    expectError(await call("GET", `/tags/${created.id}`, agentA.login), 404, "ERR_NO_TAG_FOUND");
    expectError(await call("DELETE", `/tags/${created.id}`, agentA.login), 404, "ERR_NO_TAG_FOUND");
  });

  it("keeps who created the tag: another user's edit leaves it, and it is null once that user is deleted", async () => {
    const author = await buildMember(ctx, a.company.id, { name: `Autor ${uid()}`, queueIds: [queueA.id] });
    const created = await newTag(author.login);
    expect(created.userId).toBe(author.id);
    const edited = expectOk<TagDTO>(
      await call("PUT", `/tags/${created.id}`, a.adminLogin, { color: "#ff9800" }),
    );
    expect(edited.userId).toBe(author.id);
    const page = expectOk<TagsPage>(
      await call("GET", `/tags/?searchParam=${encodeURIComponent(created.name)}`, agentB.login),
    );
    expect(page.tags.map((t) => t.userId)).toEqual([author.id]);

    expectOk(await call("DELETE", `/users/${author.id}`, a.adminLogin), 204);
    expect(expectOk<TagDTO>(await call("GET", `/tags/${created.id}`, agentB.login)).userId).toBeNull();
  });

  it("pages by 20 in name order with search, and counts each tag's tickets", async () => {
    const prefix = `pg${uid()}`;
    for (let i = 25; i >= 1; i--)
      await createTag(a.adminLogin, { name: `${prefix} ${String(i).padStart(2, "0")}` });
    const first = expectOk<TagsPage>(
      await call("GET", `/tags?searchParam=${prefix}&pageNumber=1`, a.adminLogin),
    );
    expect(first).toMatchObject({ count: 25, hasMore: true });
    expect(first.tags.map((t) => t.name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `${prefix} ${String(i + 1).padStart(2, "0")}`),
    );
    const second = expectOk<TagsPage>(
      await call("GET", `/tags?searchParam=${prefix}&pageNumber=2`, a.adminLogin),
    );
    expect(second).toMatchObject({ count: 25, hasMore: false });
    expect(second.tags).toHaveLength(5);
    // Search is case-insensitive, and a wildcard typed by a user is a plain character.
    const upper = expectOk<TagsPage>(
      await call("GET", `/tags?searchParam=${prefix.toUpperCase()}%2001`, a.adminLogin),
    );
    expect(upper.tags.map((t) => t.name)).toEqual([`${prefix} 01`]);
    expect(expectOk<TagsPage>(await call("GET", "/tags?searchParam=%25", a.adminLogin)).count).toBe(0);

    // Counts: two tickets carry the tag, one of them closed; both count.
    const counted = await newTag();
    const t1 = await pendingIn(queueA.id);
    const t2 = await openFor(agentA.id, queueA.id);
    expectOk(await sync(a.adminLogin, t1.id, [counted.id]));
    expectOk(await sync(a.adminLogin, t2.id, [counted.id]));
    await ctx.deps.db.update(tickets).set({ status: "closed" }).where(eq(tickets.id, t2.id));
    expect(expectOk<TagDTO>(await call("GET", `/tags/${counted.id}`, a.adminLogin)).ticketsCount).toBe(2);
    const page = expectOk<TagsPage>(
      await call("GET", `/tags?searchParam=${encodeURIComponent(counted.name)}`, a.adminLogin),
    );
    expect(page.tags).toEqual([expect.objectContaining({ id: counted.id, ticketsCount: 2 })]);
    const list = expectOk<TagDTO[]>(await call("GET", "/tags/list", agentB.login));
    expect(list.find((t) => t.id === counted.id)).toMatchObject({ ticketsCount: 2 });
  });
});

describe("tags: the kanban switch (admin and supervisor only)", () => {
  it("lets admin and supervisor make a tag a lane, and refuses a plain user", async () => {
    const byAdmin = await newTag(a.adminLogin, { kanban: 1 });
    expect(byAdmin.kanban).toBe(1);
    const bySupervisor = await newTag(supervisor.login, { kanban: true });
    expect(bySupervisor.kanban).toBe(1);
    expectError(
      await call("POST", "/tags", agentA.login, { name: `Lane ${uid()}`, kanban: 1 }),
      403,
      "ERR_NO_PERMISSION",
    );
    const plain = await newTag(agentA.login, { kanban: 0 });
    expectError(
      await call("PUT", `/tags/${plain.id}`, agentA.login, { kanban: 1 }),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(
      await call("PUT", `/tags/${byAdmin.id}`, agentA.login, { kanban: 0 }),
      403,
      "ERR_NO_PERMISSION",
    );
    expect(expectOk<TagDTO>(await call("GET", `/tags/${byAdmin.id}`, agentA.login)).kanban).toBe(1);

    // Sending the flag unchanged (as the dialog does) is not switching it.
    const renamed = expectOk<TagDTO>(
      await call("PUT", `/tags/${byAdmin.id}`, agentA.login, { name: `${byAdmin.name} 2`, kanban: 1 }),
    );
    expect(renamed).toMatchObject({ name: `${byAdmin.name} 2`, kanban: 1 });
    expect(
      expectOk<TagDTO>(await call("PUT", `/tags/${plain.id}`, supervisor.login, { kanban: 1 })).kanban,
    ).toBe(1);
    expect(
      expectOk<TagDTO>(await call("PUT", `/tags/${plain.id}`, a.adminLogin, { kanban: false })).kanban,
    ).toBe(0);

    const lanes = expectOk<{ lista: TagDTO[] }>(await call("GET", "/tags/kanban", agentA.login)).lista;
    expect(lanes.every((t) => t.kanban === 1)).toBe(true);
    expect(lanes.map((t) => t.id)).toEqual(expect.arrayContaining([byAdmin.id, bySupervisor.id]));
    expect(lanes.map((t) => t.id)).not.toContain(plain.id);
    expect(lanes.map((t) => t.id)).not.toContain(b.tag.id);
  });
});

describe("POST /tags/sync: the chat's tag editor", () => {
  it("sets exactly the given tags on the ticket, as ids or as whole tags", async () => {
    const [x, y, z] = [await newTag(), await newTag(), await newTag()];
    const ticket = await pendingIn(queueA.id);
    const first = expectOk<TicketDTO>(await sync(agentA.login, ticket.id, [x.id, y.id]));
    expect(first.id).toBe(ticket.id);
    expect(first.tags.map((t) => t.id).sort((p, q) => p - q)).toEqual([x.id, y.id].sort((p, q) => p - q));
    expect(first.tags.find((t) => t.id === x.id)).toEqual({ id: x.id, name: x.name, color: x.color });

    // Whole tags, one of them twice: the ticket ends with y and z.
    expectOk(await sync(agentA.login, ticket.id, [y, { id: z.id, name: z.name }, z.id]));
    expect(await tagIdsOf(ticket.id)).toEqual([y.id, z.id].sort((p, q) => p - q));

    expectOk(await sync(agentA.login, ticket.id, []));
    expect(await tagIdsOf(ticket.id)).toEqual([]);
  });

  it("refuses another company's tag or ticket (404), a ticket outside the agent's queues (403), bad input (400)", async () => {
    const mine = await newTag();
    const ticket = await pendingIn(queueA.id);
    expectOk(await sync(a.adminLogin, ticket.id, [mine.id]));

    expectError(await sync(a.adminLogin, ticket.id, [mine.id, b.tag.id]), 404, "ERR_NO_TAG_FOUND");
    expectError(await sync(a.adminLogin, ticket.id, [2_000_000_000]), 404, "ERR_NO_TAG_FOUND");
    expect(await tagIdsOf(ticket.id)).toEqual([mine.id]);

    expectError(await sync(a.adminLogin, b.ticketId, [mine.id]), 404, "ERR_NO_TICKET_FOUND");
    expectError(await sync(b.admin.login, ticket.id, [b.tag.id]), 404, "ERR_NO_TICKET_FOUND");
    expectError(await sync(agentB.login, ticket.id, []), 403, "ERR_TICKET_ACCESS_DENIED");
    expect(await tagIdsOf(ticket.id)).toEqual([mine.id]);

    expectError(await call("POST", "/tags/sync", a.adminLogin, { tags: [] }), 400, "ERR_VALIDATION");
    expectError(await sync(a.adminLogin, ticket.id, ["x"]), 400, "ERR_VALIDATION");
  });
});

describe("the kanban board", () => {
  it("shows waiting and in-service tickets with the ticket list's visibility rules", async () => {
    const inA = await pendingIn(queueA.id, "fila A");
    const inB = await pendingIn(queueB.id, "fila B");
    const unqueued = await pendingIn(null, "sem fila");
    const mineOpen = await openFor(agentA.id, queueA.id);
    const colleagueOpen = await openFor(agentA2.id, queueA.id);
    const closed = await openFor(agentA.id, queueA.id);
    await ctx.deps.db.update(tickets).set({ status: "closed" }).where(eq(tickets.id, closed.id));

    const forA = await boardIds(agentA.login);
    expect(forA).toEqual(expect.arrayContaining([inA.id, mineOpen.id]));
    for (const hidden of [inB.id, unqueued.id, colleagueOpen.id, closed.id, b.ticketId])
      expect(forA).not.toContain(hidden);

    const forB = await boardIds(agentB.login);
    expect(forB).toContain(inB.id);
    for (const hidden of [inA.id, unqueued.id, mineOpen.id]) expect(forB).not.toContain(hidden);

    const forAll = await boardIds(agentAll.login);
    expect(forAll).toContain(unqueued.id);
    expect(forAll).not.toContain(inA.id);

    // Admin: every waiting ticket; another agent's ticket in service with showAll.
    const forAdmin = await boardIds(a.adminLogin);
    expect(forAdmin).toEqual(expect.arrayContaining([inA.id, inB.id, unqueued.id]));
    expect(forAdmin).not.toContain(colleagueOpen.id);
    const showAll = await boardIds(a.adminLogin, "?showAll=true");
    expect(showAll).toEqual(
      expect.arrayContaining([inA.id, inB.id, unqueued.id, mineOpen.id, colleagueOpen.id]),
    );
    expect(showAll).not.toContain(closed.id);
    // showAll is the admin's right only: an agent asking for it sees what they saw.
    expect(await boardIds(agentA.login, "?showAll=true")).not.toContain(colleagueOpen.id);
    // queueIds as JSON narrows to those queues (own tickets stay).
    const onlyB = await boardIds(
      a.adminLogin,
      `?queueIds=${encodeURIComponent(JSON.stringify([queueB.id]))}`,
    );
    expect(onlyB).toContain(inB.id);
    expect(onlyB).not.toContain(inA.id);

    const card = (await board(agentA.login)).tickets.find((t) => t.id === inA.id)!;
    expect(card).toMatchObject({
      uuid: inA.uuid,
      status: "pending",
      lastMessage: "fila A",
      queue: { id: queueA.id, name: queueA.name, color: queueA.color },
      tags: [],
    });
  });

  it("moves a ticket between lanes: DELETE leaves the lane, PUT enters one, other tags stay", async () => {
    const [todo, doing] = [
      await newTag(a.adminLogin, { kanban: 1 }),
      await newTag(a.adminLogin, { kanban: 1 }),
    ];
    const label = await newTag();
    const ticket = await pendingIn(queueA.id);
    expectOk(await sync(agentA.login, ticket.id, [label.id]));

    // 'Em aberto' → todo: the client's two calls.
    expectOk(await leaveLane(agentA.login, ticket.id));
    const inTodo = expectOk<TicketDTO>(await addTag(agentA.login, ticket.id, todo.id));
    expect(inTodo.tags.map((t) => t.id).sort((x, y) => x - y)).toEqual(
      [label.id, todo.id].sort((x, y) => x - y),
    );

    // todo → doing.
    const left = expectOk<TicketDTO>(await leaveLane(agentA.login, ticket.id));
    expect(left.tags.map((t) => t.id)).toEqual([label.id]);
    expectOk(await addTag(agentA.login, ticket.id, doing.id));
    expect(await tagIdsOf(ticket.id)).toEqual([label.id, doing.id].sort((x, y) => x - y));

    // A PUT alone also moves: a ticket sits in one lane.
    expectOk(await addTag(agentA.login, ticket.id, todo.id));
    expect(await tagIdsOf(ticket.id)).toEqual([label.id, todo.id].sort((x, y) => x - y));
    // PUT twice is harmless.
    expectOk(await addTag(agentA.login, ticket.id, todo.id));
    expect(await tagIdsOf(ticket.id)).toEqual([label.id, todo.id].sort((x, y) => x - y));

    // Two agents dropping the card into two lanes at once: it ends in one of them.
    await Promise.all([addTag(agentA.login, ticket.id, doing.id), addTag(agentA2.login, ticket.id, todo.id)]);
    const lanes = (await tagIdsOf(ticket.id)).filter((id) => id === todo.id || id === doing.id);
    expect(lanes).toHaveLength(1);

    // Back to 'Em aberto': the lane tag goes, the plain tag stays.
    expectOk(await leaveLane(agentA.login, ticket.id));
    expect(await tagIdsOf(ticket.id)).toEqual([label.id]);
    expect(expectOk<TagDTO>(await call("GET", `/tags/${todo.id}`, a.adminLogin)).ticketsCount).toBe(0);

    // Who may not move it, and what does not exist.
    expectError(await addTag(agentB.login, ticket.id, todo.id), 403, "ERR_TICKET_ACCESS_DENIED");
    expectError(await leaveLane(agentB.login, ticket.id), 403, "ERR_TICKET_ACCESS_DENIED");
    expectError(await addTag(agentA.login, ticket.id, b.tag.id), 404, "ERR_NO_TAG_FOUND");
    expectError(await addTag(agentA.login, b.ticketId, todo.id), 404, "ERR_NO_TICKET_FOUND");
    expectError(await leaveLane(agentA.login, b.ticketId), 404, "ERR_NO_TICKET_FOUND");
    expectError(await leaveLane(b.admin.login, ticket.id), 404, "ERR_NO_TICKET_FOUND");
    expectError(await call("PUT", `/ticket-tags/${ticket.id}/abc`, agentA.login), 400, "ERR_VALIDATION");
    expect(await tagIdsOf(ticket.id)).toEqual([label.id]);
  });

  it("is refused when the company's plan has no kanban; tags still work", async () => {
    const company = await buildCompany(ctx.deps.db);
    const admin = await buildMember(ctx, company.id, { profile: "admin" });
    const contact = await buildContact(ctx.deps.db, company.id, { name: "Sem kanban" });
    const ticket = await buildTicket(ctx.deps.db, company.id, { contactId: contact.id, status: "pending" });
    // A lane made while the plan had kanban; then the plan loses it.
    const tag = await createTag(admin.login, { name: "Lane sem plano", kanban: 1 });
    await ctx.deps.db.update(plans).set({ useKanban: false }).where(eq(plans.id, company.planId!));

    expectError(await call("GET", "/ticket/kanban", admin.login), 403, "ERR_PLAN_FEATURE_DISABLED");
    expectError(await addTag(admin.login, ticket.id, tag.id), 403, "ERR_PLAN_FEATURE_DISABLED");
    expectError(await leaveLane(admin.login, ticket.id), 403, "ERR_PLAN_FEATURE_DISABLED");
    expect(await tagIdsOf(ticket.id)).toEqual([]);
    // The chat's tag editor is not a kanban feature.
    expectOk(await sync(admin.login, ticket.id, [tag.id]));
    expect(await tagIdsOf(ticket.id)).toEqual([tag.id]);
  });
});

describe("tenant isolation", () => {
  it("answers 404 for another company's tag, and never lists it", async () => {
    const mine = await newTag();
    for (const res of [
      await call("GET", `/tags/${b.tag.id}`, a.adminLogin),
      await call("PUT", `/tags/${b.tag.id}`, a.adminLogin, { name: "Roubada" }),
      await call("DELETE", `/tags/${b.tag.id}`, a.adminLogin),
      await call("GET", `/tags/${mine.id}`, b.admin.login),
      await call("PUT", `/tags/${mine.id}`, b.admin.login, { kanban: 0 }),
      await call("DELETE", `/tags/${mine.id}`, b.admin.login),
    ])
      expectError(res, 404, "ERR_NO_TAG_FOUND");
    expect(expectOk<TagDTO>(await call("GET", `/tags/${b.tag.id}`, b.admin.login)).name).toBe("Tag da B");
    const listA = expectOk<TagDTO[]>(await call("GET", "/tags/list", a.adminLogin));
    expect(listA.map((t) => t.id)).not.toContain(b.tag.id);
    const pageB = expectOk<TagsPage>(await call("GET", "/tags", b.admin.login));
    expect(pageB.tags.map((t) => t.id)).toContain(b.tag.id);
    expect(pageB.tags.map((t) => t.id)).not.toContain(mine.id);
    expect(await boardIds(b.admin.login)).toEqual([b.ticketId]);
  });
});

describe("the live channel", () => {
  type TagEvent = CompanyEventPayloads["tag"];
  type TicketEvent = CompanyEventPayloads["ticket"];

  async function open(who: LoggedIn) {
    const socket = await connectSocket(await ctx.url(), who.token);
    sockets.push(socket);
    return socket;
  }

  it("sends -tag events to the company's sockets, and a ticket's tag change to who may see it", async () => {
    const tagEvent = companyEvent(a.company.id, "tag");
    const ticketEvent = companyEvent(a.company.id, "ticket");
    const [adminS, agentAS, agentBS, adminBS] = [
      await open(a.adminLogin),
      await open(agentA.login),
      await open(agentB.login),
      await open(b.admin.login),
    ];
    const tagsHeard = {
      admin: record<TagEvent>(adminS, tagEvent),
      agentA: record<TagEvent>(agentAS, tagEvent),
      agentB: record<TagEvent>(agentBS, tagEvent),
    };
    const otherCompanyHeard: string[] = [];
    adminBS.onAny((name: string) => otherCompanyHeard.push(name));
    const ticketsHeard = {
      admin: record<TicketEvent>(adminS, ticketEvent),
      agentA: record<TicketEvent>(agentAS, ticketEvent),
      agentB: record<TicketEvent>(agentBS, ticketEvent),
    };

    const lane = await newTag(supervisor.login, { kanban: 1 });
    await waitFor(() => tagsHeard.agentB.some((e) => e.action === "create" && e.tag.id === lane.id));
    expect(tagsHeard.admin).toContainEqual({ action: "create", tag: lane });
    expect(tagsHeard.agentA).toContainEqual({ action: "create", tag: lane });

    const ticket = await pendingIn(queueA.id);
    expectOk(await leaveLane(agentA.login, ticket.id));
    expectOk(await addTag(agentA.login, ticket.id, lane.id));
    const moved = (e: TicketEvent) =>
      e.action === "update" && e.ticket.id === ticket.id && e.ticket.tags.some((t) => t.id === lane.id);
    await waitFor(() => ticketsHeard.agentA.some(moved) && ticketsHeard.admin.some(moved));
    // The lane's count followed.
    await waitFor(() =>
      tagsHeard.agentA.some((e) => e.action === "update" && e.tag.id === lane.id && e.tag.ticketsCount === 1),
    );

    const renamed = expectOk<TagDTO>(
      await call("PUT", `/tags/${lane.id}`, a.adminLogin, { name: `${lane.name} ok` }),
    );
    await waitFor(() => tagsHeard.agentB.some((e) => e.action === "update" && e.tag.name === renamed.name));
    expectOk(await call("DELETE", `/tags/${lane.id}`, a.adminLogin), 204);
    await waitFor(() => tagsHeard.agentA.some((e) => e.action === "delete" && e.tagId === lane.id));

    // Anything sent to agent B or company B with the events above has reached them by now.
    await Promise.all([caughtUp(agentBS), caughtUp(adminBS)]);
    expect(ticketsHeard.agentB.some((e) => e.action === "update" && e.ticket.id === ticket.id)).toBe(false);
    expect(otherCompanyHeard.filter((name) => name.startsWith(`company-${a.company.id}-`))).toEqual([]);
  });
});
