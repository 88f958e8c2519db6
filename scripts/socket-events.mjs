#!/usr/bin/env node
// The Socket.IO events of the live channel, read from contracts/src/socket.ts (the map the server's
// Socket.IO instance and the web are typed by) with the TypeScript compiler, and written to
// server/src/http/socketEvents.json for the API document (/docs), which shows them with their
// payloads. `node scripts/socket-events.mjs` writes it; `--check` fails when it is out of date
// (http/docs.test.ts runs the same comparison).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SOCKET_EVENTS_FILE = path.join(root, "server/src/http/socketEvents.json");

/** What the first `${number}` after a name segment stands for, by the segment before it. */
const PLACEHOLDERS = {
  company: "companyId",
  user: "userId",
  chat: "chatId",
  ContactListItem: "contactListId",
};

/** `company-${number}-chat-user-${number}` as a reader writes it: `company-{companyId}-chat-user-{userId}`. */
function eventName(template) {
  return template.replace(
    /([A-Za-z]+)-\$\{number\}/g,
    (_, before) => `${before}-{${PLACEHOLDERS[before] ?? "id"}}`,
  );
}

const docOf = (node) =>
  ts
    .getJSDocCommentsAndTags(node)
    .filter(ts.isJSDoc)
    .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? "")
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();

/** A type as one line: comments out, spaces folded, no leading `|`. */
const flat = (text) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\/\/.*$/gm, "")
    .replace(/\s+/g, " ")
    .replace(/\s*\|\s*/g, " | ")
    .trim()
    .replace(/^\| /, "");

/** The events, in the order socket.ts and the maps it joins declare them. */
export function readSocketEvents() {
  const file = path.join(root, "contracts/src/socket.ts");
  const program = ts.createProgram([file], {
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const declarationOf = (name, from = source) => {
    const symbol = checker
      .getSymbolsInScope(from, ts.SymbolFlags.Type | ts.SymbolFlags.Alias)
      .find((s) => s.name === name);
    const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return target?.declarations?.[0];
  };
  /** A payload's type; one named in another file is shown as written there (one level), so its fields show. */
  const typeText = (type) => {
    if (ts.isTypeReferenceNode(type) && !type.typeArguments) {
      const declared = declarationOf(type.typeName.getText(), type);
      if (declared && ts.isTypeAliasDeclaration(declared)) return flat(declared.type.getText());
      if (declared && ts.isInterfaceDeclaration(declared) && !declared.heritageClauses)
        return flat(`{ ${declared.members.map((m) => m.getText()).join(" ")} }`);
    }
    return flat(type.getText());
  };
  const payloadText = (fnType) => {
    const [param] = ts.isFunctionTypeNode(fnType) ? fnType.parameters : [];
    return param?.type ? typeText(param.type) : "none";
  };

  const events = [];
  const payloads = declarationOf("CompanyEventPayloads");
  for (const member of payloads.members) {
    events.push({
      name: `company-{companyId}-${member.name.getText()}`,
      direction: "server",
      description: docOf(member),
      payload: typeText(member.type),
    });
  }
  events.push({
    name: "ready",
    direction: "server",
    description: "The socket has joined its rooms: events from now on reach it.",
    payload: "none",
  });
  // The other maps ServerToClientEvents joins: members named by a template or a string.
  const serverEvents = declarationOf("ServerToClientEvents");
  const joined = serverEvents.type.types
    .filter((t) => ts.isTypeReferenceNode(t))
    .map((t) => t.typeName.getText());
  for (const name of joined) {
    const declared = declarationOf(name);
    for (const member of declared.members) {
      const template = ts.isIndexSignatureDeclaration(member)
        ? member.parameters[0].type.getText().replace(/^`|`$/g, "")
        : member.name.getText().replace(/^"|"$/g, "");
      events.push({
        name: eventName(template),
        direction: "server",
        description: docOf(member),
        payload: payloadText(member.type),
      });
    }
  }
  for (const member of declarationOf("ClientToServerEvents").members) {
    const params = member.type.parameters.map(
      (p) => `${p.name.getText()}${p.questionToken ? "?" : ""}: ${flat(p.type.getText())}`,
    );
    events.push({
      name: member.name.getText(),
      direction: "client",
      description: docOf(member),
      payload: params.join(", ") || "none",
    });
  }
  return events;
}

export function socketEventsJson() {
  return `${JSON.stringify(readSocketEvents(), null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const now = socketEventsJson();
  if (process.argv.includes("--check")) {
    const kept = fs.existsSync(SOCKET_EVENTS_FILE) ? fs.readFileSync(SOCKET_EVENTS_FILE, "utf8") : "";
    if (kept !== now) {
      console.error(
        `${path.relative(root, SOCKET_EVENTS_FILE)} is out of date: run node scripts/socket-events.mjs`,
      );
      process.exit(1);
    }
  } else {
    fs.writeFileSync(SOCKET_EVENTS_FILE, now);
    console.log(`wrote ${path.relative(root, SOCKET_EVENTS_FILE)}: ${JSON.parse(now).length} events`);
  }
}
