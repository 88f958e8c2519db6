/**
 * bench/campaign (issue 18): a campaign to N recipients of a contact list on a simulator connection,
 * every interval at 0, from start to FINALIZADA with every message taken by the connection, against
 * the rate of N plain agent sends (POST /messages/{ticketId}) through the same outbound path in the
 * same run; and the server's memory before and after the campaign. Prints figures and goal checks;
 * exits non-zero only on errors, never on a missed goal.
 *
 *   node --expose-gc --import tsx bench/campaign.ts      (npm run bench:campaign -w bench)
 *
 * Settings: BENCH_CAMPAIGN_RECIPIENTS (10000), BENCH_CAMPAIGN_CONCURRENCY (16 agent sends in flight),
 * BENCH_CAMPAIGN_TIMEOUT_S (1800), BENCH_POOL_SIZE (10), BENCH_LOG_LEVEL (error).
 */
import { performance } from "node:perf_hooks";
import pg from "pg";
import { createScratchDatabase } from "./lib/db.js";
import { startServer } from "./lib/server.js";
import { printTable, rate } from "./lib/stats.js";

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
}

const settings = {
  recipients: intEnv("BENCH_CAMPAIGN_RECIPIENTS", 10_000),
  concurrency: intEnv("BENCH_CAMPAIGN_CONCURRENCY", 16),
  timeoutMs: intEnv("BENCH_CAMPAIGN_TIMEOUT_S", 1800) * 1000,
  poolSize: intEnv("BENCH_POOL_SIZE", 10),
  logLevel: process.env.BENCH_LOG_LEVEL ?? "error",
};
const GOAL_RATIO = 0.5;
const GOAL_MEMORY_MB = 50;

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function until(check: () => Promise<boolean>, what: string) {
  const end = Date.now() + settings.timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main() {
  const scratch = await createScratchDatabase("atende_bench_campaign");
  const server = await startServer({
    databaseUrl: scratch.url,
    poolSize: settings.poolSize,
    logLevel: settings.logLevel,
    profile: false,
  });
  const sql = new pg.Client({ connectionString: scratch.url });
  await sql.connect();
  const { url, companyId, whatsappId, adminToken } = server.info;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const n = settings.recipients;
  try {
    await sql.query(
      `update plans set use_campaigns = true where id = (select plan_id from companies where id = $1)`,
      [companyId],
    );

    // Every number ends in 1: the simulator says numbers ending in 0000 are not on WhatsApp.
    // ---- Baseline: N agent sends, each to its own open ticket, through POST /messages/{ticketId}.
    await sql.query(
      `insert into contacts (company_id, name, number)
       select $1, 'Base ' || g, '5521' || lpad((g * 10 + 1)::text, 9, '0') from generate_series(1, $2) g`,
      [companyId, n],
    );
    const tickets = await sql.query<{ id: number }>(
      `insert into tickets (company_id, contact_id, whatsapp_id, status)
       select $1, c.id, $2, 'open' from contacts c where c.company_id = $1 and c.number like '5521%'
       returning id`,
      [companyId, whatsappId],
    );
    const ticketIds = tickets.rows.map((r) => r.id);
    const sentBase = async () =>
      Number(
        (
          await sql.query(
            `select count(*)::int as n from messages m join contacts c on c.id = m.contact_id
             where m.company_id = $1 and m.from_me and m.ack >= 1 and c.number like '5521%'`,
            [companyId],
          )
        ).rows[0].n,
      );
    const baseStart = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: settings.concurrency }, async () => {
        while (next < ticketIds.length) {
          const id = ticketIds[next++]!;
          await call("POST", `/messages/${id}`, { body: "Mensagem do atendente" });
        }
      }),
    );
    await until(async () => {
      // A send that failed for good would be waited for until the timeout: stop at once.
      const failed = await sql.query<{ last_error: string }>(
        `select last_error from jobs where company_id = $1 and type = 'send-message' and status = 'failed' limit 1`,
        [companyId],
      );
      if (failed.rows[0]) throw new Error(`an agent send failed: ${failed.rows[0].last_error}`);
      return (await sentBase()) >= n;
    }, "the agent sends to be taken");
    const baseMs = performance.now() - baseStart;

    // ---- The campaign: a list of N people, every interval at 0.
    const list = await sql.query<{ id: number }>(
      `insert into contact_lists (company_id, name) values ($1, 'Bench list') returning id`,
      [companyId],
    );
    const listId = list.rows[0]!.id;
    await sql.query(
      `insert into contact_list_items (company_id, contact_list_id, name, number, email, is_whatsapp_valid)
       select $1, $2, 'Pessoa ' || g, '5531' || lpad((g * 10 + 1)::text, 9, '0'), '', true from generate_series(1, $3) g`,
      [companyId, listId, n],
    );
    await call("POST", "/campaign-settings", {
      settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 },
    });
    const heapBefore = heapMb();
    const campaignStart = performance.now();
    const campaign = await call("POST", "/campaigns", {
      name: "Bench",
      message1: "Olá {nome}, oferta de hoje",
      message2: "Oi {nome}! Temos novidades",
      contactListId: listId,
      whatsappId,
      scheduledAt: new Date(Date.now() - 1000).toISOString(),
    });
    const campaignId = campaign.id as number;
    const sentCampaign = async () =>
      Number(
        (
          await sql.query(
            `select count(*)::int as n from campaign_shippings s join messages m on m.id = s.message_id
             where s.campaign_id = $1 and m.ack >= 1`,
            [campaignId],
          )
        ).rows[0].n,
      );
    let finalizedMs = 0;
    await until(async () => {
      if (!finalizedMs) {
        const status = (await sql.query(`select status from campaigns where id = $1`, [campaignId])).rows[0]
          ?.status as string;
        if (status === "FINALIZADA") finalizedMs = performance.now() - campaignStart;
      }
      return finalizedMs > 0 && (await sentCampaign()) >= n;
    }, "the campaign to finish");
    const campaignMs = performance.now() - campaignStart;
    const heapAfter = heapMb();
    const duplicates = Number(
      (
        await sql.query(
          `select count(*)::int as n from (select contact_id from messages m
             where m.company_id = $1 and m.from_me and m.body like 'O%' and m.contact_id in
               (select contact_id from campaign_shippings where campaign_id = $2)
             group by contact_id having count(*) > 1) d`,
          [companyId, campaignId],
        )
      ).rows[0].n,
    );

    const baseRate = n / (baseMs / 1000);
    const campaignRate = n / (campaignMs / 1000);
    const ratio = campaignRate / baseRate;
    const growth = heapAfter - heapBefore;
    printTable(`bench/campaign: ${n} recipients, every interval 0, one simulator connection`, [
      ["agent sends (baseline), all taken", `${(baseMs / 1000).toFixed(1)} s, ${rate(baseRate, "msg")}`],
      ["campaign: start → FINALIZADA", `${(finalizedMs / 1000).toFixed(1)} s`],
      [
        "campaign: start → every message taken",
        `${(campaignMs / 1000).toFixed(1)} s, ${rate(campaignRate, "msg")}`,
      ],
      [
        `campaign ÷ agent sends (goal ≥ ${GOAL_RATIO}×)`,
        `${ratio.toFixed(2)}× ${ratio >= GOAL_RATIO ? "MET" : "NOT MET"}`,
      ],
      [
        `server heap before → after (goal: grows < ${GOAL_MEMORY_MB} MB)`,
        `${heapBefore.toFixed(1)} → ${heapAfter.toFixed(1)} MB (${growth >= 0 ? "+" : ""}${growth.toFixed(1)} MB) ${
          growth < GOAL_MEMORY_MB ? "MET" : "NOT MET"
        }${(globalThis as { gc?: unknown }).gc ? "" : " (no --expose-gc: not collected first)"}`,
      ],
      ["recipients who got the campaign twice", String(duplicates)],
    ]);
    if (duplicates > 0) throw new Error(`${duplicates} recipients got the campaign twice`);
  } finally {
    await sql.end().catch(() => undefined);
    await server.stop().catch(() => undefined);
    await scratch.drop().catch(() => scratch.forceDrop());
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
