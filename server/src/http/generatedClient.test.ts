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
 * would, uses only those and type-checks under `strict` without any `any` (every answer is declared:
 * http/docs.test.ts refuses a route that does not declare its own).
 */

const PROGRAM = fileURLToPath(new URL("../test/fixtures/integration-client.ts", import.meta.url));

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

beforeAll(async () => {
  ctx = await createTestContext();
  const res = await ctx.app.inject({ method: "GET", url: "/docs/openapi.json" });
  expect(res.statusCode).toBe(200);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "atende-generated-client-"));
  const generating = stopwatch();
  fs.writeFileSync(path.join(dir, "openapi.ts"), astToString(await openapiTS(res.body, { silent: true })));
  const generation = generating();

  fs.copyFileSync(PROGRAM, path.join(dir, "integration-client.ts"));
  const checking = stopwatch();
  const program = ts.createProgram([path.join(dir, "integration-client.ts")], COMPILER_OPTIONS);
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

  it("type-checks the integration program under strict: it logs in, lists tags and tickets, sends through the public API and reads webhook bodies", () => {
    // Its own diagnostics, and any other than the generated file's (a global one, a library's).
    const own = diagnostics.filter((d) => fileOf(d) !== "openapi.ts");
    expect(lines(own), `the integration program does not compile:\n${format(own)}`).toEqual([]);
  });
});
