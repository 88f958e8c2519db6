import { performance } from "node:perf_hooks";
import type { LoginAnswer, MessagesPage, TicketDTO, TicketsPage } from "@atende/contracts";
import { MESSAGE_PAGE_SIZE, TICKET_PAGE_SIZE } from "@atende/contracts";
import { TEST_PASSWORD } from "../../server/src/test/factories.js";
import type { Workspace } from "./workspace.js";

/** The workspace's read calls that bench/tickets times, and the HTTP client that makes them. */
export type Kind = "list" | "search" | "ticket" | "messages";

export interface Call {
  who: "admin" | "agent";
  label: string;
  kind: Kind;
  /** Paths taken in turn, one per request. */
  paths: string[];
}

/** HTTP as the web app speaks it: bearer token, JSON answers (text for a file); the time runs to the answer's last byte. */
export class Client {
  private tokens = new Map<string, { token: string; at: number }>();
  constructor(
    private readonly url: string,
    private readonly emails: Record<Call["who"], string>,
  ) {}

  private async token(who: Call["who"]): Promise<string> {
    const held = this.tokens.get(who);
    // Access tokens live 15 minutes; a long run logs in again.
    if (held && performance.now() - held.at < 10 * 60_000) return held.token;
    const res = await fetch(`${this.url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: this.emails[who], password: TEST_PASSWORD }),
    });
    if (res.status !== 200) throw new Error(`login as ${who} failed: ${res.status} ${await res.text()}`);
    const token = ((await res.json()) as LoginAnswer).token;
    this.tokens.set(who, { token, at: performance.now() });
    return token;
  }

  async get<T>(who: Call["who"], path: string): Promise<{ ms: number; body: T }> {
    const authorization = `Bearer ${await this.token(who)}`;
    const started = performance.now();
    const res = await fetch(`${this.url}${path}`, { headers: { authorization } });
    const text = await res.text();
    const elapsed = performance.now() - started;
    if (res.status !== 200) throw new Error(`GET ${path} as ${who}: ${res.status} ${text.slice(0, 300)}`);
    // A file download (CSV) is kept as text.
    const json = (res.headers.get("content-type") ?? "").includes("json");
    return { ms: elapsed, body: (json ? JSON.parse(text) : text) as T };
  }
}

type ListQuery = Record<string, string | number | boolean | number[]>;

/** GET /tickets as the web app sends it (id lists as JSON). */
const ticketsPath = (query: ListQuery) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) params.set(k, Array.isArray(v) ? JSON.stringify(v) : String(v));
  return `/tickets?${params}`;
};

/** The ids of the rows a call answered, and the table they live in (for the baseline). */
export function rowsOf(kind: Kind, body: unknown): { table: "tickets" | "messages"; ids: number[] } {
  if (kind === "ticket") return { table: "tickets", ids: [(body as TicketDTO).id] };
  if (kind === "messages")
    return { table: "messages", ids: (body as MessagesPage).messages.map((m) => m.id) };
  return { table: "tickets", ids: (body as TicketsPage).tickets.map((t) => t.id) };
}

/** How many rows the call's filter matched (the answer's count). */
export function matchesOf(kind: Kind, body: unknown): number {
  if (kind === "ticket") return 1;
  return (body as TicketsPage | MessagesPage).count;
}

/** The deepest page up to `wanted` that the list has. */
async function deepPage(client: Client, who: Call["who"], query: ListQuery, wanted: number) {
  const { body } = await client.get<TicketsPage>(who, ticketsPath({ ...query, pageNumber: 1 }));
  return Math.max(1, Math.min(wanted, Math.ceil(body.count / TICKET_PAGE_SIZE)));
}

/**
 * Each tab as the web app asks for it, page 1 and a deep page; the queue filter and show-all; the
 * search tab on a contact's name, their number (and, for the admin, its last 8 digits as typed with
 * a dash), a word in about 2 % of the messages (and, for the admin, one in 10 %); one ticket; the
 * first and an older page of messages.
 */
export async function buildCalls(
  client: Client,
  ws: Workspace,
  pages: { deep: number; olderMessages: number },
): Promise<Call[]> {
  const s = ws.search;
  const twoQueues = ws.queueIds.slice(0, 2);
  const adminDeep = await deepPage(client, "admin", { status: "closed", showAll: true }, pages.deep);
  const agentDeep = await deepPage(client, "agent", { status: "closed" }, pages.deep);
  const heavy = ws.heavyTicketIds;
  const { body: conversation } = await client.get<MessagesPage>("admin", `/messages/${heavy[0]}`);
  const older = Math.max(1, Math.min(pages.olderMessages, Math.ceil(conversation.count / MESSAGE_PAGE_SIZE)));

  const list = (who: Call["who"], label: string, query: ListQuery): Call => ({
    who,
    label,
    kind: "list",
    paths: [ticketsPath(query)],
  });
  const search = (who: Call["who"], label: string, text: string): Call => ({
    who,
    label: `search ${label}`,
    kind: "search",
    paths: [ticketsPath({ searchParam: text })],
  });
  const ticket = (who: Call["who"], ids: number[]): Call => ({
    who,
    label: "GET /tickets/{id}",
    kind: "ticket",
    paths: ids.map((id) => `/tickets/${id}`),
  });
  const messages = (who: Call["who"], label: string, ids: number[], page: number): Call => ({
    who,
    label: `messages, ${label}${page > 1 ? `, page ${page}` : ""}`,
    kind: "messages",
    paths: ids.map((id) => `/messages/${id}${page > 1 ? `?pageNumber=${page}` : ""}`),
  });

  const calls = [
    list("admin", "open tab, own", { status: "open" }),
    list("admin", "open tab, showAll", { status: "open", showAll: true }),
    list("admin", "pending tab", { status: "pending" }),
    list("admin", "closed tab, own", { status: "closed" }),
    list("admin", "closed tab, showAll", { status: "closed", showAll: true }),
    list("admin", `closed tab, showAll, page ${adminDeep}`, {
      status: "closed",
      showAll: true,
      pageNumber: adminDeep,
    }),
    list("admin", "open tab, showAll, 2 queues", { status: "open", showAll: true, queueIds: twoQueues }),
    list("admin", "pending tab, 2 queues", { status: "pending", queueIds: twoQueues }),
    // Closest to breach first (issue 39): running clocks by due time, then the usual order.
    list("admin", "open tab, showAll, by due time", { status: "open", showAll: true, orderBy: "slaDue" }),
    list("admin", "pending tab, by due time", { status: "pending", orderBy: "slaDue" }),
    list("admin", "pending tab, by due time, page 3", {
      status: "pending",
      orderBy: "slaDue",
      pageNumber: 3,
    }),
    search("admin", `name "${s.name}"`, s.name),
    search("admin", `number ${s.number}`, s.number),
    // Part of a number, as an agent types it from a note: found anywhere in the contact's digits.
    search(
      "admin",
      `part of a number ${s.number.slice(-8, -4)}-${s.number.slice(-4)}`,
      `${s.number.slice(-8, -4)}-${s.number.slice(-4)}`,
    ),
    search("admin", `word "${s.word}"`, s.word),
    search("admin", `common word "${s.commonWord}"`, s.commonWord),
    ticket("admin", ws.sampleTicketIds),
    messages("admin", "typical ticket", ws.typicalTicketIds, 1),
    messages("admin", "long conversation", heavy, 1),
    messages("admin", "long conversation", heavy, older),

    list("agent", "open tab, own", { status: "open" }),
    list("agent", "pending tab (2 queues)", { status: "pending" }),
    list("agent", "open tab, own, by due time", { status: "open", orderBy: "slaDue" }),
    list("agent", "pending tab (2 queues), by due time", { status: "pending", orderBy: "slaDue" }),
    list("agent", "closed tab, own", { status: "closed" }),
    list("agent", `closed tab, own, page ${agentDeep}`, { status: "closed", pageNumber: agentDeep }),
    list("agent", "pending tab, 1 queue picked", {
      status: "pending",
      queueIds: ws.agentQueueIds.slice(0, 1),
    }),
    search("agent", `name "${s.name}"`, s.name),
    search("agent", `number ${s.number}`, s.number),
    search("agent", `word "${s.word}"`, s.word),
    ticket("agent", ws.agentTicketIds),
    messages("agent", "long conversation", heavy, 1),
    messages("agent", "long conversation", heavy, older),
  ];
  // A small workspace (BENCH_TICKETS of a few thousand) may hold no rows for a call: say so, skip it.
  for (const call of calls.filter((c) => c.paths.length === 0))
    console.log(`  skipped: ${call.who} ${call.label} (no rows of that kind at this size)`);
  return calls.filter((c) => c.paths.length > 0);
}
