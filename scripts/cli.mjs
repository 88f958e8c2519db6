// Runs the server's operator commands (server/src/cli.ts: backup, restore, move-to-postgres) where
// the server itself would run: from the TypeScript through tsx in a checkout (in server/, as
// `npm start` does, so DATA_DIR=./data is the same folder), else from the release build.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.INIT_CWD ??= process.cwd();
if (
  fs.existsSync(path.join(root, "node_modules/tsx")) &&
  fs.existsSync(path.join(root, "server/src/cli.ts"))
) {
  process.chdir(path.join(root, "server"));
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(path.join(root, "server/src/cli.ts")).href);
} else {
  await import(pathToFileURL(path.join(root, "server/dist/cli.js")).href);
}
