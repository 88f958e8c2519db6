import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type MessageDTO } from "@atende/contracts";
import { contacts } from "../../db/schema/index.js";
import { newNumber } from "../../test/factories.js";
import { expectError } from "../../test/calls.js";
import { failInserts } from "../../test/dbFailures.js";
import { jobsIdle } from "../../test/settled.js";
import {
  setupMessagesSuite,
  eventually,
  ctx,
  team,
  ana,
  caio,
  stranger,
  call,
  phoneSays,
  phone,
  phoneOut,
  ticketOf,
  openConversation,
  page,
  sendText,
  stored,
  ackOf,
  countOf,
  onPhone,
  listen,
} from "./testing.js";

/**
 * Sending text (POST /messages/{ticketId}): delivery and ticks, signature, replies, what is refused, and
 * retrying a send WhatsApp refused.
 */
setupMessagesSuite();

let seq = 0;

describe("POST /messages/{ticketId} with text", () => {
  it("stores the agent's message fromMe, delivers it to the phone, and its ack moves sent → delivered → read", async () => {
    const { number, ticketId } = await openConversation();
    const live = await listen(ana.login);
    const sent = await sendText(ticketId, ana.login, { body: "Olá! Como posso ajudar?", quotedMsg: null });
    expect(sent).toMatchObject({
      ticketId,
      body: "Olá! Como posso ajudar?",
      fromMe: true,
      read: true,
      ack: 0,
      mediaType: "chat",
      userId: ana.id,
      queueId: team.queues[0]!.id,
      quotedMsg: null,
      sendError: null,
    });

    const onThePhone = await onPhone(number, sent.id);
    expect(onThePhone).toMatchObject({ direction: "out", body: "Olá! Como posso ajudar?", kind: "text" });
    await eventually(async () => (await ackOf(sent.id)) === 3);
    expect((await phone(number)).find((m) => m.id === onThePhone.id)!.ack).toBe(3);

    const read = await call(
      "POST",
      `/simulator/${team.connection.id}/read?number=${number}`,
      team.adminLogin,
    );
    expect(read.json()).toEqual({ read: 1 });
    await eventually(async () => (await ackOf(sent.id)) === 4);
    const last = (await page(ticketId, ana.login)).messages.at(-1)!;
    expect(last).toMatchObject({ id: sent.id, ack: 4, fromMe: true });

    // The live channel carried every step, in order: created pending, then sent, delivered, read.
    await eventually(() => live.appMessage.some((e) => e.message.id === sent.id && e.message.ack === 4));
    const steps = live.appMessage.filter((e) => e.message.id === sent.id);
    expect(steps[0]).toMatchObject({ action: "create", message: { ack: 0 } });
    const acks = steps.map((e) => e.message.ack);
    expect(acks).toEqual([...acks].sort((a, b) => a - b));
    expect(new Set(acks)).toEqual(new Set([0, 1, 3, 4]));
    // The ticket's preview follows the last message.
    expect((await page(ticketId)).ticket.lastMessage).toBe("Olá! Como posso ajudar?");
  });

  it("signs with a '*Name:*' line only when signMessage is on (the client's setting rides on each send)", async () => {
    const { number, ticketId } = await openConversation();
    const signed = await sendText(ticketId, ana.login, { body: "Seu pedido saiu.", signMessage: true });
    expect(signed.body).toBe("*Ana Souza:*\nSeu pedido saiu.");
    const plain = await sendText(ticketId, ana.login, { body: "Chega amanhã.", signMessage: false });
    expect(plain.body).toBe("Chega amanhã.");
    const unset = await sendText(ticketId, ana.login, { body: "Mais alguma coisa?" });
    expect(unset.body).toBe("Mais alguma coisa?");
    expect((await onPhone(number, signed.id)).body).toBe("*Ana Souza:*\nSeu pedido saiu.");
    expect((await onPhone(number, plain.id)).body).toBe("Chega amanhã.");
    expect((await onPhone(number, unset.id)).body).toBe("Mais alguma coisa?");
  });

  it("quotedMsg makes a reply: stored with the quote and seen on the phone quoting the right message", async () => {
    const { number, ticketId } = await openConversation();
    const phoneId = await phoneSays(number, { id: `PH-${number}-Q`, body: "Qual o preço do plano?" });
    const inbound = (await page(ticketId)).messages.find((m) => m.body === "Qual o preço do plano?")!;

    // As web clients send it: the whole quoted message.
    const reply = await sendText(ticketId, ana.login, { body: "R$ 49,90 por mês.", quotedMsg: inbound });
    expect(reply.quotedMsg).toEqual({
      id: inbound.id,
      body: "Qual o preço do plano?",
      fromMe: false,
      mediaType: "chat",
      isDeleted: false,
    });
    expect(await onPhone(number, reply.id)).toMatchObject({ body: "R$ 49,90 por mês.", quotedId: phoneId });

    // Quoting the agent's own message, by id only.
    const again = await sendText(ticketId, ana.login, {
      body: "Com desconto à vista.",
      quotedMsg: { id: reply.id },
    });
    expect(again.quotedMsg).toMatchObject({ id: reply.id, fromMe: true, body: "R$ 49,90 por mês." });
    const replyWid = (await stored(reply.id)).wid!;
    expect((await onPhone(number, again.id)).quotedId).toBe(replyWid);

    // A message of another conversation cannot be quoted; nothing is sent.
    const other = await openConversation();
    const foreign = (await page(other.ticketId)).messages[0]!;
    const before = await countOf(ticketId);
    expectError(
      await call("POST", `/messages/${ticketId}`, ana.login, { body: "x", quotedMsg: { id: foreign.id } }),
      400,
      "ERR_FETCH_WAPP_MSG",
    );
    // Nor one that no longer exists (the spec's "maybe too old").
    expectError(
      await call("POST", `/messages/${ticketId}`, ana.login, { body: "x", quotedMsg: { id: 2_000_000_000 } }),
      400,
      "ERR_FETCH_WAPP_MSG",
    );
    expect(await countOf(ticketId)).toBe(before);
  });

  it("a database failure the agent can retry answers 400 ERR_CREATING_MESSAGE, not a 500; the retry is sent", async () => {
    const { number, ticketId } = await openConversation();
    const before = await countOf(ticketId);
    const lift = await failInserts(ctx.deps.db, {
      table: "messages",
      column: "ticket_id",
      value: ticketId,
      sqlState: "40001",
    });
    try {
      const res = await call("POST", `/messages/${ticketId}`, ana.login, { body: "Segue o boleto." });
      expectError(res, 400, "ERR_CREATING_MESSAGE");
      expect(res.json()).toMatchObject({ message: "Erro ao criar a mensagem no banco de dados." });
      expect(await countOf(ticketId)).toBe(before);
    } finally {
      await lift();
    }
    const sent = await sendText(ticketId, ana.login, { body: "Segue o boleto." });
    expect((await onPhone(number, sent.id)).body).toBe("Segue o boleto.");
  });

  it("an empty or blank body answers 400 ERR_EMPTY_MESSAGE and sends nothing", async () => {
    const { number, ticketId } = await openConversation();
    const before = await countOf(ticketId);
    for (const payload of [{ body: "" }, { body: "   \n  " }, {}]) {
      const res = await call("POST", `/messages/${ticketId}`, ana.login, payload);
      expectError(res, 400, "ERR_EMPTY_MESSAGE");
      expect(res.json().message).toBe("Mensagem vazia não é enviada.");
    }
    expectError(await call("POST", `/messages/${ticketId}`, ana.login, { body: 42 }), 400, "ERR_VALIDATION");
    // Whatever the refused requests had queued has run by then.
    await jobsIdle(ctx);
    expect(await countOf(ticketId)).toBe(before);
    expect(await phoneOut(number)).toEqual([]);
  });

  it("a ticket that is not open answers 409 ERR_TICKET_NOT_OPEN (pending and closed) and the phone gets nothing", async () => {
    const number = newNumber();
    await phoneSays(number, { body: "alguém aí?" });
    const pending = (await ticketOf(number))!;
    const res = await call("POST", `/messages/${pending.id}`, team.adminLogin, { body: "Oi" });
    expectError(res, 409, "ERR_TICKET_NOT_OPEN");
    expect(res.json().message).toBe("Aceite o atendimento antes de responder.");

    const open = await openConversation();
    expect((await call("PUT", `/tickets/${open.ticketId}`, ana.login, { status: "closed" })).statusCode).toBe(
      200,
    );
    expectError(
      await call("POST", `/messages/${open.ticketId}`, ana.login, { body: "Oi de novo" }),
      409,
      "ERR_TICKET_NOT_OPEN",
    );
    await jobsIdle(ctx);
    expect(await countOf(pending.id)).toBe(1);
    expect(await countOf(open.ticketId)).toBe(1);
    expect(await phoneOut(number)).toEqual([]);
    expect(await phoneOut(open.number)).toEqual([]);
  });

  it("an agent outside the queue gets 403, another company 404; nothing is sent", async () => {
    const { number, ticketId } = await openConversation();
    expectError(
      await call("POST", `/messages/${ticketId}`, caio.login, { body: "intruso" }),
      403,
      "ERR_TICKET_ACCESS_DENIED",
    );
    expectError(
      await call("POST", `/messages/${ticketId}`, stranger, { body: "intruso" }),
      404,
      "ERR_NO_TICKET_FOUND",
    );
    await jobsIdle(ctx);
    expect(await countOf(ticketId)).toBe(1);
    expect(await phoneOut(number)).toEqual([]);
  });
});

describe("POST /messages/{id}/retry", () => {
  it("a send WhatsApp refused shows its error; retry sends it again once the cause is fixed", async () => {
    // Numbers ending in 0000 are not on WhatsApp in the simulator: the customer can write, replies fail.
    const number = `5511977${String(++seq).padStart(2, "0")}0000`;
    await phoneSays(number, { body: "oi" });
    const ticket = (await ticketOf(number))!;
    await call("PUT", `/tickets/${ticket.id}`, team.adminLogin, {
      status: "open",
      userId: ana.id,
      queueId: team.queues[0]!.id,
    });
    const live = await listen(ana.login);
    const sent = await sendText(ticket.id, ana.login, { body: "Olá!" });
    await eventually(async () => (await stored(sent.id)).sendError !== null);
    expect(await stored(sent.id)).toMatchObject({ ack: 0 });
    expect((await page(ticket.id, ana.login)).messages.at(-1)).toMatchObject({
      id: sent.id,
      ack: 0,
      sendError: expect.stringContaining("ERR_WAPP_INVALID_CONTACT"),
    });
    await eventually(() => live.appMessage.some((e) => e.message.id === sent.id && e.message.sendError));

    // Retrying what still cannot go fails again, visibly.
    const retried = await call("POST", `/messages/${sent.id}/retry`, ana.login);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json<MessageDTO>()).toMatchObject({ id: sent.id, sendError: null, ack: 0 });
    await eventually(async () => (await stored(sent.id)).sendError !== null);

    // The contact's number is corrected: the retry goes through and the phone receives it.
    const fixed = newNumber();
    await ctx.deps.db.update(contacts).set({ number: fixed }).where(eq(contacts.id, ticket.contactId));
    expect((await call("POST", `/messages/${sent.id}/retry`, caio.login)).statusCode).toBe(403);
    expect((await call("POST", `/messages/${sent.id}/retry`, ana.login)).statusCode).toBe(200);
    await eventually(async () => (await ackOf(sent.id)) === 3);
    expect(await stored(sent.id)).toMatchObject({ sendError: null });
    expect((await phoneOut(fixed)).map((m) => m.body)).toEqual(["Olá!"]);

    // A message that went out is not sent twice by a retry.
    expect((await call("POST", `/messages/${sent.id}/retry`, ana.login)).json<MessageDTO>()).toMatchObject({
      ack: 3,
    });
    await jobsIdle(ctx);
    expect((await phoneOut(fixed)).map((m) => m.body)).toEqual(["Olá!"]);
  });
});
