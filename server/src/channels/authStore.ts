import type { Db } from "../db/client.js";
import type { AuthStore } from "./provider.js";
import { clearAuthKeys, readAuthKeys, writeAuthKeys } from "./queries.js";

/** A provider's session state as rows of `baileys_keys`: one row per key, never one blob rewritten. */
export function dbAuthStore(db: Db, companyId: number, whatsappId: number): AuthStore {
  return {
    async get(category, ids) {
      if (ids.length === 0) return {};
      const rows = await readAuthKeys(db, companyId, whatsappId, category, ids);
      return Object.fromEntries(rows.map((r) => [r.keyId, r.value]));
    },
    async set(entries) {
      if (entries.length === 0) return;
      await writeAuthKeys(db, companyId, whatsappId, entries);
    },
    async clear() {
      await clearAuthKeys(db, companyId, whatsappId);
    },
  };
}
