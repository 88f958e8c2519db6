import type { Config } from "./config.js";
import type { Database, Db } from "./db/client.js";
import type { EventBus } from "./events/bus.js";
import type { TokenService } from "./http/tokens.js";
import type { MediaStore } from "./storage/media.js";

/** What the app is built from; tests build their own (a fresh database, a fixed clock). */
export interface Deps {
  config: Config;
  database: Database;
  db: Db;
  tokens: TokenService;
  bus: EventBus;
  now: () => Date;
  media: MediaStore;
}
