import type { Db } from "../db/client.js";
import {
  type AuthStore,
  NUMBER_CHECKS,
  NUMBER_CHECK_FRESH_MS,
  type NumberCheck,
  SENT_MESSAGES,
} from "./provider.js";
import { deleteNumberChecks, readNumberChecks, writeNumberChecks } from "./sessionState/numberQueries.js";
import {
  clearAuthKeys,
  readAuthKeys,
  readSentMessages,
  writeAuthKeys,
  writeSentMessages,
} from "./sessionState/queries.js";

/**
 * A provider's session state as rows of `baileys_keys`: one row per key, never one blob rewritten.
 * Sent messages and number checks have tables of their own (number checks are the company's).
 */
export function dbAuthStore(db: Db, companyId: number, whatsappId: number): AuthStore {
  return {
    async get(category, ids) {
      if (ids.length === 0) return {};
      if (category === NUMBER_CHECKS) {
        const rows = await readNumberChecks(db, companyId, ids);
        return Object.fromEntries(
          rows.map((r): [string, NumberCheck] => [r.number, { jid: r.jid, at: r.checkedAt.getTime() }]),
        );
      }
      const rows =
        category === SENT_MESSAGES
          ? await readSentMessages(db, companyId, whatsappId, ids)
          : await readAuthKeys(db, companyId, whatsappId, category, ids);
      return Object.fromEntries(rows.map((r) => [r.keyId, r.value]));
    },
    async set(entries) {
      const sent = entries.filter((e) => e.category === SENT_MESSAGES);
      const checks = entries.filter((e) => e.category === NUMBER_CHECKS);
      const keys = entries.filter((e) => e.category !== SENT_MESSAGES && e.category !== NUMBER_CHECKS);
      if (keys.length) await writeAuthKeys(db, companyId, whatsappId, keys);
      if (sent.length) await writeSentMessages(db, companyId, whatsappId, sent);
      if (checks.length) await setNumberChecks(db, companyId, checks);
    },
    async clear() {
      await clearAuthKeys(db, companyId, whatsappId);
    },
  };
}

async function setNumberChecks(db: Db, companyId: number, entries: { id: string; value: unknown }[]) {
  const answers = entries.flatMap((e) => {
    const check = e.value as NumberCheck | null | undefined;
    return check ? [{ number: e.id, jid: check.jid, checkedAt: new Date(check.at) }] : [];
  });
  const gone = entries.filter((e) => e.value === null || e.value === undefined).map((e) => e.id);
  await writeNumberChecks(db, companyId, answers, new Date(Date.now() - NUMBER_CHECK_FRESH_MS.found));
  if (gone.length) await deleteNumberChecks(db, companyId, gone);
}
