import { afterAll } from "vitest";
import { blockOutboundConnections, blockedConnections } from "./network.js";

// Every test file runs with the network limited to this machine (and the test database and Redis,
// wherever they are); one that tried to leave it fails here even when the app swallowed the refusal.
// Files share their worker's modules (isolate: false), so the list is emptied for the next file.
const serviceHosts = [process.env.TEST_DATABASE_URL, process.env.TEST_REDIS_URL].flatMap((url) =>
  url ? [new URL(url).hostname] : [],
);
blockOutboundConnections(serviceHosts);

afterAll(() => {
  const tried = [...new Set(blockedConnections)];
  blockedConnections.length = 0;
  if (tried.length) throw new Error(`This file tried to reach outside hosts: ${tried.join(", ")}`);
});
