import { and, asc, eq, min } from "drizzle-orm";
import type { CampaignDTO } from "@atende/contracts";
import {
  campaignShippings,
  companies,
  contactListItems,
  contactLists,
  jobs,
  messages,
  plans,
  simulatorMessages,
  tags,
  ticketTags,
} from "../../db/schema/index.js";
import type { Executor } from "../../db/client.js";
import { buildSimulatorCompany } from "../../test/channels.js";
import { caller, expectOk } from "../../test/calls.js";
import { type LoggedIn, buildContact, buildTicket, newNumber, uid } from "../../test/factories.js";
import type { TestContext } from "../../test/harness.js";

/** Shared by the campaigns suites: a company on a plan with campaigns, its audiences, and the job loop. */

export async function campaignCompany(ctx: TestContext) {
  const team = await buildSimulatorCompany(ctx, { bot: false });
  await enableCampaigns(ctx.deps.db, team.company.id);
  return team;
}

export async function enableCampaigns(db: Executor, companyId: number, limit = 0) {
  const [company] = await db.select().from(companies).where(eq(companies.id, companyId));
  await db.update(plans).set({ useCampaigns: true, campaigns: limit }).where(eq(plans.id, company!.planId!));
}

/** A contact list with these people (numbers made up when not given). */
export async function buildList(
  db: Executor,
  companyId: number,
  people: { name?: string; number?: string; email?: string; isWhatsappValid?: boolean | null }[],
) {
  const [list] = await db
    .insert(contactLists)
    .values({ companyId, name: `Lista ${uid()}` })
    .returning();
  const items = [];
  for (const p of people) {
    const [item] = await db
      .insert(contactListItems)
      .values({
        companyId,
        contactListId: list!.id,
        name: p.name ?? `Pessoa ${uid()}`,
        number: p.number ?? newNumber(40_000_000),
        email: p.email ?? "",
        isWhatsappValid: p.isWhatsappValid ?? true,
      })
      .returning();
    items.push(item!);
  }
  return { list: list!, items };
}

/** A tag on tickets of `count` new contacts (the tag's audience). */
export async function buildTagAudience(db: Executor, companyId: number, count: number) {
  const [tag] = await db
    .insert(tags)
    .values({ companyId, name: `tag ${uid()}` })
    .returning();
  const people = [];
  for (let i = 0; i < count; i++) {
    const contact = await buildContact(db, companyId, { number: newNumber(45_000_000) });
    const ticket = await buildTicket(db, companyId, { contactId: contact.id, status: "closed" });
    await db.insert(ticketTags).values({ ticketId: ticket.id, tagId: tag!.id, companyId });
    people.push(contact);
  }
  return { tag: tag!, people };
}

export function campaignCalls(current: () => TestContext) {
  const call = caller(current);
  return {
    call,
    async create(who: LoggedIn, body: Record<string, unknown>): Promise<CampaignDTO> {
      return expectOk<CampaignDTO>(await call("POST", "/campaigns", who, body), 201);
    },
    async get(who: LoggedIn, id: number): Promise<CampaignDTO> {
      return expectOk<CampaignDTO>(await call("GET", `/campaigns/${id}`, who));
    },
    async settings(who: LoggedIn, settings: Record<string, unknown>) {
      expectOk(await call("POST", "/campaign-settings", who, { settings }));
    },
  };
}

/** Runs every due job until none is left (the job runner stopped, the clock the test's). */
export async function drain(ctx: TestContext) {
  for (let i = 0; i < 10_000; i++) {
    const ran = await ctx.built.channels.jobs.runDue();
    if (ran === 0) {
      // The outbound sends land through the simulator asynchronously: one more look.
      await new Promise((r) => setTimeout(r, 20));
      if ((await ctx.built.channels.jobs.runDue()) === 0) return;
    }
  }
  throw new Error("jobs never drained");
}

/** When the next campaign step is due (null: none pending). */
export async function nextStepAt(db: Executor, companyId: number): Promise<Date | null> {
  const [row] = await db
    .select({ at: min(jobs.runAt) })
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.type, "campaign-step"), eq(jobs.status, "pending")));
  return row?.at ? new Date(row.at) : null;
}

export async function shippingsOf(db: Executor, campaignId: number) {
  return db
    .select()
    .from(campaignShippings)
    .where(eq(campaignShippings.campaignId, campaignId))
    .orderBy(asc(campaignShippings.id));
}

/** What a phone number received from the connection through the simulator. */
export async function phoneReceived(db: Executor, whatsappId: number, number: string) {
  const rows = await db
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
  return rows.map((r) => r.body);
}

/** Our outbound message rows to a contact (the contact's history). */
export async function storedTo(db: Executor, companyId: number, contactId: number) {
  return db
    .select()
    .from(messages)
    .where(
      and(eq(messages.companyId, companyId), eq(messages.contactId, contactId), eq(messages.fromMe, true)),
    );
}
