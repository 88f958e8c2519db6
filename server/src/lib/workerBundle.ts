import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { serverRoot } from "../paths.js";

/**
 * Worker threads that run our TypeScript. The server runs through tsx, whose loader a worker thread
 * would have to start again on its own (a loader thread and a compile per worker: about 0.8 s and
 * 90 MB each). Instead the worker's module and everything it imports are bundled by esbuild into one
 * plain-JS script, once per entry and process (a few hundred ms, the first time it is asked), and
 * each worker starts from that script in tens of milliseconds.
 *
 * A worker entry imports only what it needs: the bundle holds every module it reaches (an import of
 * the database client would bring both database drivers into every worker).
 *
 * The release build (scripts/build.mjs) bundles the workers ahead, into dist/workers/<name>.cjs:
 * where the entry's .ts file is not there, that script is read instead and nothing is compiled.
 */
const bundles = new Map<string, Promise<string>>();

/** The bundled script of a worker entry (a .ts file's URL), built on first use and kept. */
export function workerBundle(entry: URL): Promise<string> {
  const key = entry.href;
  let bundle = bundles.get(key);
  if (!bundle) {
    const source = fileURLToPath(entry);
    bundle = fs.access(source).then(
      () => compile(source, key),
      () => fs.readFile(path.join(serverRoot, "dist/workers", `${path.basename(source, ".ts")}.cjs`), "utf8"),
    );
    // A failed build is not kept: the next call tries again.
    bundle.catch(() => bundles.delete(key));
    bundles.set(key, bundle);
  }
  return bundle;
}

/** How a worker is bundled (scripts/build.mjs bundles the release's workers the same way). */
const WORKER_BUILD = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  logLevel: "silent",
  legalComments: "none",
} as const;

async function compile(source: string, key: string): Promise<string> {
  const { build } = await import("esbuild");
  const out = await build({ ...WORKER_BUILD, entryPoints: [source], write: false });
  const file = out.outputFiles[0];
  if (!file) throw new Error(`esbuild wrote nothing for ${key}`);
  return file.text;
}

/** Starts a worker thread running the bundled `entry`. */
export async function startBundledWorker(entry: URL, options: Omit<WorkerOptions, "eval">): Promise<Worker> {
  return new Worker(await workerBundle(entry), { ...options, eval: true });
}
