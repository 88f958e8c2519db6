import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The server package's folder (its package.json names it @atende/server), found by walking up from
 * this module: `src/` when run through tsx, `dist/` in the release build (scripts/build.mjs bundles
 * every module into one file, so no module may count `../` from its own place).
 */
function findServerRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, "package.json");
    if (
      fs.existsSync(manifest) &&
      (JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: string }).name === "@atende/server"
    )
      return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("cannot find the server's package.json above " + import.meta.url);
    dir = parent;
  }
}

export const serverRoot = findServerRoot();
/** The repository (or release folder): the root package.json, web/dist. */
export const appRoot = path.dirname(serverRoot);
