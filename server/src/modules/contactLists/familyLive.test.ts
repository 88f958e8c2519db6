import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import {
  CONTACT_LIST_IMPORT_LIMITS,
  type ContactListDTO,
  type ContactListImportDTO,
  type ContactListItemDTO,
  type ContactListItemsPage,
} from "@atende/contracts";
import { plans } from "../../db/schema/index.js";
import { buildSimulatorCompany } from "../../test/channels.js";
import { caller, expectOk, fileForm } from "../../test/calls.js";
import { type LoggedIn, buildTeam, uid } from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, waitFor } from "../../test/harness.js";
import { caughtUp } from "../../test/settled.js";

/**
 * The contact-list items page of the Whaticket SaaS front end, live: it listens on
 * `company-{id}-ContactListItem` (create/update with `record`, delete with `id`, reload with
 * `records`) and on `company-{id}-ContactListItem-{listId}` (reload with `records`, after an
 * import), and folds `records` in with `records.forEach`: every reload it hears carries them.
 * Only the company's admins hear any of it.
 */

let ctx: TestContext;
let adminA: LoggedIn;
let agentA: LoggedIn;
let adminB: LoggedIn;
const sockets: Socket[] = [];
const call = caller(() => ctx);

interface Heard {
  event: string;
  payload: { action: string; record?: ContactListItemDTO; records?: unknown; id?: number | string };
}

async function withCampaigns(planId: number | null) {
  if (planId) await ctx.deps.db.update(plans).set({ useCampaigns: true }).where(eq(plans.id, planId));
}

/** A socket of `who` that keeps every contact-list item event it hears, by name. */
async function listen(who: LoggedIn): Promise<{ socket: Socket; heard: Heard[] }> {
  const heard: Heard[] = [];
  const socket = await connectSocket(await ctx.url(), who.token, (s) =>
    s.onAny((event: string, payload: Heard["payload"]) => {
      if (event.includes("ContactListItem")) heard.push({ event, payload });
    }),
  );
  sockets.push(socket);
  return { socket, heard };
}

/** What the family's reducer does with a reload: `records.forEach(...)` (throws without records). */
function familyLoad(state: ContactListItemDTO[], records: unknown): ContactListItemDTO[] {
  const next = [...state];
  (records as ContactListItemDTO[]).forEach((r) => {
    const at = next.findIndex((c) => c.id === r.id);
    if (at === -1) next.push(r);
    else next[at] = r;
  });
  return next;
}

const items = async (who: LoggedIn, listId: number) =>
  expectOk<ContactListItemsPage>(await call("GET", `/contact-list-items?contactListId=${listId}`, who));

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  const a = await buildTeam(ctx);
  const b = await buildTeam(ctx);
  await withCampaigns(a.company.planId);
  await withCampaigns(b.company.planId);
  adminA = a.adminLogin;
  agentA = a.agentLogin;
  adminB = b.adminLogin;
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await ctx.close();
});

describe("contact-list items as the Whaticket SaaS items page hears them", () => {
  it("an item added, edited and deleted: record, record, id on company-{id}-ContactListItem", async () => {
    const companyId = adminA.user.companyId;
    const admin = await listen(adminA);
    const agent = await listen(agentA);
    const other = await listen(adminB);
    const list = expectOk<ContactListDTO>(
      await call("POST", "/contact-lists", adminA, { name: `Lista ${uid()}` }),
      201,
    );
    // The family's item modal sends the list and its company (ignored: the token's is used).
    const item = expectOk<ContactListItemDTO>(
      await call("POST", "/contact-list-items", adminA, {
        name: "Fulano",
        number: "5511911113333",
        email: "",
        contactListId: String(list.id),
        companyId: String(adminB.user.companyId),
      }),
      201,
    );
    expect(item.companyId).toBe(companyId);
    const edited = expectOk<ContactListItemDTO>(
      await call("PUT", `/contact-list-items/${item.id}`, adminA, { ...item, name: "Fulano Editado" }),
    );
    expectOk(await call("DELETE", `/contact-list-items/${item.id}`, adminA));
    await waitFor(() => admin.heard.length >= 3);
    const event = `company-${companyId}-ContactListItem`;
    expect(admin.heard.slice(0, 3)).toEqual([
      { event, payload: { action: "create", record: item } },
      { event, payload: { action: "update", record: edited } },
      { event, payload: expect.objectContaining({ action: "delete", id: item.id }) },
    ]);
    await Promise.all([agent.socket, other.socket].map(caughtUp));
    expect(agent.heard).toEqual([]);
    expect(other.heard).toEqual([]);
  });

  it("after an import: reload with the imported items in records on company-{id}-ContactListItem-{listId}", async () => {
    const companyId = adminA.user.companyId;
    const admin = await listen(adminA);
    const agent = await listen(agentA);
    const other = await listen(adminB);
    const list = expectOk<ContactListDTO>(
      await call("POST", "/contact-lists", adminA, { name: `Importada ${uid()}` }),
      201,
    );
    const elsewhere = expectOk<ContactListDTO>(
      await call("POST", "/contact-lists", adminA, { name: `Outra ${uid()}` }),
      201,
    );
    // More than one batch, a repeated number and a bad row: only the rows that became items.
    const rows = ["nome,numero,email"];
    const total = CONTACT_LIST_IMPORT_LIMITS.batchRows + 5;
    for (let i = 0; i < total; i++) rows.push(`Pessoa ${i},55119600${String(i).padStart(5, "0")},`);
    rows.push("Repetida,5511960000000,", "Ruim,abc,");
    const form = fileForm(Buffer.from(rows.join("\n")), "lista.csv", "text/csv");
    expectOk<ContactListImportDTO>(
      await call("POST", `/contact-lists/${list.id}/upload`, adminA, form.payload, form.headers),
    );
    while ((await ctx.built.channels.jobs.runDue()) > 0);
    const listEvent = `company-${companyId}-ContactListItem-${list.id}`;
    const reloads = () => admin.heard.filter((h) => h.event === listEvent);
    await waitFor(
      () => reloads().reduce((n, h) => n + ((h.payload.records as unknown[]) ?? []).length, 0) >= total,
    );
    await caughtUp(admin.socket);

    let page: ContactListItemDTO[] = [];
    for (const h of reloads()) {
      expect(h.payload.action).toBe("reload");
      page = familyLoad(page, h.payload.records);
    }
    const stored = await items(adminA, list.id);
    expect(page).toHaveLength(total);
    expect(stored.count).toBe(total);
    const byId = new Map(page.map((r) => [r.id, r]));
    for (const row of stored.contacts) expect(byId.get(row.id)).toEqual(row);
    expect(page.every((r) => r.contactListId === list.id && r.companyId === companyId)).toBe(true);
    // Every reload anywhere carries records; no other list's channel heard this import.
    for (const h of admin.heard.filter((x) => x.payload.action === "reload"))
      expect(Array.isArray(h.payload.records)).toBe(true);
    expect(admin.heard.some((h) => h.event.endsWith(`-ContactListItem-${elsewhere.id}`))).toBe(false);
    await Promise.all([agent.socket, other.socket].map(caughtUp));
    expect(agent.heard).toEqual([]);
    expect(other.heard).toEqual([]);
  }, 60_000);

  it("after the WhatsApp check of an item added by hand: reload with the checked items in records", async () => {
    const sim = await buildSimulatorCompany(ctx, { bot: false });
    await withCampaigns(sim.company.planId);
    const who = sim.adminLogin;
    const admin = await listen(who);
    const list = expectOk<ContactListDTO>(
      await call("POST", "/contact-lists", who, { name: "Checada", whatsappId: sim.connection.id }),
      201,
    );
    const yes = expectOk<ContactListItemDTO>(
      await call("POST", "/contact-list-items", who, {
        name: "Tem",
        number: "5511987650003",
        contactListId: list.id,
      }),
      201,
    );
    const no = expectOk<ContactListItemDTO>(
      await call("POST", "/contact-list-items", who, {
        name: "Não tem",
        number: "5511987650000",
        contactListId: list.id,
      }),
      201,
    );
    const reloads = () => admin.heard.filter((h) => h.payload.action === "reload");
    let page = [yes, no];
    await waitFor(async () => {
      await ctx.built.channels.jobs.runDue();
      page = reloads().reduce((state, h) => familyLoad(state, h.payload.records), [yes, no]);
      return page.every((r) => r.isWhatsappValid !== null);
    });
    expect(Object.fromEntries(page.map((r) => [r.name, r.isWhatsappValid]))).toEqual({
      Tem: true,
      "Não tem": false,
    });
    for (const h of reloads()) {
      expect(h.event).toBe(`company-${sim.company.id}-ContactListItem`);
      expect(h.payload).toMatchObject({ contactListId: list.id, records: expect.any(Array) });
    }
    const stored = await items(who, list.id);
    expect(Object.fromEntries(stored.contacts.map((r) => [r.id, r]))).toEqual(
      Object.fromEntries(page.map((r) => [r.id, r])),
    );
  });
});
