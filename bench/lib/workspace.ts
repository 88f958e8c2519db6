import { performance } from "node:perf_hooks";
import pg from "pg";
import { FIRST_NAMES, LAST_NAMES, type Query, SENTENCES, createSentences, pick } from "./vocabulary.js";

/**
 * The data of bench/tickets, written straight into PostgreSQL with set-based SQL (generate_series):
 * a company of realistic size around the admin, agent, queue and connection that `startServer`
 * created, and other companies beside it so every query's tenant filter has rows to skip.
 */
export interface CompanyShape {
  tickets: number;
  messages: number;
  contacts: number;
  queues: number;
  /** Agents besides the admin (and, in the measured company, the bench agent). */
  agents: number;
  tags: number;
  /** Tickets with `heavyMessages` each: the long conversations whose older pages are measured. */
  heavyTickets: number;
  heavyMessages: number;
}

/** What `startServer` created in the measured company. */
export interface Seeded {
  companyId: number;
  whatsappId: number;
  queueId: number;
  agentId: number;
}

export interface Workspace {
  companyId: number;
  adminEmail: string;
  agentEmail: string;
  queueIds: number[];
  /** The bench agent's queues (two of the company's). */
  agentQueueIds: number[];
  /** Open tickets of the agent's first queue held by another agent, `heavyMessages` messages each. */
  heavyTicketIds: number[];
  /** Closed tickets of the agent's queues with about the average number of messages. */
  typicalTicketIds: number[];
  /** A spread of the company's tickets (any status and queue) and of those the agent may see. */
  sampleTicketIds: number[];
  agentTicketIds: number[];
  search: {
    /** A contact's full name and number (the contact of a heavy ticket, so the agent sees it too). */
    name: string;
    number: string;
    /**
     * A rarer and a common word (5 letters or more, in the shares of sentences closest to 1 % and
     * 15 %), with how many of the company's messages hold each (about 2 % and 10 %).
     */
    word: string;
    wordMessages: number;
    commonWord: string;
    commonWordMessages: number;
  };
  totals: { companies: number; tickets: number; messages: number; contacts: number };
}

export type Progress = (message: string) => void;

/**
 * Loads the companies: secondary indexes dropped and foreign-key triggers off while rows go in,
 * then the indexes rebuilt from their own definitions (as the migrations made them), then VACUUM
 * ANALYZE so the planner and the visibility map see the data as a long-running database would.
 */
export async function loadWorkspace(
  databaseUrl: string,
  seeded: Seeded,
  measured: CompanyShape,
  others: { count: number; shape: CompanyShape },
  progress: Progress,
): Promise<Workspace> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const q = <R extends pg.QueryResultRow = Record<string, unknown>>(text: string, values: unknown[] = []) =>
    client.query<R>(text, values);
  const started = performance.now();
  const step = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const result = await run();
    progress(
      `${what} (${((performance.now() - t0) / 1000).toFixed(1)} s; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`,
    );
    return result;
  };
  try {
    await q("set session_replication_role = replica"); // no foreign-key triggers: the rows are made consistent
    await q("set maintenance_work_mem = '512MB'");
    await q("set work_mem = '256MB'");
    await q("set synchronous_commit = off");
    await q("set temp_buffers = '256MB'");

    await step("vocabulary", () => createSentences(q));
    const dropped = await step("secondary indexes dropped for the load", () => dropSecondaryIndexes(q));

    const companies = await step(`${others.count + 1} companies, their queues, agents and tags`, async () => {
      const list = [await measuredCompany(q, seeded, measured)];
      for (let i = 1; i <= others.count; i++) list.push(await otherCompany(q, i, others.shape));
      return list;
    });
    await step("contacts", async () => {
      for (const c of companies) await insertContacts(q, c);
    });
    const now = new Date();
    await step("tickets", () => insertTickets(q, companies, now));
    await insertMessages(q, companies, progress, started);
    await step("reactions and ticket tags", async () => {
      await insertReactions(q, companies);
      await insertTicketTags(q, companies);
    });
    await q("reset session_replication_role");
    await step(`${dropped.length} indexes rebuilt`, async () => {
      const slow: string[] = [];
      for (const index of dropped) {
        const t0 = performance.now();
        await q(index.def);
        const seconds = (performance.now() - t0) / 1000;
        if (seconds >= 1) slow.push(`${index.name} ${seconds.toFixed(1)} s`);
      }
      if (slow.length) progress(`  of which ${slow.join(", ")}`);
    });
    await step("VACUUM ANALYZE", () =>
      q(
        "vacuum (analyze) companies, users, user_queues, queues, tags, contacts, tickets, messages, ticket_tags",
      ),
    );
    return await describe(q, seeded, companies[0]!);
  } finally {
    await client.end(); // the temporary tables go with the session
  }
}

interface CompanyLoad {
  id: number;
  shape: CompanyShape;
  userIds: number[];
  queueIds: number[];
  tagIds: number[];
  whatsappId: number | null;
  /** The queue whose open tickets become the heavy ones, and who must not hold them. */
  heavyQueueId: number | null;
  heavyNotHeldBy: number[];
  /** Its contacts' ids are contactBase + 1 .. contactBase + shape.contacts (set as they go in). */
  contactBase: number;
}

async function dropSecondaryIndexes(q: Query): Promise<{ name: string; def: string }[]> {
  const { rows } = await q<{ name: string; def: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
     from pg_index i
     where i.indrelid in ('contacts'::regclass, 'tickets'::regclass, 'messages'::regclass, 'ticket_tags'::regclass)
       and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
     order by pg_relation_size(i.indrelid), i.indexrelid`,
  );
  for (const index of rows) await q(`drop index ${index.name}`);
  return rows;
}

async function addQueuesAndTags(q: Query, companyId: number, shape: CompanyShape, existingQueues: number) {
  await q(
    `insert into queues (company_id, name, color)
     select $1, 'Fila ' || i, '#' || lpad(to_hex(i * 2654435 % 16777216), 6, '0')
     from generate_series($2::int + 1, $3::int) i`,
    [companyId, existingQueues, shape.queues],
  );
  await q(
    `insert into tags (company_id, name, color)
     select $1, 'Etiqueta ' || i, '#' || lpad(to_hex(i * 1640531 % 16777216), 6, '0') from generate_series(1, $2::int) i`,
    [companyId, shape.tags],
  );
  const queues = await q<{ id: number }>("select id from queues where company_id = $1 order by id", [
    companyId,
  ]);
  const tags = await q<{ id: number }>("select id from tags where company_id = $1 order by id", [companyId]);
  return { queueIds: queues.rows.map((r) => r.id), tagIds: tags.rows.map((r) => r.id) };
}

/** Agents (the bench agent's password, so any of them could log in), each in two queues. */
async function addAgents(q: Query, companyId: number, count: number, passwordOf: number, queueIds: number[]) {
  await q(
    `insert into users (company_id, name, email, password_hash, profile)
     select $1::int, 'Agente ' || i || ' ' || $5::text, 'agent-' || $1::int || '-' || i || '@bench.local',
            (select password_hash from users where id = $2), $3
     from generate_series(1, $4::int) i`,
    [companyId, passwordOf, "user", count, `C${companyId}`],
  );
  await q(
    `insert into user_queues (user_id, queue_id, company_id)
     select u.id, ($2::int[])[1 + (u.rn + k) % cardinality($2::int[])], $1
     from (select id, row_number() over (order by id) as rn from users where company_id = $1 and email like 'agent-%') u,
          generate_series(0, least(1, cardinality($2::int[]) - 1)) k
     on conflict do nothing`,
    [companyId, queueIds],
  );
}

async function contactBase(q: Query): Promise<number> {
  const { rows } = await q<{ n: number }>("select coalesce(max(id), 0)::int as n from contacts");
  return rows[0]!.n;
}

async function measuredCompany(q: Query, seeded: Seeded, shape: CompanyShape): Promise<CompanyLoad> {
  const { queueIds, tagIds } = await addQueuesAndTags(q, seeded.companyId, shape, 1);
  await addAgents(q, seeded.companyId, shape.agents, seeded.agentId, queueIds);
  // The bench agent works two queues: the one startServer gave them and the next.
  await q(
    "insert into user_queues (user_id, queue_id, company_id) values ($1, $2, $3) on conflict do nothing",
    [seeded.agentId, queueIds.find((id) => id !== seeded.queueId), seeded.companyId],
  );
  const users = await q<{ id: number }>("select id from users where company_id = $1 order by id", [
    seeded.companyId,
  ]);
  const admin = await q<{ id: number }>("select id from users where company_id = $1 and profile = 'admin'", [
    seeded.companyId,
  ]);
  return {
    id: seeded.companyId,
    shape,
    userIds: users.rows.map((r) => r.id),
    queueIds,
    tagIds,
    whatsappId: seeded.whatsappId,
    heavyQueueId: seeded.queueId,
    heavyNotHeldBy: [seeded.agentId, ...admin.rows.map((r) => r.id)],
    contactBase: 0,
  };
}

async function otherCompany(q: Query, n: number, shape: CompanyShape): Promise<CompanyLoad> {
  const { rows } = await q<{ id: number }>(
    "insert into companies (name, due_date) values ($1, '2099-01-01') returning id",
    [`Bench Other ${n}`],
  );
  const id = rows[0]!.id;
  const { queueIds, tagIds } = await addQueuesAndTags(q, id, shape, 0);
  const anyUser = await q<{ id: number }>("select min(id) as id from users");
  await addAgents(q, id, shape.agents, anyUser.rows[0]!.id, queueIds);
  const users = await q<{ id: number }>("select id from users where company_id = $1 order by id", [id]);
  return {
    id,
    shape,
    userIds: users.rows.map((r) => r.id),
    queueIds,
    tagIds,
    whatsappId: null,
    heavyQueueId: null,
    heavyNotHeldBy: [],
    contactBase: 0,
  };
}

/**
 * Names from 50 × 50 first and last names (a third with a second surname); Brazilian mobile numbers,
 * the same in every company.
 */
async function insertContacts(q: Query, c: CompanyLoad) {
  c.contactBase = await contactBase(q);
  await q(
    `insert into contacts (id, company_id, name, number, email, created_at, updated_at)
     select $1::int + i, $2,
            ($4::text[])[1 + i % cardinality($4::text[])] || ' ' || ($5::text[])[1 + (i / cardinality($4::text[])) % cardinality($5::text[])]
              || case when i % 3 = 0 then ' ' || ($5::text[])[1 + ${pick("i", "cardinality($5::text[])", 7)}] else '' end,
            '55' || (11 + i % 89) || '9' || lpad(((i::bigint * 48271) % 100000000)::text, 8, '0'),
            '', now() - interval '800 days' * random(), now()
     from generate_series(1, $3::int) i`,
    [c.contactBase, c.id, c.shape.contacts, FIRST_NAMES, LAST_NAMES],
  );
  await q("select setval(pg_get_serial_sequence('contacts', 'id'), (select max(id) from contacts))");
}

/**
 * Tickets over the last two years, closed but for a tenth of the newest (open or pending, one per
 * contact as the unique index demands); ids follow creation time across companies, as they would
 * in a database that grew this way.
 */
async function insertTickets(q: Query, companies: CompanyLoad[], now: Date) {
  await q(
    `create temp table bench_stage as
     select company_id, contact_id, whatsapp_id, user_id, queue_id, status, last_message, unread_messages, created_at, updated_at
     from tickets where false`,
  );
  for (const c of companies) {
    const live = Math.floor(c.shape.tickets * 0.1);
    if (live > c.shape.contacts)
      throw new Error(`company ${c.id}: ${live} live tickets need as many contacts`);
    await q(
      `insert into bench_stage (company_id, contact_id, whatsapp_id, user_id, queue_id, status, last_message,
                                unread_messages, created_at, updated_at)
       select $1, $2::int + case when l.live then 1 + (k / 3) % $3 else 1 + ${pick("k", "$3", 3)} end, $4::int,
              case when s.status = 'pending' then null else ($5::int[])[1 + ${pick("k", "cardinality($5::int[])", 11)}] end,
              case when ${pick("k", 17, 23)} = 0 then null else ($6::int[])[1 + ${pick("k", "cardinality($6::int[])", 29)}] end,
              s.status, (select body from bench_sentences where id = ${pick("k", SENTENCES, 31)}),
              case when s.status = 'pending' then ${pick("k", 4, 37)} else 0 end,
              t.created, t.updated
       from generate_series(1, $7::int) k
       cross join lateral (select k > $7::int * 0.7 and k % 3 = 0 as live) l
       cross join lateral (select case when not l.live then 'closed' when (k / 3) % 2 = 0 then 'open' else 'pending' end as status) s
       cross join lateral (
         select $8::timestamptz - interval '731 days' + interval '730 days' * (k::float8 / $7::int) as created) c0
       cross join lateral (
         select case when l.live then $8::timestamptz - interval '1 minute' * ${pick("k", 4320, 41)} end as live_updated) u0
       cross join lateral (
         select case when l.live then u0.live_updated - interval '1 minute' * (5 + ${pick("k", 1440, 43)}) else c0.created end as created,
                case when l.live then u0.live_updated
                     else least($8::timestamptz - interval '1 minute', c0.created + interval '1 minute' * (5 + ${pick("k", 2880, 47)})) end as updated) t`,
      [c.id, c.contactBase, c.shape.contacts, c.whatsappId, c.userIds, c.queueIds, c.shape.tickets, now],
    );
  }
  await q(
    `insert into tickets (company_id, contact_id, whatsapp_id, user_id, queue_id, status, last_message,
                          unread_messages, created_at, updated_at)
     select company_id, contact_id, whatsapp_id, user_id, queue_id, status, last_message, unread_messages, created_at, updated_at
     from bench_stage order by created_at`,
  );
  await q("drop table bench_stage");
  // The long conversations: the newest open tickets of the agent's first queue held by another agent,
  // stretched over two months.
  await q("create temp table bench_heavy (ticket_id int primary key)");
  for (const c of companies) {
    if (!c.shape.heavyTickets || !c.heavyQueueId) continue;
    const { rowCount } = await q(
      `with h as (insert into bench_heavy
                  select id from tickets
                  where company_id = $1 and status = 'open' and queue_id = $2 and user_id <> all($3::int[])
                  order by updated_at desc limit $4 returning ticket_id)
       update tickets set created_at = updated_at - interval '60 days', unread_messages = 0 where id in (select ticket_id from h)`,
      [c.id, c.heavyQueueId, c.heavyNotHeldBy, c.shape.heavyTickets],
    );
    if (rowCount !== c.shape.heavyTickets)
      throw new Error(`company ${c.id}: only ${rowCount} tickets could be made long conversations`);
  }
  // Service levels (issue 39): two in five live tickets of a queue run a clock, due from an hour
  // ago (breached) to nine hours ahead, as a desk with targets on most of its queues would have.
  await q(
    `update tickets set sla_started_at = updated_at,
       sla_first_response_due_at = updated_at + interval '1 minute' * (30 + id % 600),
       sla_resolution_due_at = updated_at + interval '1 minute' * (240 + id % 600),
       sla_due_at = $1::timestamptz + interval '1 minute' * (id % 600 - 60),
       sla_warn_at = $1::timestamptz + interval '1 minute' * (id % 600 - 120)
     where status <> 'closed' and queue_id is not null and id % 5 < 2`,
    [now],
  );
}

/** The reactions are part of each company's message count (one per 200 messages). */
const reactionsOf = (shape: CompanyShape) => Math.floor(shape.messages / 200);

/**
 * Messages spread evenly inside each ticket's lifetime, inserted in time order (ten windows of the
 * two years), so ids follow time and a conversation's rows lie scattered among other tickets' rows
 * in the table, as they do in a real one.
 */
async function insertMessages(q: Query, companies: CompanyLoad[], progress: Progress, started: number) {
  const shapes = companies.map((c) => ({
    id: c.id,
    normalMessages: c.shape.messages - reactionsOf(c.shape) - c.shape.heavyTickets * c.shape.heavyMessages,
    heavyMessages: c.shape.heavyMessages,
  }));
  // Each company's messages (less reactions and long conversations) shared out evenly over its other tickets.
  await q(
    `create temp table bench_plan as
     with t as (
       select tickets.*, h.ticket_id is not null as heavy,
              row_number() over (partition by tickets.company_id, h.ticket_id is null order by tickets.id) as rn,
              count(*) over (partition by tickets.company_id, h.ticket_id is null) as cnt
       from tickets left join bench_heavy h on h.ticket_id = tickets.id)
     select t.id as ticket_id, t.company_id, t.contact_id, t.whatsapp_id, t.user_id, t.queue_id,
            t.created_at as t0, t.updated_at as t1,
            case when t.heavy then s.heavy else (t.rn * s.normal / t.cnt - (t.rn - 1) * s.normal / t.cnt)::int end as n
     from t join (select (x->>'id')::int as company_id, (x->>'normalMessages')::bigint as normal,
                         (x->>'heavyMessages')::int as heavy
                  from jsonb_array_elements($1::jsonb) x) s on s.company_id = t.company_id`,
    [JSON.stringify(shapes)],
  );
  const { rows } = await q<{ first: Date; last: Date; total: string }>(
    "select min(t0) as first, max(t1) as last, sum(n) as total from bench_plan",
  );
  const { first, last } = rows[0]!;
  const total = Number(rows[0]!.total);
  const windows = 10;
  const span = last.getTime() + 1000 - first.getTime();
  let done = 0;
  const t0 = performance.now();
  for (let w = 0; w < windows; w++) {
    const from = new Date(first.getTime() + (span * w) / windows);
    const to = new Date(first.getTime() + (span * (w + 1)) / windows);
    const { rowCount } = await q(
      `insert into messages (company_id, ticket_id, contact_id, whatsapp_id, wid, body, from_me, read, ack, media_type,
                             media_path, media_mime, media_name, user_id, queue_id, created_at, updated_at)
       select p.company_id, p.ticket_id, p.contact_id, p.whatsapp_id, 'BENCH' || p.ticket_id || '-' || g, s.body,
              g % 3 = 0, true, case when g % 3 = 0 then 4 else 0 end,
              m.media_type, m.path, m.mime, m.name,
              case when g % 3 = 0 then p.user_id end, p.queue_id, x.ts, x.ts
       from bench_plan p
       cross join lateral generate_series(1, p.n) g
       cross join lateral (select p.t0 + (p.t1 - p.t0) * (g::float8 / (p.n + 1)) as ts,
                                  hashint4(p.ticket_id * 7919 + g) & 2147483647 as h) x
       cross join lateral (select case when x.h % 40 = 0 then 'image' when x.h % 97 = 1 then 'audio' else 'chat' end as media_type) mt
       cross join lateral (select mt.media_type,
                                  case mt.media_type when 'image' then 'bench/foto.jpg' when 'audio' then 'bench/audio.ogg' end as path,
                                  case mt.media_type when 'image' then 'image/jpeg' when 'audio' then 'audio/ogg' end as mime,
                                  case mt.media_type when 'image' then 'foto.jpg' when 'audio' then 'audio.ogg' end as name) m
       join bench_sentences s on s.id = x.h % ${SENTENCES}
       where p.t0 < $2 and p.t1 >= $1 and x.ts >= $1 and x.ts < $2
       order by x.ts`,
      [from, to],
    );
    done += rowCount ?? 0;
    const elapsed = (performance.now() - t0) / 1000;
    progress(
      `messages ${w + 1}/${windows}: ${done.toLocaleString("en")} of ${total.toLocaleString("en")} ` +
        `(${Math.round(done / elapsed).toLocaleString("en")} rows/s; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`,
    );
  }
  if (done !== total) throw new Error(`inserted ${done} messages, planned ${total}`);
}

/** Reactions (👍 from the other side) to spread-out chat messages, counted in each company's messages. */
async function insertReactions(q: Query, companies: CompanyLoad[]) {
  await q(
    `insert into messages (company_id, ticket_id, contact_id, whatsapp_id, body, from_me, read, ack, media_type,
                           quoted_msg_id, created_at, updated_at)
     select company_id, ticket_id, contact_id, whatsapp_id, '👍', not from_me, true, 1, 'reactionMessage', id,
            created_at + interval '1 minute', created_at + interval '1 minute'
     from (select m.*, row_number() over (partition by m.company_id order by hashint8(m.id)) as rn
           from messages m where m.media_type = 'chat' and (hashint8(m.id) & 2147483647) % 150 = 0) m
     join (select (x->>'id')::int as cid, (x->>'reactions')::int as wanted from jsonb_array_elements($1::jsonb) x) w
       on w.cid = m.company_id
     where m.rn <= w.wanted`,
    [JSON.stringify(companies.map((c) => ({ id: c.id, reactions: reactionsOf(c.shape) })))],
  );
}

/** A third of the tickets carry a tag, a tenth two. */
async function insertTicketTags(q: Query, companies: CompanyLoad[]) {
  for (const c of companies) {
    await q(
      `insert into ticket_tags (ticket_id, tag_id, company_id)
       select t.id, ($2::int[])[1 + (${pick("t.id", "cardinality($2::int[])", 53)} + g) % cardinality($2::int[])], t.company_id
       from tickets t
       cross join lateral generate_series(1, case when ${pick("t.id", 10, 59)} = 0 then 2 when ${pick("t.id", 10, 59)} < 3 then 1 else 0 end) g
       where t.company_id = $1`,
      [c.id, c.tagIds],
    );
  }
}

/** The ids and words the calls use, read back from what was loaded. */
async function describe(q: Query, seeded: Seeded, measured: CompanyLoad): Promise<Workspace> {
  const companyId = seeded.companyId;
  const users = await q<{ id: number; email: string; profile: string }>(
    "select id, email, profile from users where company_id = $1",
    [companyId],
  );
  const agentQueues = await q<{ queue_id: number }>(
    "select queue_id from user_queues where user_id = $1 order by queue_id",
    [seeded.agentId],
  );
  const agentQueueIds = agentQueues.rows.map((r) => r.queue_id);
  const heavy = await q<{ ticket_id: number }>("select ticket_id from bench_heavy order by ticket_id");
  const ids = async (where: string, values: unknown[]) =>
    (
      await q<{ id: number }>(`select id from tickets where company_id = $1 and ${where}`, [
        companyId,
        ...values,
      ])
    ).rows.map((r) => r.id);
  const typical = await ids(
    `status = 'closed' and queue_id = any($2::int[])
     and (select count(*) from messages m where m.ticket_id = tickets.id) between 9 and 11
     order by id desc limit 20`,
    [agentQueueIds],
  );
  const sample = await ids("(hashint4(id) & 2147483647) % 997 = 0 order by id limit 50", []);
  const agentSample = await ids(
    "queue_id = any($2::int[]) and (hashint4(id) & 2147483647) % 101 = 0 order by id limit 50",
    [agentQueueIds],
  );
  const contact = await q<{ name: string; number: string }>(
    "select c.name, c.number from contacts c join tickets t on t.contact_id = c.id where t.id = $1",
    [heavy.rows[0]!.ticket_id],
  );
  // Words by the share of sentences holding them (messages pick sentences uniformly).
  const freq = await q<{ word: string; share: number }>(
    `select w as word, count(distinct id)::float8 / ${SENTENCES} as share
     from bench_sentences, regexp_split_to_table(body, ' ') w where length(w) >= 5 group by w`,
  );
  const closest = (target: number) =>
    freq.rows.reduce((a, b) => (Math.abs(b.share - target) < Math.abs(a.share - target) ? b : a)).word;
  const word = closest(0.01);
  const commonWord = closest(0.15);
  const matches = async (w: string) =>
    (
      await q<{ n: number }>(
        "select count(*)::int as n from messages where company_id = $1 and to_tsvector('simple', body) @@ to_tsquery('simple', $2)",
        [companyId, `${w}:*`],
      )
    ).rows[0]!.n;
  const totals = await q<{ companies: number; tickets: number; messages: number; contacts: number }>(
    `select (select count(*) from companies)::int as companies, (select count(*) from tickets)::int as tickets,
            (select count(*) from messages)::int as messages, (select count(*) from contacts)::int as contacts`,
  );
  return {
    companyId,
    adminEmail: users.rows.find((u) => u.profile === "admin")!.email,
    agentEmail: users.rows.find((u) => u.id === seeded.agentId)!.email,
    queueIds: measured.queueIds,
    agentQueueIds,
    heavyTicketIds: heavy.rows.map((r) => r.ticket_id),
    typicalTicketIds: typical,
    sampleTicketIds: sample,
    agentTicketIds: agentSample,
    search: {
      name: contact.rows[0]!.name,
      number: contact.rows[0]!.number,
      word,
      wordMessages: await matches(word),
      commonWord,
      commonWordMessages: await matches(commonWord),
    },
    totals: totals.rows[0]!,
  };
}
