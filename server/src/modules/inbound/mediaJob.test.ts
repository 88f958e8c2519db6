import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import type { WAMessage } from "../../channels/baileys/lib.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { MessageDTO } from "@atende/contracts";
import { jobs, messages } from "../../db/schema/index.js";
import type { DomainEvent } from "../../events/bus.js";
import { type FakeGraph, cloudWebhookPayload, startFakeGraph } from "../../test/fakes/graph.js";
import { buildCompany, buildConnection } from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";
import { baileysProvider } from "../../channels/baileys/provider.js";
import { fixtures } from "../../channels/baileys/fixtures/messages.js";
import { silent } from "../../channels/baileys/fixtures/harness.js";
import { mapUpsertedMessage } from "../../channels/baileys/mapping.js";
import { mapCloudWebhook } from "../../channels/cloud/mapping.js";
import { connectionInfo } from "./service.js";
import { INBOUND_MEDIA_ATTEMPTS, INBOUND_MEDIA_JOB } from "./mediaJob.js";
import type { ConnectionInfo } from "../../channels/provider.js";

/**
 * Inbound media never blocks the message: it is stored at once with its file pending, and a durable
 * job downloads the file (size checked first, streamed to disk under INBOUND_MEDIA_MAX_BYTES, retried
 * with backoff), then the message shows it. The Cloud API is the fake Graph server; Baileys' CDN is
 * the provider's download seam fed with the fixtures' messages. Jobs are run by the real JobRunner on
 * the test's clock.
 */

const CAP = 4096;
const PNG = Buffer.concat([
  Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex"),
  Buffer.alloc(600, 1),
]);
const PHONE_NUMBER_ID = "555000111";

let ctx: TestContext;
let fake: FakeGraph;
let cloud: ConnectionInfo;
let beta: ConnectionInfo;
/** What the Baileys download seam was asked for, and what it answers. */
const cdnAsked: WAMessage[] = [];
let cdnBytes: Buffer = PNG;
const events: DomainEvent[] = [];

beforeAll(async () => {
  fake = await startFakeGraph();
  ctx = await createTestContext(
    { GRAPH_API_URL: fake.url, INBOUND_MEDIA_MAX_BYTES: CAP },
    {
      providers: {
        beta: baileysProvider({
          logger: silent,
          downloadMedia: async (message) => {
            cdnAsked.push(message);
            return cdnBytes;
          },
        }),
      },
    },
  );
  ctx.clock.now = new Date("2026-03-02T12:00:00Z");
  const company = await buildCompany(ctx.deps.db);
  const cloudRow = await buildConnection(ctx.deps.db, company.id, {
    provider: "cloud",
    providerConfig: { phoneNumberId: PHONE_NUMBER_ID, accessToken: fake.accessToken },
  });
  const betaRow = await buildConnection(ctx.deps.db, company.id, { provider: "beta" });
  cloud = (await connectionInfo(ctx.deps.db, company.id, cloudRow.id))!;
  beta = (await connectionInfo(ctx.deps.db, company.id, betaRow.id))!;
  ctx.deps.bus.on((event) => void events.push(event));
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
beforeEach(async () => {
  events.length = 0;
  cdnAsked.length = 0;
  cdnBytes = PNG;
  fake.requests.length = 0;
  await ctx.deps.db.delete(jobs);
});

let seq = 0;
/** A customer's image through the Cloud webhook mapping, as the webhook job hands it to the pipeline. */
async function cloudImage(data: Buffer): Promise<string> {
  const mediaId = fake.addMedia(data, "image/png");
  const wamid = `wamid.MEDIA${++seq}`;
  const body = cloudWebhookPayload(PHONE_NUMBER_ID, {
    contacts: [{ profile: { name: "Lia" }, wa_id: `55119876${String(5000 + seq)}` }],
    messages: [
      {
        from: `55119876${String(5000 + seq)}`,
        id: wamid,
        timestamp: "1772452800",
        type: "image",
        image: { id: mediaId, mime_type: "image/png", caption: "Comprovante" },
      },
    ],
  });
  for (const { event } of mapCloudWebhook(body, () => Promise.reject(new Error("not inline"))))
    await ctx.built.channels.inbound.handle(cloud, event);
  return wamid;
}

async function row(whatsappId: number, wid: string) {
  const [found] = await ctx.deps.db
    .select()
    .from(messages)
    .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)));
  return found!;
}

function savedMessages(action: "create" | "update"): MessageDTO[] {
  return events.flatMap((e) => (e.type === "message.saved" && e.action === action ? [e.message] : []));
}

/** Runs the due jobs, then moves the clock past the runner's longest backoff so retries are due. */
async function runJobs(): Promise<void> {
  await ctx.built.channels.jobs.runDue();
  ctx.clock.now = new Date(ctx.clock.now.getTime() + 10 * 60_000);
}

const downloads = () => fake.requests.filter((r) => r.path.startsWith("/download/"));
const companyFiles = () => {
  const dir = path.join(ctx.deps.media.root, String(cloud.companyId));
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

describe("inbound media: stored first, downloaded by a job", () => {
  it("the message shows at once with its media pending; the job downloads it and the message shows the file", async () => {
    const wid = await cloudImage(PNG);
    const pending = await row(cloud.id, wid);
    expect(pending).toMatchObject({ mediaStatus: "pending", mediaPath: null, body: "Comprovante" });
    expect(savedMessages("create")).toEqual([
      expect.objectContaining({ id: pending.id, mediaStatus: "pending", mediaUrl: null, mediaType: "image" }),
    ]);
    expect(downloads()).toHaveLength(0); // nothing fetched on the message's own path

    await runJobs();
    const done = await row(cloud.id, wid);
    expect(done).toMatchObject({ mediaStatus: null, mediaMime: "image/png" });
    expect((await ctx.deps.media.read(cloud.companyId, done.mediaPath!))!.equals(PNG)).toBe(true);
    expect(savedMessages("update")).toEqual([
      expect.objectContaining({ id: done.id, mediaStatus: null, mediaUrl: `/media/${done.mediaPath}` }),
    ]);
  });

  it("a redelivered media message queues no second download", async () => {
    const mediaId = fake.addMedia(PNG, "image/png");
    const body = cloudWebhookPayload(PHONE_NUMBER_ID, {
      messages: [
        {
          from: "5511977770001",
          id: "wamid.TWICE",
          timestamp: "1772452800",
          type: "image",
          image: { id: mediaId },
        },
      ],
    });
    for (let i = 0; i < 2; i++)
      for (const { event } of mapCloudWebhook(body, () => Promise.reject(new Error("not inline"))))
        await ctx.built.channels.inbound.handle(cloud, event);
    const queued = await ctx.deps.db.select().from(jobs).where(eq(jobs.type, INBOUND_MEDIA_JOB));
    expect(queued).toHaveLength(1);
  });

  it("a file announced over the limit is never downloaded: the message says it is too large", async () => {
    const before = companyFiles().length;
    const wid = await cloudImage(Buffer.alloc(CAP + 1, 7));
    await runJobs();
    const settled = await row(cloud.id, wid);
    expect(settled).toMatchObject({ mediaStatus: "tooLarge", mediaPath: null });
    expect(savedMessages("update")).toEqual([expect.objectContaining({ mediaStatus: "tooLarge" })]);
    expect(downloads()).toHaveLength(0);
    expect(companyFiles()).toHaveLength(before);
  });

  it("a file that streams past the limit (announced smaller) is cut off and leaves nothing on disk", async () => {
    cdnBytes = Buffer.alloc(CAP * 3, 9); // the fixture announces 1024 bytes
    const before = companyFiles().length;
    const event = mapUpsertedMessage(
      { ...fixtures.image, key: { ...fixtures.image.key, id: "BIGGER" } },
      () => Promise.reject(new Error("not inline")),
    );
    await ctx.built.channels.inbound.handle(beta, event!);
    await runJobs();
    expect(await row(beta.id, "BIGGER")).toMatchObject({ mediaStatus: "tooLarge", mediaPath: null });
    expect(companyFiles()).toHaveLength(before);
  });

  it("Baileys: the job downloads by the message's media key and CDN path, with no live socket", async () => {
    const event = mapUpsertedMessage(fixtures.image, () => Promise.reject(new Error("not inline")));
    await ctx.built.channels.inbound.handle(beta, event!);
    expect(await row(beta.id, fixtures.image.key.id!)).toMatchObject({ mediaStatus: "pending" });
    await runJobs();
    const image = fixtures.image.message!.imageMessage!;
    expect(cdnAsked).toHaveLength(1);
    const asked = cdnAsked[0]!.message!.imageMessage!;
    expect(Buffer.from(asked.mediaKey!).toString("base64")).toBe(
      Buffer.from(image.mediaKey!).toString("base64"),
    );
    expect(asked.directPath).toBe(image.directPath);
    const done = await row(beta.id, fixtures.image.key.id!);
    expect(done).toMatchObject({ mediaStatus: null, mediaMime: "image/png" });
  });

  it("a failed download is retried with backoff and succeeds on a later try", async () => {
    fake.failNext({ status: 503, pathEndsWith: "" });
    fake.failNext({ network: true });
    const wid = await cloudImage(PNG);
    await runJobs();
    expect(await row(cloud.id, wid)).toMatchObject({ mediaStatus: "pending" });
    await runJobs();
    expect(await row(cloud.id, wid)).toMatchObject({ mediaStatus: "pending" });
    await runJobs();
    expect(await row(cloud.id, wid)).toMatchObject({ mediaStatus: null, mediaMime: "image/png" });
  });

  it(`after ${INBOUND_MEDIA_ATTEMPTS} failed tries the message shows the media as failed`, async () => {
    const wid = await cloudImage(PNG);
    for (let i = 0; i < INBOUND_MEDIA_ATTEMPTS; i++) fake.failNext({ status: 500, pathEndsWith: "" });
    for (let i = 0; i < INBOUND_MEDIA_ATTEMPTS - 1; i++) {
      await runJobs();
      expect(await row(cloud.id, wid)).toMatchObject({ mediaStatus: "pending" });
    }
    await runJobs();
    expect(await row(cloud.id, wid)).toMatchObject({ mediaStatus: "failed", mediaPath: null });
    expect(savedMessages("update").at(-1)).toMatchObject({ mediaStatus: "failed", mediaUrl: null });
  });
});
