import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiSendAnswer, WhatsappTokenDTO } from "@atende/contracts";
import { companies, messages, plans, tickets, whatsapps } from "../../db/schema/index.js";
import { secretBoxFor } from "../../lib/secretBox.js";
import { sealSecretsAtRest } from "../../secretsAtRest.js";
import {
  type LoggedIn,
  buildConnection,
  buildPlan,
  buildQueue,
  buildUser,
  newNumber,
} from "../../test/factories.js";
import { expectError, expectOk } from "../../test/calls.js";
import { jobsIdle } from "../../test/settled.js";
import { rotateToken, rowOf } from "../whatsapps/testing.js";
import { connectionTokenHash } from "../whatsapps/tokens.js";
import { API_TOKEN_FAILURES, failureKey } from "./service.js";
import {
  PNG,
  call,
  ctx,
  eventually,
  multipart,
  onPhone,
  phone,
  phoneOut,
  setupMessagesSuite,
  stranger,
  strangerCompanyId,
  team,
  ticketOf,
  ana,
} from "../messages/testing.js";

/**
 * POST /api/messages/send: a company's own system sends through a connection with its token (made
 * by the server, kept as a keyed hash, guesses limited per address). Driven end to end: the
 * simulator's phone shows what arrived.
 */
setupMessagesSuite();

let token: string;
const send = (
  payload: unknown,
  headers: Record<string, string> = {},
  bearer: string | null = token,
  remoteAddress?: string,
) =>
  ctx.app.inject({
    method: "POST",
    url: "/api/messages/send",
    payload: payload as object,
    headers: { ...(bearer !== null ? { authorization: `Bearer ${bearer}` } : {}), ...headers },
    ...(remoteAddress ? { remoteAddress } : {}),
  });

/** A new token for the connection, as its dialog's button asks for it (answered once). */
async function rotated(who: LoggedIn, whatsappId: number): Promise<string> {
  return expectOk<WhatsappTokenDTO>(await rotateToken(ctx, who.auth, whatsappId)).token;
}

/** Sends wrong tokens from `address` until it is blocked (API_TOKEN_FAILURES). */
async function block(address: string) {
  for (let i = 0; i < API_TOKEN_FAILURES.max; i++)
    expectError(
      await send({ number: "1", body: "x" }, {}, `guess-${i}-${Math.random()}`, address),
      401,
      "ERR_API_TOKEN_INVALID",
    );
  expectError(
    await send({ number: "1", body: "x" }, {}, "one-more-guess", address),
    429,
    "ERR_TOO_MANY_REQUESTS",
  );
}

beforeAll(async () => {
  await ctx.deps.db.update(plans).set({ useExternalApi: true }).where(eq(plans.id, team.company.planId!));
  // A new connection has no token: the admin generates one (its one showing).
  token = await rotated(team.adminLogin, team.connection.id);
});

describe("token and plan", () => {
  it("refuses a missing, empty or wrong token with 401 ERR_API_TOKEN_INVALID; another company's token never reaches our rows", async () => {
    const number = newNumber();
    expectError(await send({ number, body: "x" }, {}, null), 401, "ERR_API_TOKEN_INVALID");
    expectError(
      await send({ number, body: "x" }, { authorization: "Bearer " }),
      401,
      "ERR_API_TOKEN_INVALID",
    );
    expectError(await send({ number, body: "x" }, {}, `${token}x`), 401, "ERR_API_TOKEN_INVALID");
    // Another company's token is that company's caller: it never reaches our rows.
    const theirs = await buildConnection(ctx.deps.db, strangerCompanyId);
    const theirToken = await rotated(stranger, theirs.id);
    const plan = await buildPlan(ctx.deps.db, { useExternalApi: true });
    await ctx.deps.db.update(companies).set({ planId: plan.id }).where(eq(companies.id, strangerCompanyId));
    expectError(
      await send({ number, body: "x", queueId: team.queues[0]!.id }, {}, theirToken),
      400,
      "ERR_API_QUEUE_NOT_FOUND",
    );
    expectError(
      await send({ number, body: "x", userId: ana.id }, {}, theirToken),
      400,
      "ERR_API_USER_NOT_FOUND",
    );
    expect(await ticketOf(number)).toBeNull();
  });

  it("answers 403 ERR_PLAN_FEATURE_DISABLED when the plan lacks useExternalApi, and sends nothing", async () => {
    const number = newNumber();
    await ctx.deps.db.update(plans).set({ useExternalApi: false }).where(eq(plans.id, team.company.planId!));
    try {
      expectError(await send({ number, body: "x" }), 403, "ERR_PLAN_FEATURE_DISABLED");
      expect(await ticketOf(number)).toBeNull();
    } finally {
      await ctx.deps.db.update(plans).set({ useExternalApi: true }).where(eq(plans.id, team.company.planId!));
    }
  });
});

describe("connection tokens", () => {
  it("the connection's creation answered no token; the one its admin generated sends; afterwards the connection shows only its hint", async () => {
    expect(team.connection).toMatchObject({ token: "", tokenHint: "" });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const answer = expectOk<ApiSendAnswer>(await send({ number: newNumber(), body: "pelo token gerado" }));
    expect(answer.mensagem).toBe("Mensagem enviada");
    const reads = [
      await call("GET", `/whatsapp/${team.connection.id}`, team.adminLogin),
      await call("GET", "/whatsapp", team.adminLogin),
      await call("GET", "/whatsapp", ana.login),
    ];
    for (const res of reads) expect(res.body).not.toContain(token);
    expect(reads[0]!.json()).toMatchObject({ token: "", tokenHint: token.slice(-4) });
    // The row keeps its keyed hash, never the token.
    const row = (await rowOf(team.connection.id, ctx))!;
    expect(row.tokenHash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it("failed tokens count per client address: past the limit, 429 with Retry-After; a right generated token still sends; another address is not blocked", async () => {
    const guesser = "203.0.113.7";
    const answers: number[] = [];
    for (let i = 0; i < API_TOKEN_FAILURES.max + 5; i++) {
      const res = await send({ number: "1", body: "x" }, {}, `guess-${i}-${Math.random()}`, guesser);
      answers.push(res.statusCode);
      if (res.statusCode === 429) {
        expectError(res, 429, "ERR_TOO_MANY_REQUESTS");
        expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
        expect(Number(res.headers["retry-after"])).toBeLessThanOrEqual(API_TOKEN_FAILURES.windowSeconds);
      }
    }
    expect(answers).toEqual([
      ...Array<number>(API_TOKEN_FAILURES.max).fill(401),
      ...Array<number>(5).fill(429),
    ]);
    // A stale client behind the same NAT does not lock the good one out: 256 random bits are no guess.
    const number = newNumber();
    expectOk(await send({ number, body: "do endereço bloqueado" }, {}, token, guesser));
    expect(await ticketOf(number)).not.toBeNull();
    // ... and the guesses go on being refused, the success reset nothing.
    const again = await send({ number: "1", body: "x" }, {}, "guess-after-a-success", guesser);
    expectError(again, 429, "ERR_TOO_MANY_REQUESTS");
    expect(Number(again.headers["retry-after"])).toBeGreaterThan(0);
    expectOk(await send({ number: newNumber(), body: "de outro endereço" }, {}, token, "203.0.113.8"));
    expectError(
      await send({ number: "1", body: "x" }, {}, "guess", "203.0.113.8"),
      401,
      "ERR_API_TOKEN_INVALID",
    );
  });

  it("an IPv6 client counts by its /64: guesses spread over it block all of it, not the next /64", async () => {
    expect(failureKey("2001:db8:1:2::1")).toBe(failureKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff"));
    expect(failureKey("2001:db8:1:2::1")).not.toBe(failureKey("2001:db8:1:3::1"));
    expect(failureKey("::ffff:198.51.100.4")).toBe(failureKey("198.51.100.4"));
    for (let i = 0; i < API_TOKEN_FAILURES.max; i++) {
      const address = `2001:db8:1:2:${(i + 1).toString(16)}::${(i * 7 + 3).toString(16)}`;
      expectError(
        await send({ number: "1", body: "x" }, {}, `v6-guess-${i}`, address),
        401,
        "ERR_API_TOKEN_INVALID",
      );
    }
    const res = await send({ number: "1", body: "x" }, {}, "v6-guess", "2001:db8:1:2:ffff::9");
    expectError(res, 429, "ERR_TOO_MANY_REQUESTS");
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    expectError(
      await send({ number: "1", body: "x" }, {}, "v6-guess", "2001:db8:1:3::1"),
      401,
      "ERR_API_TOKEN_INVALID",
    );
    // The right generated token passes from the blocked /64 too.
    expectOk(
      await send({ number: newNumber(), body: "de um IPv6 bloqueado" }, {}, token, "2001:db8:1:2::42"),
    );
  });
});

describe("sending", () => {
  it("sends text to a number without the ninth digit, into a new pending ticket, and answers the ids", async () => {
    const number = newNumber();
    const withoutNinth = `55 (11) ${number.slice(5, 9)}-${number.slice(9)}`;
    const answer = expectOk<ApiSendAnswer>(await send({ number: withoutNinth, body: "Seu pedido saiu" }));
    expect(answer).toMatchObject({ mensagem: "Mensagem enviada", messageIds: [answer.messageId] });
    const ticket = (await ticketOf(number))!;
    expect(ticket).toMatchObject({ id: answer.ticketId, status: "pending", whatsappId: team.connection.id });
    const arrived = await onPhone(number, answer.messageId);
    expect(arrived).toMatchObject({ direction: "out", body: "Seu pedido saiu" });

    // The second call joins the same ticket.
    const again = expectOk<ApiSendAnswer>(await send({ number, body: "Chegou?" }));
    expect(again.ticketId).toBe(answer.ticketId);
  });

  it("puts a new ticket in the queue given, for the user given, and closes it when asked", async () => {
    const number = newNumber();
    const queueId = team.queues[1]!.id;
    const answer = expectOk<ApiSendAnswer>(
      await send({ number, body: "Na fila 2", queueId, userId: ana.id, closeTicket: true }),
    );
    const ticket = (await ctx.deps.db.select().from(tickets).where(eq(tickets.id, answer.ticketId)))[0]!;
    expect(ticket).toMatchObject({ queueId, userId: ana.id, status: "closed" });
    await onPhone(number, answer.messageId);
  });

  it("refuses another company's queue, user or quoted message", async () => {
    const number = newNumber();
    const theirQueue = await buildQueue(ctx.deps.db, strangerCompanyId, { name: "Deles" });
    expectError(await send({ number, body: "x", queueId: theirQueue.id }), 400, "ERR_API_QUEUE_NOT_FOUND");
    const theirUser = await buildUser(ctx.deps.db, strangerCompanyId);
    expectError(await send({ number, body: "x", userId: theirUser.id }), 400, "ERR_API_USER_NOT_FOUND");
    expectError(await send({ number, body: "x", quotedMsgId: 999_999 }), 400, "ERR_API_QUOTED_NOT_FOUND");
    expect(await ticketOf(number)).toBeNull();
  });

  it("answers 400 ERR_WAPP_INVALID_CONTACT for a number not on WhatsApp, and 400 for bad input", async () => {
    // The simulator knows every number but those ending in 0000.
    expectError(await send({ number: "5511987650000", body: "x" }), 400, "ERR_WAPP_INVALID_CONTACT");
    expectError(await send({ number: "12", body: "x" }), 400, "ERR_WAPP_INVALID_CONTACT");
    expectError(await send({ body: "x" }), 400, "ERR_VALIDATION");
    expectError(await send({ number: newNumber(), body: "  " }), 400, "ERR_EMPTY_MESSAGE");
  });

  it("sends media with the body as the first medium's caption (multipart)", async () => {
    const number = newNumber();
    const form = multipart([
      { name: "number", value: number },
      { name: "body", value: "Segue a nota" },
      { name: "medias", filename: "nota.png", type: "image/png", data: PNG },
      { name: "medias", filename: "copia.png", type: "image/png", data: PNG },
    ]);
    const res = await send(form.payload, { "content-type": form.contentType });
    const answer = expectOk<ApiSendAnswer>(res);
    expect(answer.messageIds).toHaveLength(2);
    const rows = await ctx.deps.db.select().from(messages).where(eq(messages.ticketId, answer.ticketId));
    const byId = new Map(rows.map((m) => [m.id, m]));
    expect(byId.get(answer.messageIds[0]!)).toMatchObject({ body: "Segue a nota", mediaType: "image" });
    expect(byId.get(answer.messageIds[1]!)).toMatchObject({ body: "", mediaType: "image" });
    const first = await onPhone(number, answer.messageIds[0]!);
    expect(first).toMatchObject({ kind: "image", body: "Segue a nota" });
  });
});

describe("Idempotency-Key", () => {
  it("five concurrent calls with one key send once and answer the same ids", async () => {
    const number = newNumber();
    const calls = await Promise.all(
      Array.from({ length: 5 }, () =>
        send({ number, body: "Só uma vez" }, { "idempotency-key": `k-${number}` }),
      ),
    );
    const answers = calls.map((r) => expectOk<ApiSendAnswer>(r));
    expect(new Set(answers.map((a) => a.messageId)).size).toBe(1);
    await onPhone(number, answers[0]!.messageId);
    // A second send, had one been queued, has run by then.
    await jobsIdle(ctx);
    expect((await phoneOut(number)).filter((m) => m.body === "Só uma vez")).toHaveLength(1);
    // A new key sends again.
    const other = expectOk<ApiSendAnswer>(
      await send({ number, body: "Só uma vez" }, { "idempotency-key": `k2-${number}` }),
    );
    expect(other.messageId).not.toBe(answers[0]!.messageId);
    await eventually(async () => (await phone(number)).filter((m) => m.body === "Só uma vez").length === 2);
    expectError(
      await send({ number, body: "x" }, { "idempotency-key": "tem espaço" }),
      400,
      "ERR_API_IDEMPOTENCY_KEY_INVALID",
    );
  });
});

describe("rate limit", () => {
  it("counts per token: over the limit answers 429 with Retry-After, another token still passes", async () => {
    const flood = "flood-token-" + Math.random().toString(36).slice(2);
    let limited = null;
    // From a new address each time: the failed-token limit per address stays out of the way.
    for (let i = 0; i < 200 && !limited; i++) {
      const res = await send({ number: "1", body: "x" }, {}, flood, `198.51.100.${i}`);
      if (res.statusCode === 429) limited = res;
      else expect(res.statusCode).toBe(401);
    }
    expect(limited).not.toBeNull();
    expectError(limited!, 429, "ERR_TOO_MANY_REQUESTS");
    expect(Number(limited!.headers["retry-after"])).toBeGreaterThan(0);
    expectOk(await send({ number: newNumber(), body: "outro token passa" }));
  });
});

describe("documentation", () => {
  it("is in the OpenAPI document with the connection token scheme", async () => {
    const doc = (await ctx.app.inject({ method: "GET", url: "/docs/openapi.json" })).json<{
      paths: Record<string, { post?: { security: unknown; responses: Record<string, unknown> } }>;
    }>();
    const op = doc.paths["/api/messages/send"]!.post!;
    expect(op.security).toEqual([{ connectionToken: [] }]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "403", "429"]));
  });
});

describe("rotation", () => {
  // Last: they change the suite's connection's token.
  it("a token rotated with POST /whatsapp/{id}/token stops working at once; the new one works", async () => {
    const number = newNumber();
    const fresh = await rotated(team.adminLogin, team.connection.id);
    expectError(await send({ number, body: "x" }, {}, token), 401, "ERR_API_TOKEN_INVALID");
    token = fresh;
    expectOk(await send({ number, body: "depois da troca" }));
  });

  it("a token from before the hashes (even a weak one) keeps working once the start-up step hashed it", async () => {
    const number = newNumber();
    const legacy = "1234";
    await ctx.deps.db
      .update(whatsapps)
      .set({ legacyToken: legacy, tokenHash: null, tokenHint: "" })
      .where(eq(whatsapps.id, team.connection.id));
    // Never looked up in clear.
    expectError(await send({ number, body: "x" }, {}, legacy), 401, "ERR_API_TOKEN_INVALID");
    const box = secretBoxFor(ctx.deps.config);
    expect(await sealSecretsAtRest(ctx.deps.db, box)).toMatchObject({ connectionTokens: 1 });
    expect(await rowOf(team.connection.id, ctx)).toMatchObject({
      legacyToken: null,
      tokenHint: "****",
      tokenHash: connectionTokenHash(box, legacy),
    });
    // Again: nothing left to do.
    expect(await sealSecretsAtRest(ctx.deps.db, box)).toMatchObject({ connectionTokens: 0 });
    token = legacy;
    expectOk(await send({ number, body: "com o token antigo" }));
    // A right token from before the hashes may be weak: from a blocked address it stays refused.
    await block("203.0.113.20");
    const refused = await send({ number: newNumber(), body: "x" }, {}, legacy, "203.0.113.20");
    expectError(refused, 429, "ERR_TOO_MANY_REQUESTS");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
  });
});
