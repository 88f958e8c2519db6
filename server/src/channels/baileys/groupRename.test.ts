import type { GroupMetadata } from "./lib.js";
import { and, eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompanyEventPayloads, WhatsappDetailDTO } from "@atende/contracts";
import { contacts, messages, whatsapps } from "../../db/schema/index.js";
import { caller, expectOk } from "../../test/calls.js";
import { buildCompany, buildContact, buildTeam } from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import type { FakeSocket } from "./fixtures/fakeSocket.js";
import { fakeSocketProvider } from "./fixtures/harness.js";
import { CUSTOMER_JID, fixtures, subjectChanged } from "./fixtures/messages.js";

/**
 * A WhatsApp group renamed by one of its members renames the group's contact in Atende, and the
 * agents' screens (ticket list, chat header) hear it at once: WhatsApp tells it as a group update,
 * or as the subject notice in the group's chat, which Baileys turns into one. Baileys runs on fake
 * sockets driven as WhatsApp drives the real one; the pipeline, the database and the agents'
 * sockets are real.
 */

const GROUP = "120363025246125486@g.us";
const GROUP_NUMBER = "120363025246125486";

let ctx: TestContext;
const fakeSockets: FakeSocket[] = [];
const browsers: Socket[] = [];
const call = caller(() => ctx);

let team: Awaited<ReturnType<typeof buildTeam>>;
/** Another company that happens to hold a contact with the same group id. */
let strangerContactId: number;
let groupContactId: number;
let heard: CompanyEventPayloads["contact"][];

/** The live socket of the one WhatsApp Web connection (a reconnect would make a new one). */
const whatsapp = () => fakeSockets.at(-1)!;

const group = (subject: string): GroupMetadata => ({
  id: GROUP,
  subject,
  owner: undefined,
  participants: [
    { id: "98765432109876@lid", phoneNumber: "5521998877665@s.whatsapp.net", admin: "superadmin" },
  ],
});

async function contactRow(id: number) {
  const [row] = await ctx.deps.db.select().from(contacts).where(eq(contacts.id, id));
  return row!;
}

async function waitForName(id: number, name: string) {
  await waitFor(async () => (await contactRow(id)).name === name, 10_000);
}

beforeAll(async () => {
  ctx = await createTestContext(
    { LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 },
    {
      providers: {
        beta: fakeSocketProvider(fakeSockets),
      },
    },
  );
  ctx.built.startBackground();
  const db = ctx.deps.db;
  team = await buildTeam(ctx);
  const stranger = await buildCompany(db);
  strangerContactId = (
    await buildContact(db, stranger.id, {
      name: "Grupo da outra empresa",
      number: GROUP_NUMBER,
      isGroup: true,
    })
  ).id;

  // The company shows its groups' messages; its WhatsApp Web connection is paired and open.
  expectOk(await call("PUT", "/settings/CheckMsgIsGroup", team.adminLogin, { value: "disabled" }));
  const created = expectOk<WhatsappDetailDTO>(
    await call("POST", "/whatsapp", team.adminLogin, { name: "WhatsApp Web", provider: "beta" }),
    201,
  );
  await waitFor(() => fakeSockets.length > 0, 10_000);
  whatsapp().user = { id: "5511987654321:4@s.whatsapp.net", name: "Loja" };
  whatsapp().fire("connection.update", { connection: "open" });
  await waitFor(async () => {
    const [row] = await db.select().from(whatsapps).where(eq(whatsapps.id, created.id));
    return row?.status === "CONNECTED";
  }, 10_000);

  // A first message in the group: its contact, named by the subject WhatsApp answers for it.
  whatsapp().groupsKnown.set(GROUP, group("Clientes VIP"));
  whatsapp().fire("messages.upsert", { type: "notify", messages: [fixtures.group] });
  await waitFor(async () => {
    const [row] = await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, team.company.id), eq(contacts.number, GROUP_NUMBER)));
    if (row?.name !== "Clientes VIP") return false;
    groupContactId = row.id;
    return true;
  }, 10_000);

  // An agent has the ticket list open.
  const browser = await connectSocket(await ctx.url(), team.agentLogin.token);
  browsers.push(browser);
  heard = record<CompanyEventPayloads["contact"]>(browser, `company-${team.company.id}-contact`);
});

afterAll(async () => {
  for (const b of browsers) b.close();
  await ctx.close();
});

describe("a WhatsApp group renamed on the phone", () => {
  it("renames its contact when WhatsApp sends the group's new subject (groups.update), and the agents' screens hear it", async () => {
    whatsapp().fire("groups.update", [{ id: GROUP, subject: "Clientes Ouro", author: "98765432109876@lid" }]);
    await waitForName(groupContactId, "Clientes Ouro");
    await waitFor(() => heard.some((e) => e.action === "update" && e.contact.name === "Clientes Ouro"));
    expect(heard.at(-1)).toMatchObject({
      action: "update",
      contact: { id: groupContactId, name: "Clientes Ouro", number: GROUP_NUMBER, isGroup: true },
    });
    // Only this company's contact of that group: another company's stays as it was.
    expect((await contactRow(strangerContactId)).name).toBe("Grupo da outra empresa");
  });

  it("renames it from the subject notice in the group's chat (a GROUP_CHANGE_SUBJECT stub), which shows as no message", async () => {
    const stored = async () =>
      (await ctx.deps.db.select().from(messages).where(eq(messages.companyId, team.company.id))).length;
    const before = await stored();
    await whatsapp().receive(subjectChanged(GROUP, "Clientes Diamante", "SUBJ1"), "append");
    await waitForName(groupContactId, "Clientes Diamante");
    await waitFor(() => heard.some((e) => e.action === "update" && e.contact.name === "Clientes Diamante"));
    expect(heard.at(-1)).toMatchObject({
      action: "update",
      contact: { id: groupContactId, name: "Clientes Diamante" },
    });
    expect(await stored()).toBe(before);
    expect((await contactRow(strangerContactId)).name).toBe("Grupo da outra empresa");
  });

  it("leaves a customer's saved name alone: what WhatsApp calls a person does not replace it", async () => {
    whatsapp().fire("messages.upsert", { type: "notify", messages: [fixtures.text] });
    let customerId = 0;
    await waitFor(async () => {
      const [row] = await ctx.deps.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.companyId, team.company.id), eq(contacts.number, "5511987654321")));
      customerId = row?.id ?? 0;
      return row?.name === "Maria";
    }, 10_000);
    whatsapp().fire("contacts.upsert", [{ id: CUSTOMER_JID, notify: "Maria (trabalho)" }]);
    // Handed on in order: once the group's rename is in, the customer's name was weighed before it.
    whatsapp().fire("groups.update", [{ id: GROUP, subject: "Clientes Platina" }]);
    await waitForName(groupContactId, "Clientes Platina");
    expect((await contactRow(customerId)).name).toBe("Maria");
  });
});
