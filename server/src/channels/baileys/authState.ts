import {
  BufferJSON,
  initAuthCreds,
  makeCacheableSignalKeyStore,
  proto,
  type AuthenticationCreds,
  type AuthenticationState,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from "./lib.js";
import type { AuthStore } from "../provider.js";
import type { BaileysLogger } from "./logger.js";

/** Where the credentials live in the store; every signal key lives under its own type. */
const CREDS = { category: "creds", id: "creds" } as const;

/** Writes of the credentials tried before giving up (each later one waits `retryDelay(attempt)`). */
export const SAVE_CREDS_ATTEMPTS = 4;

export interface DbAuthState {
  state: AuthenticationState;
  /** Writes the credentials; Baileys asks for it on every `creds.update`. */
  saveCreds(): Promise<void>;
}

/**
 * Baileys' authentication state kept in the database through an AuthStore: the credentials as one
 * row, each signal key (pre-key, session, sender-key, app-state-sync-key, lid-mapping, ...) as one
 * row of its own, so a key change writes that key and nothing else.
 */
export async function useDbAuthState(
  store: AuthStore,
  options: {
    logger?: BaileysLogger;
    cache?: boolean;
    /** Milliseconds before retrying a failed write of the credentials, by attempt (1, 2, ...). */
    retryDelay?: (attempt: number) => number;
  } = {},
): Promise<DbAuthState> {
  const stored = await store.get(CREDS.category, [CREDS.id]);
  const creds: AuthenticationCreds =
    stored[CREDS.id] !== undefined ? fromStored<AuthenticationCreds>(stored[CREDS.id]) : initAuthCreds();

  const keys = dbSignalKeyStore(store);
  // Sessions and sender keys are read for every message sent or received; the cache saves the round trips.
  const cached = options.cache === false ? keys : makeCacheableSignalKeyStore(keys, options.logger);

  // A lost write of the credentials (a new pre-key id, the pairing itself) can cost the session at
  // its next start: a failed one is tried again, each time with the credentials as they are then.
  const retryDelay = options.retryDelay ?? ((attempt: number) => 500 * 2 ** (attempt - 1));
  const writeCreds = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await store.set([{ ...CREDS, value: toStored(creds) }]);
      } catch (err) {
        if (attempt >= SAVE_CREDS_ATTEMPTS) throw err;
        const retryInMs = retryDelay(attempt);
        options.logger?.warn({ err, attempt, retryInMs }, "baileys: saving creds failed; trying again");
        await new Promise((resolve) => setTimeout(resolve, retryInMs));
      }
    }
  };
  // Credentials are written whole: chain the writes so an older snapshot never lands after a newer one.
  let lastSave: Promise<void> = Promise.resolve();
  const saveCreds = (): Promise<void> => {
    lastSave = lastSave.catch(() => undefined).then(writeCreds);
    return lastSave;
  };

  return { state: { creds, keys: cached }, saveCreds };
}

/** The signal key store over an AuthStore, without cache: category = key type, id = key id. */
export function dbSignalKeyStore(store: AuthStore): SignalKeyStore {
  return {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const rows = await store.get(type, ids);
      const found: { [id: string]: SignalDataTypeMap[T] } = {};
      for (const [id, raw] of Object.entries(rows)) {
        if (raw === null || raw === undefined) continue;
        found[id] = reviveKey(type, raw);
      }
      return found;
    },
    async set(data: SignalDataSet) {
      const entries: { category: string; id: string; value: unknown }[] = [];
      for (const type of Object.keys(data) as (keyof SignalDataSet)[]) {
        for (const [id, value] of Object.entries(data[type] ?? {})) {
          entries.push({
            category: type,
            id,
            value: value === null || value === undefined ? null : toStored(value),
          });
        }
      }
      await store.set(entries);
    },
    async clear() {
      await store.clear();
    },
  };
}

function reviveKey<T extends keyof SignalDataTypeMap>(type: T, raw: unknown): SignalDataTypeMap[T] {
  const value = fromStored<SignalDataTypeMap[T]>(raw);
  if (type === "app-state-sync-key") {
    // Baileys reads these as protobuf objects (it calls methods on them), not plain JSON.
    return proto.Message.AppStateSyncKeyData.fromObject(value as object) as unknown as SignalDataTypeMap[T];
  }
  return value;
}

/** A JSON value the store can keep (jsonb): Buffers and Uint8Arrays become `{type:"Buffer", data:<base64>}`. */
export function toStored(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, BufferJSON.replacer)) as unknown;
}

/** The reverse of toStored: Buffers come back as Buffers. */
export function fromStored<T>(stored: unknown): T {
  return JSON.parse(JSON.stringify(stored), BufferJSON.reviver) as T;
}
