import { and, eq } from "drizzle-orm";
import type { Executor } from "../db/client.js";
import {
  contacts,
  messages,
  tags,
  ticketNotes,
  ticketTags,
  tickets,
  users,
  whatsapps,
} from "../db/schema/index.js";
import { DEMO_COMPANY } from "./index.js";
import { companies } from "../db/schema/index.js";

/**
 * Conversations generated into the demo company (seedDemo first): `tickets` customers with one
 * ticket each (a third open with Ana, a third pending, a third closed), `messagesPerTicket`
 * messages each (customer and agent in turn, one of every ten with a file), a tag on every other
 * ticket and a note on every fifth. For what needs a filled database: the backup and move tests,
 * the upgrade fixture, measurements. Deterministic apart from ids and times.
 */
export async function sampleConversations(
  db: Executor,
  opts: { tickets: number; messagesPerTicket: number },
): Promise<{ companyId: number; tickets: number; messages: number }> {
  const [company] = await db.select().from(companies).where(eq(companies.name, DEMO_COMPANY));
  if (!company) throw new Error("no demo company: seed the demo first");
  const companyId = company.id;
  const [ana] = await db
    .select()
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.email, "ana@atende.demo")));
  const [connection] = await db.select().from(whatsapps).where(eq(whatsapps.companyId, companyId));
  const [tag] = await db.insert(tags).values({ companyId, name: "Amostra", color: "#1565c0" }).returning();
  const statuses = ["open", "pending", "closed"] as const;
  let messageCount = 0;
  for (let from = 0; from < opts.tickets; from += 200) {
    const n = Math.min(200, opts.tickets - from);
    const people = await db
      .insert(contacts)
      .values(
        Array.from({ length: n }, (_, i) => ({
          companyId,
          name: `Cliente ${from + i + 1}`,
          number: `55119${String(10_000_000 + from + i).padStart(8, "0")}`,
        })),
      )
      .returning({ id: contacts.id });
    const opened = await db
      .insert(tickets)
      .values(
        people.map((p, i) => {
          const status = statuses[(from + i) % 3]!;
          return {
            companyId,
            contactId: p.id,
            whatsappId: connection?.id ?? null,
            status,
            userId: status === "open" ? (ana?.id ?? null) : null,
            lastMessage: `Mensagem ${opts.messagesPerTicket}`,
          };
        }),
      )
      .returning({ id: tickets.id, contactId: tickets.contactId });
    const rows = opened.flatMap((t, i) =>
      Array.from({ length: opts.messagesPerTicket }, (_, m) => ({
        companyId,
        ticketId: t.id,
        contactId: t.contactId,
        whatsappId: connection?.id ?? null,
        wid: `SAMPLE${from + i}-${m}`,
        body: `Mensagem ${m + 1} do cliente ${from + i + 1}: "olá"\tcom\\caracteres\nespeciais`,
        fromMe: m % 2 === 1,
        userId: m % 2 === 1 ? (ana?.id ?? null) : null,
        ack: m % 2 === 1 ? 3 : 0,
        mediaType: m % 10 === 9 ? "image" : "chat",
        mediaPath:
          m % 10 === 9
            ? `${companyId}/00000000-0000-4000-8000-${String(from + i).padStart(12, "0")}.png`
            : null,
      })),
    );
    for (let i = 0; i < rows.length; i += 1000) await db.insert(messages).values(rows.slice(i, i + 1000));
    messageCount += rows.length;
    const tagged = opened.filter((_, i) => (from + i) % 2 === 0);
    if (tagged.length)
      await db.insert(ticketTags).values(tagged.map((t) => ({ ticketId: t.id, tagId: tag!.id, companyId })));
    const noted = opened.filter((_, i) => (from + i) % 5 === 0);
    if (noted.length)
      await db.insert(ticketNotes).values(
        noted.map((t) => ({
          companyId,
          ticketId: t.id,
          contactId: t.contactId,
          userId: ana?.id ?? null,
          note: "Retornar amanhã",
        })),
      );
  }
  return { companyId, tickets: opts.tickets, messages: messageCount };
}
