import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOutbound } from "../../lib/outbound.js";
import { type Answer, type HttpFake, startHttpFake } from "../../test/fakes/httpFake.js";
import { buildCompany, buildConnection } from "../../test/factories.js";
import { openTestDatabase, waitFor } from "../../test/harness.js";
import { dbAuthStore } from "../authStore.js";
import { closeWith, silent, startProvider } from "./fixtures/harness.js";
import type { BaileysLogger } from "./logger.js";
import { BUNDLED_WA_WEB_VERSION, waWebVersionSource } from "./version.js";

/**
 * The WhatsApp Web version a session announces, read at connect from a local server that answers
 * as web.whatsapp.com/sw.js does (its service worker's data names the `client_revision`), through
 * the guarded outbound client; sessions' credentials in the database (both databases).
 */

/** The part of WhatsApp Web's sw.js that names the version, as served (JSON inside a JS string). */
const swJs = (revision: number) =>
  `/*FB_PKG_DELIM*/\n"use strict";self.__swData=JSON.parse(/*BTDS*/"{\\"dynamic_data\\":{\\"SiteData\\":{\\"server_revision\\":${revision},\\"client_revision\\":${revision},\\"push_phase\\":\\"C3\\",\\"pkg_cohort\\":\\"BP:whatsapp_www_pkg\\"}}}");\nimportScripts("https://static.whatsapp.net/rsrc.php/v4/yB/r/sw-main.js");`;

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let whatsWeb: HttpFake;
let answer: (n: number) => Answer = () => ({ body: swJs(1027141234), contentType: "application/javascript" });
const outbound = createOutbound();

beforeAll(async () => {
  database = await openTestDatabase();
  whatsWeb = await startHttpFake(() => answer(whatsWeb.requests.length));
});
afterAll(async () => {
  await whatsWeb.close();
  await database.drop();
});
afterEach(() => {
  whatsWeb.requests.length = 0;
});

async function store() {
  const company = await buildCompany(database.db);
  const connection = await buildConnection(database.db, company.id, { provider: "beta" });
  return { store: dbAuthStore(database.db, company.id, connection.id) };
}

/** The lines logged at info and warn. */
function recording() {
  const lines: { msg: string; obj: Record<string, unknown> }[] = [];
  const keep = (obj: Record<string, unknown>, msg?: string) => void lines.push({ msg: msg ?? "", obj });
  const logger: Pick<BaileysLogger, "info" | "warn"> = { info: keep, warn: keep };
  return { logger, lines };
}

const sourceOf = (logger: Pick<BaileysLogger, "info" | "warn">, more: { timeoutMs?: number } = {}) =>
  waWebVersionSource({ outbound, url: `${whatsWeb.url}/sw.js`, logger, ...more });

describe("the WhatsApp Web version read at connect", () => {
  it("announces the version WhatsApp Web serves now; sessions starting together make one request, logged once", async () => {
    const { logger, lines } = recording();
    const latestVersion = sourceOf(logger);
    const started = await Promise.all(
      [1, 2, 3].map(async () => startProvider({ latestVersion }, await store())),
    );
    for (const { configs } of started) {
      await waitFor(() => configs.length === 1);
      expect(configs[0]!.version).toStrictEqual([2, 3000, 1027141234]);
    }
    expect(whatsWeb.requests).toHaveLength(1);
    // Asked as Baileys asks it (a browser's request).
    expect(whatsWeb.requests[0]).toMatchObject({
      method: "GET",
      path: "/sw.js",
      headers: { "sec-fetch-site": "none", "user-agent": expect.stringContaining("Chrome/") },
    });
    expect(lines).toStrictEqual([
      {
        msg: "baileys: current WhatsApp Web version read",
        obj: { version: "2.3000.1027141234", url: `${whatsWeb.url}/sw.js` },
      },
    ]);
  });

  it("WA_WEB_VERSION still decides: nothing is read", async () => {
    const { configs } = await startProvider(
      { version: [2, 3000, 1023223821], latestVersion: sourceOf(silent) },
      await store(),
    );
    expect(configs[0]!.version).toStrictEqual([2, 3000, 1023223821]);
    expect(whatsWeb.requests).toHaveLength(0);
  });

  it("WhatsApp refusing the version announced (405): the next connect reads it again", async () => {
    const latestVersion = sourceOf(silent);
    const { configs, current } = await startProvider({ latestVersion, backoff: () => 5 }, await store());
    await waitFor(() => configs.length === 1);
    answer = () => ({ body: swJs(1027999999), contentType: "application/javascript" });
    closeWith(current(), 405);
    await waitFor(() => configs.length === 2);
    expect(configs[1]!.version).toStrictEqual([2, 3000, 1027999999]);
    expect(whatsWeb.requests).toHaveLength(2);
  });
});

describe("when the version cannot be read", () => {
  it.each([
    ["an answer that names no version", (): Answer => ({ body: "<html>WhatsApp Web</html>" })],
    ["an error status", (): Answer => ({ status: 503, body: "busy" })],
    ["a revision that is no number", (): Answer => ({ body: '{"client_revision": "x"}' })],
  ])("%s: Baileys' bundled version, and the warning says so", async (_, garbage) => {
    answer = garbage;
    const { logger, lines } = recording();
    const { configs } = await startProvider({ latestVersion: sourceOf(logger) }, await store());
    await waitFor(() => configs.length === 1);
    expect(configs[0]).not.toHaveProperty("version");
    expect(lines).toMatchObject([
      {
        msg: expect.stringContaining("announcing Baileys' bundled one"),
        obj: { version: BUNDLED_WA_WEB_VERSION.join(".") },
      },
    ]);
  });

  it("no answer within the timeout: the connect waits no longer than that, and announces the bundled version", async () => {
    answer = () => ({ delayMs: 3_000, body: swJs(1027141234) });
    const { logger, lines } = recording();
    const begun = Date.now();
    const { configs } = await startProvider(
      { latestVersion: sourceOf(logger, { timeoutMs: 200 }) },
      await store(),
    );
    await waitFor(() => configs.length === 1);
    expect(Date.now() - begun).toBeLessThan(2_500);
    expect(configs[0]).not.toHaveProperty("version");
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toContain("could not read the current WhatsApp Web version");
  });
});
