import { fileURLToPath } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { build } from "esbuild";

/**
 * Worker threads that run our TypeScript. The server runs through tsx, whose loader a worker thread
 * would have to start again on its own (a loader thread and a compile per worker: about 0.8 s and
 * 90 MB each). Instead the worker's module and everything it imports are bundled by esbuild into one
 * plain-JS script, once per entry and process (a few hundred ms, the first time it is asked), and
 * each worker starts from that script in tens of milliseconds.
 *
 * A worker entry imports only what it needs: the bundle holds every module it reaches (an import of
 * the database client would bring both database drivers into every worker).
 */
const bundles = new Map<string, Promise<string>>();

/** The bundled script of a worker entry (a .ts file's URL), built on first use and kept. */
export function workerBundle(entry: URL): Promise<string> {
  const key = entry.href;
  let bundle = bundles.get(key);
  if (!bundle) {
    bundle = build({
      entryPoints: [fileURLToPath(entry)],
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      write: false,
      logLevel: "silent",
      legalComments: "none",
    }).then((out) => {
      const file = out.outputFiles[0];
      if (!file) throw new Error(`esbuild wrote nothing for ${key}`);
      return file.text;
    });
    // A failed build is not kept: the next call tries again.
    bundle.catch(() => bundles.delete(key));
    bundles.set(key, bundle);
  }
  return bundle;
}

/** Starts a worker thread running the bundled `entry`. */
export async function startBundledWorker(entry: URL, options: Omit<WorkerOptions, "eval">): Promise<Worker> {
  return new Worker(await workerBundle(entry), { ...options, eval: true });
}
