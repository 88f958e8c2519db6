#!/usr/bin/env node
// Every package the lockfile installs must run on the oldest Node the README promises (the root
// package.json's engines.node, which the README's "Node X.Y+" must match): a package that asks for
// a newer Node makes `npm install` print EBADENGINE and may not run. Run by `npm run lint`.
// (content-disposition 3 and cookie 2 ask for Node 22: package.json's overrides keep
// @fastify/static, @fastify/cookie and light-my-request on content-disposition 2 and cookie 1,
// which have the same functions they call: create, parseCookie, stringifySetCookie.)
import { readFileSync } from "node:fs";
import semver from "semver";

const root = new URL("../", import.meta.url);
const read = (file) => readFileSync(new URL(file, root), "utf8");
const problems = [];

const promised = JSON.parse(read("package.json")).engines?.node;
const oldest = promised && semver.minVersion(promised);
if (!oldest) throw new Error(`package.json: engines.node "${promised}" names no oldest version`);

const readme = /\bNode (\d+\.\d+)\+/.exec(read("README.md"))?.[1];
if (!readme || semver.coerce(readme)?.version !== oldest.version) {
  problems.push(`README.md says Node ${readme ?? "(nothing)"}+, package.json engines.node says ${promised}`);
}

const { packages } = JSON.parse(read("package-lock.json"));
for (const [path, entry] of Object.entries(packages)) {
  const range = entry.engines?.node;
  if (!path || entry.link || typeof range !== "string") continue;
  if (!semver.satisfies(oldest, range)) {
    problems.push(`${path.replace(/^.*node_modules\//, "")}@${entry.version} needs Node ${range} (${path})`);
  }
}

if (problems.length > 0) {
  console.error(`Not for Node ${oldest.version}:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`engines: every locked package runs on Node ${oldest.version}`);
