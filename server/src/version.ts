import fs from "node:fs";
import path from "node:path";
import { appRoot } from "./paths.js";

const rootPackage = path.join(appRoot, "package.json");

/** The product version, from the root package.json. */
export const VERSION: string = (JSON.parse(fs.readFileSync(rootPackage, "utf8")) as { version: string })
  .version;
