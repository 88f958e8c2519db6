import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const rootPackage = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../package.json");

/** The product version, from the root package.json. */
export const VERSION: string = (JSON.parse(fs.readFileSync(rootPackage, "utf8")) as { version: string })
  .version;
