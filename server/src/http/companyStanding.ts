import { type Profile, can, todayInZone } from "@atende/contracts";
import type { Db } from "../db/client.js";
import { SingleFlight } from "../lib/singleFlight.js";
import { AppError } from "./errors.js";
import { findCompanyStanding } from "./queries.js";

/**
 * A company's standing, as every request and socket checks it: active, and not past its due date.
 * Read once per company and kept COMPANY_STANDING_TTL_MS; the instance that changes a company
 * forgets it at once (`company.saved`, see trustSessionChecks and the realtime layer), other
 * instances at the relay through the Redis adapter or, at worst, when the entry goes stale.
 */
export const COMPANY_STANDING_TTL_MS = 2_000;

interface Standing {
  active: boolean;
  /** YYYY-MM-DD, or null for no due date. */
  dueDate: string | null;
  /** The super user's own company is never locked. */
  exempt: boolean;
  /** Days after the due date before the lock (the platform's billingGraceDays). */
  graceDays: number;
  loadedAtMs: number;
}

interface Standings {
  byCompany: Map<number, Standing>;
  /** Moves on every forgetting: a read that began before a change must not store what it read. */
  generation: number;
  /** The standings being read: the company's requests arriving when it went stale share one read. */
  reading: SingleFlight<string, Awaited<ReturnType<typeof findCompanyStanding>>>;
}
const standings = new WeakMap<Db, Standings>();

function standingsOf(db: Db): Standings {
  let found = standings.get(db);
  if (!found) {
    found = { byCompany: new Map(), generation: 0, reading: new SingleFlight() };
    standings.set(db, found);
  }
  return found;
}

/** Forgets a company's standing on this instance: its status or due date just changed. */
export function forgetCompanyStanding(db: Db, companyId: number): void {
  const found = standingsOf(db);
  found.generation++;
  found.byCompany.delete(companyId);
}

/** The company's standing read within COMPANY_STANDING_TTL_MS on this instance, or undefined. */
function heldStanding(db: Db, companyId: number): Standing | undefined {
  const hit = standingsOf(db).byCompany.get(companyId);
  return hit && performance.now() - hit.loadedAtMs < COMPANY_STANDING_TTL_MS ? hit : undefined;
}

async function standingOf(db: Db, companyId: number): Promise<Standing | null> {
  const held = heldStanding(db, companyId);
  if (held) return held;
  const found = standingsOf(db);
  const nowMs = performance.now();
  const generation = found.generation;
  const row = await found.reading.run(`${generation}:${companyId}`, () => findCompanyStanding(db, companyId));
  if (!row) return null;
  const standing = {
    active: row.active,
    dueDate: row.due_date,
    exempt: row.exempt,
    graceDays: Number(row.grace_days) || 0,
    loadedAtMs: nowMs,
  };
  if (found.generation === generation) {
    if (found.byCompany.size >= 10_000) found.byCompany.delete(found.byCompany.keys().next().value!);
    found.byCompany.set(companyId, standing);
  }
  return standing;
}

/** Today in the subscription's time zone, computed at most once a second (Intl is not free). */
let today = { second: -1, date: "" };
function todayOf(now: Date): string {
  const second = Math.floor(now.getTime() / 1000);
  if (today.second !== second) today = { second, date: todayInZone(now) };
  return today.date;
}

/**
 * Why the company's users are locked out now, or null: ERR_COMPANY_INACTIVE (403) for an inactive
 * company, ERR_SUBSCRIPTION_EXPIRED (402, with the due date) past its due date, counted in the
 * subscription's time zone as login counts it, after the platform's grace days. A company that is gone answers null: the session
 * check refuses its users already.
 */
export async function companyLockout(db: Db, companyId: number, now: Date): Promise<AppError | null> {
  return lockoutOfStanding(await standingOf(db, companyId), now);
}

/** The same from the standing held fresh on this instance, synchronously; undefined when it is not held. */
export function companyLockoutHeld(db: Db, companyId: number, now: Date): AppError | null | undefined {
  const held = heldStanding(db, companyId);
  return held ? lockoutOfStanding(held, now) : undefined;
}

/**
 * The same, read from the database now and not kept: the login's check, which must not leave a
 * copy behind that a change made without an event (a test, another tool) would outlive.
 */
export async function companyLockoutNow(db: Db, companyId: number, now: Date): Promise<AppError | null> {
  const row = await findCompanyStanding(db, companyId);
  if (!row) return null;
  return lockoutOfStanding(
    {
      active: row.active,
      dueDate: row.due_date,
      exempt: row.exempt,
      graceDays: Number(row.grace_days) || 0,
      loadedAtMs: 0,
    },
    now,
  );
}

/**
 * The one exception to a lockout: a past-due company's admins still come in, to pay. They log in
 * (the session says `locked`), reach the routes declared `reachableWhenPastDue` (the payment pages),
 * and keep a socket that hears nothing but the payment's confirmation. Anyone else, and any other
 * lockout (an inactive company), stays out. Who pays is who reaches the payment pages:
 * invoices:view, the permission those routes require.
 */
export function pastDueAdminPasses(lock: AppError | null, profile: Profile | undefined): boolean {
  return (
    lock?.code === "ERR_SUBSCRIPTION_EXPIRED" && profile !== undefined && can({ profile }, "invoices:view")
  );
}

function lockoutOfStanding(standing: Standing | null, now: Date): AppError | null {
  if (!standing || standing.exempt) return null;
  if (!standing.active) return new AppError("ERR_COMPANY_INACTIVE");
  if (standing.dueDate !== null && lockDateOf(standing.dueDate, standing.graceDays) < todayOf(now))
    return new AppError("ERR_SUBSCRIPTION_EXPIRED", { dueDate: standing.dueDate });
  return null;
}

/** The last day a company still works: its due date plus the grace days (YYYY-MM-DD). */
export function lockDateOf(dueDate: string, graceDays: number): string {
  if (graceDays <= 0) return dueDate;
  const [y, m, d] = dueDate.slice(0, 10).split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + graceDays)).toISOString().slice(0, 10);
}
