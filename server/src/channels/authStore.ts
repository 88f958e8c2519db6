import type { Db } from "../db/client.js";
import { type AuthStore, SENT_MESSAGES } from "./provider.js";
import {
  clearAuthKeys,
  readAuthKeys,
  readSentMessages,
  writeAuthKeys,
  writeSentMessages,
} from "./sessionState/queries.js";

/** A provider's session state as rows of `baileys_keys`: one row per key, never one blob rewritten. */
export function dbAuthStore(db: Db, companyId: number, whatsappId: number): AuthStore {
  return {
    async get(category, ids) {
      if (ids.length === 0) return {};
      const rows =
        category === SENT_MESSAGES
          ? await readSentMessages(db, companyId, whatsappId, ids)
          : await readAuthKeys(db, companyId, whatsappId, category, ids);
      return Object.fromEntries(rows.map((r) => [r.keyId, r.value]));
    },
    async set(entries) {
      const sent = entries.filter((e) => e.category === SENT_MESSAGES);
      const keys = entries.filter((e) => e.category !== SENT_MESSAGES);
      if (keys.length) await writeAuthKeys(db, companyId, whatsappId, keys);
      if (sent.length) await writeSentMessages(db, companyId, whatsappId, sent);
    },
    async clear() {
      await clearAuthKeys(db, companyId, whatsappId);
    },
  };
}
