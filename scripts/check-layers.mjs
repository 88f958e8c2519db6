// The server's layers, written down, and the check that holds them (part of `npm run lint`).
//
// A unit is a folder of server/src (modules/<name>, and each part of modules/bots), or a file at its
// top. Units stand on floors, bottom first; a unit imports (type imports included) only units on
// its own floor or below, never in a circle, and a queries file never imports a service or routes.
// A new module goes on the floor its imports call for: the check names the floor it is missing from.
// `node scripts/check-layers.mjs --dot` prints the units' graph for Graphviz instead.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cruise } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";

export const FLOORS = [
  // What every part stands on: no domain knowledge.
  ["lib", "version.ts", "paths.ts", "config.ts", "db", "events", "jobs", "http", "storage"],
  // WhatsApp's transport (providers, sessions), the mail, the refresh tokens, what the app hands a module.
  ["channels", "modules/mail", "modules/sessions", "modules/health", "deps.ts"],
  // A company's own data and settings: each domain stands alone or on those before it here.
  [
    "modules/settings",
    "modules/plans",
    "modules/announcements",
    "modules/files",
    "modules/helps",
    "modules/metrics",
    "modules/quickMessages",
    "modules/webhooks",
    "modules/simulator",
    "modules/logos",
    "modules/contacts",
    "modules/bots/integrations",
    "modules/bots/prompts",
    "modules/bots",
    "modules/queues",
    "modules/whatsapps",
    "modules/users",
    "modules/companies",
    "modules/passwordReset",
    "modules/auth",
    "modules/billing",
  ],
  // The conversation's bottom: tickets and their commands.
  ["modules/tickets"],
  // What a conversation is made of, on tickets: messages, bots, campaigns, schedules and the rest.
  [
    "modules/messages",
    "modules/tags",
    "modules/ticketNotes",
    "modules/chats",
    "modules/dashboard",
    "modules/media",
    "modules/bots/menu",
    "modules/bots/runtime",
    "modules/campaigns",
    "modules/schedules",
    "modules/cloudTemplates",
    "modules/contactLists",
    "modules/push",
    "modules/search",
    "modules/serviceLevels",
    "modules/assist",
    "realtime",
  ],
  // The edges where conversations come in: the inbound pipeline and the public messages API.
  ["modules/inbound", "modules/messagesApi"],
  // The app put together: listeners, the demo seed, startup tasks, the entry point; the operator's
  // commands (backup, restore, the move to PostgreSQL, upgrade fixtures).
  ["listeners.ts", "seed", "secretsAtRest.ts", "app.ts", "main.ts", "ops", "cli.ts"],
];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "server");
const SKIP = /\.test\.ts$|^src\/test\/|\/testing\.ts$|\/fixtures\//;
const QUERIES = /(^|\/)(queries|\w+Queries)\.ts$/;

/** The unit a file of server/src belongs to. */
export function unitOf(file) {
  const rel = file.replace(/^src\//, "");
  const m = /^(modules\/bots\/(?:menu|runtime|integrations|prompts)(?=\/)|modules\/[^/]+|[^/]+)/.exec(rel);
  return m ? m[1] : rel;
}

/** Tarjan's strongly connected components of size > 1. */
function circles(graph) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const idx = new Map();
  const low = new Map();
  const found = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const c = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1) found.push(c.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

export async function checkLayers() {
  const cwd = process.cwd();
  process.chdir(root);
  let result;
  try {
    const cruised = await cruise(
      ["src"],
      {
        doNotFollow: { path: "node_modules" },
        tsPreCompilationDeps: true,
        tsConfig: { fileName: "tsconfig.json" },
        outputType: "json",
      },
      {},
      { tsConfig: extractTSConfig("tsconfig.json") },
    );
    result = typeof cruised.output === "string" ? JSON.parse(cruised.output) : cruised.output;
  } finally {
    process.chdir(cwd);
  }
  const floorOf = new Map(FLOORS.flatMap((units, floor) => units.map((u) => [u, floor])));
  const problems = [];
  const units = new Map(); // unit -> Map(unit -> example "a -> b")
  const files = new Map(); // file -> runtime-imported files
  let imports = 0;
  for (const m of result.modules) {
    if (!m.source.startsWith("src/") || SKIP.test(m.source)) continue;
    const from = unitOf(m.source);
    if (!floorOf.has(from) && !units.has(from)) problems.push(`${from} stands on no floor: add it to FLOORS`);
    if (!units.has(from)) units.set(from, new Map());
    const runtime = [];
    for (const d of m.dependencies) {
      if (!d.resolved.startsWith("src/") || SKIP.test(d.resolved)) continue;
      imports++;
      const typeOnly = d.dependencyTypes.includes("type-only");
      if (!typeOnly) runtime.push(d.resolved);
      if (QUERIES.test(m.source) && /(^|\/)(service|routes)\.ts$/.test(d.resolved))
        problems.push(`a queries file imports a service: ${m.source} -> ${d.resolved}`);
      const to = unitOf(d.resolved);
      if (to === from) continue;
      if (!units.get(from).has(to)) units.get(from).set(to, `${m.source} -> ${d.resolved}`);
      if (floorOf.has(from) && floorOf.has(to) && floorOf.get(to) > floorOf.get(from))
        problems.push(`${from} imports ${to}, a floor above it: ${m.source} -> ${d.resolved}`);
    }
    files.set(m.source, runtime);
  }
  const unitGraph = new Map([...units].map(([u, to]) => [u, [...to.keys()]]));
  for (const c of circles(unitGraph)) {
    const arrows = c.flatMap((u) => c.filter((v) => units.get(u)?.has(v)).map((v) => units.get(u).get(v)));
    problems.push(`a circle between ${c.join(", ")}:\n    ${arrows.join("\n    ")}`);
  }
  // Tables may reference each other (foreign keys both ways): the schema's files are left out.
  const fileGraph = new Map([...files].filter(([f]) => !f.startsWith("src/db/schema/")));
  for (const c of circles(fileGraph)) problems.push(`a circle between files: ${c.join(", ")}`);
  return { problems, units: unitGraph, imports, floorOf };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { problems, units, imports, floorOf } = await checkLayers();
  if (process.argv.includes("--dot")) {
    const lines = ["digraph server {", "  rankdir=BT; node [shape=box, fontsize=10];"];
    FLOORS.forEach((floor, i) => {
      lines.push(`  subgraph cluster_${i} { label="floor ${i}"; ${floor.map((u) => `"${u}"`).join("; ")}; }`);
    });
    for (const [u, to] of units) for (const v of to) lines.push(`  "${u}" -> "${v}";`);
    console.log([...lines, "}"].join("\n"));
  } else if (problems.length > 0) {
    console.error(
      `layers: ${problems.length} problem(s) (scripts/check-layers.mjs)\n- ${problems.join("\n- ")}`,
    );
    process.exitCode = 1;
  } else {
    console.log(
      `layers: ${units.size} units on ${FLOORS.length} floors, ${imports} imports, no circle, none up a floor`,
    );
  }
  void floorOf;
}
