import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext } from "../test/harness.js";

/**
 * Issue 37, item 5: a client generated from /docs/openapi.json works. openapi-typescript turns the
 * document into types; test/fixtures/integration-client.ts, a small program written as a customer
 * would, uses only those and type-checks under `strict` without any `any`.
 */

const PROGRAM = fileURLToPath(new URL("../test/fixtures/integration-client.ts", import.meta.url));

/** The calls the program makes once their answers are declared (its "WHEN DECLARED" steps). */
const WHEN_DECLARED = [
  { method: "post", path: "/auth/login" },
  { method: "get", path: "/tickets" },
  { method: "post", path: "/api/messages/send" },
] as const;
const WEBHOOK_WHEN_DECLARED = "ticket.created";

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, unknown>;
}

/** The JSON schema of an operation's success answer, when it has one. */
function successSchema(op: Operation): Record<string, unknown> | undefined {
  const ok = op.responses["200"] ?? op.responses["201"];
  return ok?.content?.["application/json"]?.schema;
}

/** An answer without a declared schema: @fastify/swagger writes only the description. */
const undeclared = (schema: Record<string, unknown> | undefined) =>
  schema !== undefined && Object.keys(schema).every((key) => key === "description");

/** The compiler's checks: `strict` and the project's own (tsconfig.base.json), for a client program. */
const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  // The standard library and the browser's fetch; no Node types.
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
  types: [],
  skipLibCheck: true,
};

let ctx: TestContext;
let doc: Document;
let dir: string;
let generated: ts.SourceFile;
/** Every diagnostic of the one program that checks the generated types and the files using them. */
let diagnostics: readonly ts.Diagnostic[];
/** The file a diagnostic is in (its base name), or "" for a global one. */
const fileOf = (d: ts.Diagnostic) => (d.file ? path.basename(d.file.fileName) : "");
/** One line per diagnostic (what a failing assertion's diff shows), then the compiler's own report. */
const lines = (list: readonly ts.Diagnostic[]) =>
  list.map((d) => {
    const at = d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0) : undefined;
    const where = d.file ? `${fileOf(d)}:${at!.line + 1}:${at!.character + 1} ` : "";
    return `${where}TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  });
const format = (list: readonly ts.Diagnostic[]) =>
  (process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics)(list, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => dir,
    getNewLine: () => "\n",
  });

/** A step's time since the call: wall and CPU (the machine's load stretches the one, not the other). */
function stopwatch() {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(cpu);
    return `${Math.round(performance.now() - wall)} ms (CPU ${Math.round((used.user + used.system) / 1000)} ms)`;
  };
}

/** The operations whose success answer has no declared schema, by path, method and status. */
function undeclaredOperations() {
  return Object.entries(doc.paths).flatMap(([url, byMethod]) =>
    Object.entries(byMethod)
      .filter(([, op]) => undeclared(successSchema(op)))
      .map(([method, op]) => ({ url, method, status: op.responses["200"] ? 200 : 201 })),
  );
}

beforeAll(async () => {
  ctx = await createTestContext();
  const res = await ctx.app.inject({ method: "GET", url: "/docs/openapi.json" });
  expect(res.statusCode).toBe(200);
  doc = res.json<Document>();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "atende-generated-client-"));
  const generating = stopwatch();
  fs.writeFileSync(path.join(dir, "openapi.ts"), astToString(await openapiTS(res.body, { silent: true })));
  const generation = generating();

  fs.copyFileSync(PROGRAM, path.join(dir, "integration-client.ts"));
  // One assertion per operation whose answer is undeclared: `unknown`, so reading it needs a check first.
  fs.writeFileSync(
    path.join(dir, "undeclared.ts"),
    [
      'import type { paths } from "./openapi.js";',
      "type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;",
      ...undeclaredOperations().map(
        ({ url, method, status }, i) =>
          `export const undeclared${i}: Equals<paths[${JSON.stringify(url)}]["${method}"]["responses"][${status}]["content"]["application/json"], unknown> extends true ? true : ${JSON.stringify(`${method.toUpperCase()} ${url}: its undeclared answer is not typed unknown`)} = true;`,
      ),
      "",
    ].join("\n"),
  );
  const checking = stopwatch();
  const program = ts.createProgram(
    ["integration-client.ts", "undeclared.ts"].map((f) => path.join(dir, f)),
    COMPILER_OPTIONS,
  );
  diagnostics = ts.getPreEmitDiagnostics(program);
  generated = program.getSourceFile(path.join(dir, "openapi.ts"))!;
  console.info(`generated client: openapi-typescript ${generation}; type-check ${checking()}`);
});
afterAll(async () => {
  await ctx?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("a client generated from /docs/openapi.json", () => {
  it("has no `any` anywhere in the generated types, and compiles", () => {
    const found: string[] = [];
    const visit = (node: ts.Node) => {
      if (node.kind === ts.SyntaxKind.AnyKeyword) {
        const { line } = generated.getLineAndCharacterOfPosition(node.getStart(generated));
        found.push(`openapi.ts:${line + 1}: ${generated.text.split("\n")[line]!.trim()}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(generated);
    expect(found).toEqual([]);
    const own = diagnostics.filter((d) => fileOf(d) === "openapi.ts");
    expect(lines(own), format(own)).toEqual([]);
  });

  it("types every answer left undeclared as `unknown`, not `any`", () => {
    const own = diagnostics.filter((d) => fileOf(d) === "undeclared.ts");
    expect(lines(own), format(own)).toEqual([]);
    console.info(`undeclared answers: ${undeclaredOperations().length}, each typed unknown`);
  });

  it("type-checks the integration program under strict: the version, the tags it lists and creates", () => {
    // Its own diagnostics, and any other than the two files above (a global one, a library's).
    const own = diagnostics.filter((d) => !["openapi.ts", "undeclared.ts"].includes(fileOf(d)));
    expect(lines(own), `the integration program does not compile:\n${format(own)}`).toEqual([]);

    // Its "WHEN DECLARED" steps whose routes now declare their answers: uncomment them.
    const ready = WHEN_DECLARED.filter(({ method, path: url }) => {
      const op = doc.paths[url]?.[method];
      return op !== undefined && !undeclared(successSchema(op));
    }).map(({ method, path: url }) => `${method.toUpperCase()} ${url}`);
    if (doc.webhooks?.[WEBHOOK_WHEN_DECLARED]) ready.push(`webhook ${WEBHOOK_WHEN_DECLARED}`);
    if (ready.length)
      console.info(`declared now, enable their steps in integration-client.ts: ${ready.join(", ")}`);
  });
});
