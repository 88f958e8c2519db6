// The release build: plain JavaScript that `node` runs, with no tsx and no Vite at run time.
//
//   web/dist/                  the web app (Vite; the shared contracts compiled in)
//   server/dist/main.js        the entry: protobufShapes.js (see channels/baileys/), then server.js
//   server/dist/server.js      the server: our modules and the contracts in one ES module bundle;
//                              every npm dependency stays a package (`npm ci --omit=dev` installs them)
//   server/dist/cli.js         the operator's commands (backup, restore, move to PostgreSQL)
//   server/dist/workers/*.cjs  the worker threads' scripts, bundled ahead (lib/workerBundle.ts)
//
// Production then runs `node server/dist/main.js` from the repository, or from the release folder
// that `--out DIR` writes: the files above with the manifests and lockfile, ready for
// `npm ci --omit=dev -w server` (the server's dependencies only). The Dockerfile runs this same
// script; scripts/release-check.mjs starts its output from a fresh folder.
//
// Usage: node scripts/build.mjs [--no-web] [--no-server] [--out DIR]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const server = path.join(root, "server");
const out = path.join(server, "dist");
const started = performance.now();
const seconds = (t) => `${((performance.now() - t) / 1000).toFixed(1)} s`;

if (!process.argv.includes("--no-web")) {
  const t = performance.now();
  const web = spawnSync("npm", ["run", "build", "-w", "web", "--silent"], { cwd: root, stdio: "inherit" });
  if (web.status !== 0) process.exit(web.status ?? 1);
  console.log(`web/dist in ${seconds(t)}`);
}

const manifest = (dir) => JSON.parse(fs.readFileSync(path.join(root, dir, "package.json"), "utf8"));
// npm packages stay imports (with their subpaths: "drizzle-orm/pg-core"); the workspace's own
// contracts are TypeScript, so they are compiled into the bundle.
const packages = [
  ...Object.keys(manifest("server").dependencies ?? {}),
  ...Object.keys(manifest("contracts").dependencies ?? {}),
].filter((name) => name !== "@atende/contracts");
const external = packages.flatMap((name) => [name, `${name}/*`]);

if (!process.argv.includes("--no-server")) await buildServer();

async function buildServer() {
  fs.rmSync(out, { recursive: true, force: true });
  const t = performance.now();
  // main.js is written below: it loads protobufShapes.js before the server's bundle (server.js).
  const entries = { server: "src/main.ts", cli: "src/cli.ts" };
  await build({
    absWorkingDir: server,
    entryPoints: Object.fromEntries(
      Object.entries(entries).filter(([, file]) => fs.existsSync(path.join(server, file))),
    ),
    outdir: out,
    bundle: true,
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    platform: "node",
    format: "esm",
    target: "node20",
    external,
    // Stack traces in the log point at the TypeScript (node --enable-source-maps, set by main.ts).
    sourcemap: true,
    keepNames: true,
    legalComments: "none",
    logLevel: "warning",
  });
  // protobufjs' oneof getters are replaced before Baileys loads WhatsApp's protocol (see
  // channels/baileys/protobufShapes.ts). In one bundle that cannot hold: a module's imports run before
  // any of its code, so the patch would run after Baileys. main.js therefore imports it first, as a
  // file of its own, and then the server.
  await build({
    absWorkingDir: server,
    entryPoints: { protobufShapes: "src/channels/baileys/protobufShapes.ts" },
    outdir: out,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external,
    legalComments: "none",
    logLevel: "warning",
  });
  fs.writeFileSync(
    path.join(out, "main.js"),
    "// The release's entry (scripts/build.mjs): the protobufjs patch first, then the server.\n" +
      'import "./protobufShapes.js";\nimport "./server.js";\n',
  );
  // The worker threads' scripts, bundled whole (their dependencies inside) as the server does at run
  // time from source (lib/workerBundle.ts).
  await build({
    absWorkingDir: server,
    entryPoints: {
      sheetWorker: "src/modules/contactLists/sheetWorker.ts",
      importWorker: "src/modules/contacts/importWorker.ts",
    },
    outdir: path.join(out, "workers"),
    outExtension: { ".js": ".cjs" },
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    legalComments: "none",
    logLevel: "warning",
  });
  console.log(`server/dist in ${seconds(t)}; release build done in ${seconds(started)}`);
}

/** What a release holds besides node_modules (the Dockerfile's runtime stage copies the same folder). */
const RELEASE_FILES = [
  "package.json",
  "package-lock.json",
  "CHANGELOG.md",
  // npm run backup / restore / db:move
  "scripts/cli.mjs",
  // Every workspace's manifest: `npm ci` checks the lockfile against all of them.
  ...["contracts", "server", "web", "e2e", "bench"].map((w) => `${w}/package.json`),
  "server/dist",
  "server/drizzle",
  "web/dist",
];

const at = process.argv.indexOf("--out");
if (at > 0) {
  const dir = path.resolve(process.argv[at + 1] ?? "");
  if (!process.argv[at + 1]) throw new Error("--out needs a folder");
  fs.rmSync(dir, { recursive: true, force: true });
  for (const file of RELEASE_FILES) {
    const from = path.join(root, file);
    if (!fs.existsSync(from)) throw new Error(`${file} is missing: build it first`);
    fs.cpSync(from, path.join(dir, file), { recursive: true });
  }
  console.log(`release folder: ${dir} (then: npm ci --omit=dev -w server; node server/dist/main.js)`);
}
