import { afterAll } from "vitest";
import { blockOutboundConnections, blockedConnections } from "./network.js";

// Every test file runs with the network limited to this machine; one that tried to leave it fails
// here even when the app swallowed the refused connection.
const databaseHost = process.env.TEST_DATABASE_URL ? new URL(process.env.TEST_DATABASE_URL).hostname : null;
blockOutboundConnections(databaseHost ? [databaseHost] : []);

afterAll(() => {
  if (blockedConnections.length)
    throw new Error(`This file tried to reach outside hosts: ${[...new Set(blockedConnections)].join(", ")}`);
});
