import path from "node:path";
import { loadConfig } from "./config.js";
import { backup, restore } from "./ops/backup.js";
import { OpsError } from "./ops/deployment.js";
import { moveToPostgres } from "./ops/move.js";

/**
 * The operator's commands, on the deployment the environment describes (the same variables as the
 * server: DATA_DIR, DATABASE_URL, MEDIA_STORAGE and S3_*, JWT_SECRET, SECRETS_KEY):
 *
 *   backup <file.tar.gz>                 database, media and keys into one archive
 *   restore <file.tar.gz>                into an empty database and media store
 *   move-to-postgres <postgres://...>    the embedded database of DATA_DIR onto PostgreSQL
 *
 * Run as `npm run backup -- <file>` (and restore, db:move) from the repository or a release
 * folder, or `node server/dist/cli.js <command> ...` in the image.
 */
const USAGE = `usage:
  backup <file.tar.gz>
  restore <file.tar.gz>
  move-to-postgres <postgres://user:pass@host:5432/database>`;

async function main(argv: string[]) {
  const [command, arg] = argv;
  // A file named on the command line is where the operator stood (npm runs scripts elsewhere).
  const file = (p: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), p);
  const say = (line: string) => console.log(line);
  if (!arg) throw new OpsError(USAGE);
  const config = loadConfig();
  if (command === "backup") await backup(config, file(arg), say);
  else if (command === "restore") await restore(config, file(arg), say);
  else if (command === "move-to-postgres") await moveToPostgres(config, arg, say);
  else throw new OpsError(USAGE);
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof OpsError ? err.message : err);
    process.exit(1);
  },
);
