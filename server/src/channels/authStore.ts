import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { baileysKeys } from "../db/schema/index.js";
import type { AuthStore } from "./provider.js";

/** A provider's session state as rows of `baileys_keys`: one row per key, never one blob rewritten. */
export function dbAuthStore(db: Db, companyId: number, whatsappId: number): AuthStore {
  const scope = and(eq(baileysKeys.companyId, companyId), eq(baileysKeys.whatsappId, whatsappId));
  return {
    async get(category, ids) {
      if (ids.length === 0) return {};
      const rows = await db
        .select({ keyId: baileysKeys.keyId, value: baileysKeys.value })
        .from(baileysKeys)
        .where(and(scope, eq(baileysKeys.category, category), inArray(baileysKeys.keyId, ids)));
      return Object.fromEntries(rows.map((r) => [r.keyId, r.value]));
    },
    async set(entries) {
      if (entries.length === 0) return;
      await db.transaction(async (tx) => {
        for (const e of entries) {
          const key = and(scope, eq(baileysKeys.category, e.category), eq(baileysKeys.keyId, e.id));
          if (e.value === null || e.value === undefined) {
            await tx.delete(baileysKeys).where(key);
          } else {
            await tx
              .insert(baileysKeys)
              .values({ companyId, whatsappId, category: e.category, keyId: e.id, value: e.value })
              .onConflictDoUpdate({
                target: [baileysKeys.whatsappId, baileysKeys.category, baileysKeys.keyId],
                set: { value: e.value },
              });
          }
        }
      });
    },
    async clear() {
      await db.delete(baileysKeys).where(scope);
    },
  };
}
