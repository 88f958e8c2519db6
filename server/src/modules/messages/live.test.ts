import { describe, expect, it } from "vitest";
import { type TicketDTO } from "@atende/contracts";
import { caughtUp } from "../../test/settled.js";

import {
  setupMessagesSuite,
  eventually,
  team,
  ana,
  beto,
  caio,
  stranger,
  call,
  phoneSays,
  phone,
  openConversation,
  page,
  sendText,
  onPhone,
  listen,
  sockets,
} from "./testing.js";

/**
 * The live channel (company-{id}-appMessage) and what the customer's phone sends (text, replies, edits,
 * deletes) as GET shows it.
 */
setupMessagesSuite();

describe("the live channel", () => {
  it("company-{id}-appMessage create and update reach the admin and the queue's agents, not another queue nor another company", async () => {
    const { number, ticketId } = await openConversation();
    const admin = await listen(team.adminLogin);
    const colleague = await listen(beto.login);
    const otherQueue = await listen(caio.login);
    const otherCompany = await listen(stranger, team.company.id);

    const sent = await sendText(ticketId, ana.login, { body: "Respondendo" });
    await phoneSays(number, { body: "Obrigado!" });
    for (const got of [admin, colleague]) {
      await eventually(() => got.appMessage.some((e) => e.message.id === sent.id && e.message.ack === 3));
      const created = got.appMessage.find((e) => e.message.id === sent.id)!;
      expect(created).toMatchObject({
        action: "create",
        message: { body: "Respondendo", fromMe: true, ticketId },
        ticket: { id: ticketId, status: "open", userId: ana.id },
        contact: { number },
      });
      await eventually(() =>
        got.appMessage.some(
          (e) => e.action === "create" && e.message.body === "Obrigado!" && !e.message.fromMe,
        ),
      );
    }
    // The last event went to the admin and the colleague; anything sent with it to the other two
    // sockets has reached them once they have caught up.
    await Promise.all(sockets.filter((s) => s.connected).map(caughtUp));
    expect(otherQueue.appMessage.filter((e) => e.ticket.id === ticketId)).toEqual([]);
    expect(otherCompany.any.filter((n) => n.startsWith(`company-${team.company.id}-`))).toEqual([]);
  });

  it("opening the conversation as its agent resets unread and the customer's ticks turn read", async () => {
    const { number, ticketId } = await openConversation();
    await phoneSays(number, { body: "Está aí?" });
    await phoneSays(number, { body: "Preciso de ajuda urgente" });
    const before = await page(ticketId, team.adminLogin);
    // Looking at it as the admin (not the ticket's agent) reads nothing.
    expect(before.ticket.unreadMessages).toBe(3);
    expect((await phone(number)).map((m) => m.ack)).toEqual([3, 3, 3]);

    const colleague = await listen(beto.login);
    const opened = await page(ticketId, ana.login);
    expect(opened.ticket.unreadMessages).toBe(0);
    expect((await call("GET", `/tickets/${ticketId}`, ana.login)).json<TicketDTO>().unreadMessages).toBe(0);
    expect(opened.messages.every((m) => m.read)).toBe(true);
    await eventually(async () => (await phone(number)).every((m) => m.ack === 4));
    await eventually(() =>
      colleague.ticket.some((e) => e.ticket.id === ticketId && e.ticket.unreadMessages === 0),
    );
  });
});

describe("messages from the customer's phone", () => {
  it("text, a reply to the agent, an edit and a delete for everyone show in GET", async () => {
    const { number, ticketId } = await openConversation();
    const agentMsg = await sendText(ticketId, ana.login, { body: "Qual o número do pedido?" });
    const onTheirPhone = await onPhone(number, agentMsg.id);

    const replyId = await phoneSays(number, {
      id: `PH-${number}-A`,
      body: "É o 1234",
      quotedId: onTheirPhone.id,
    });
    let list = (await page(ticketId)).messages;
    const reply = list.find((m) => m.body === "É o 1234")!;
    expect(reply).toMatchObject({
      fromMe: false,
      mediaType: "chat",
      quotedMsg: { id: agentMsg.id, body: "Qual o número do pedido?", fromMe: true, isDeleted: false },
    });

    const live = await listen(ana.login);
    await phoneSays(number, { edit: { targetId: replyId, body: "É o 4321" } });
    await eventually(
      async () => (await page(ticketId)).messages.find((m) => m.id === reply.id)!.body === "É o 4321",
    );
    expect((await page(ticketId)).messages.find((m) => m.id === reply.id)).toMatchObject({ isEdited: true });

    await phoneSays(number, { revoke: { targetId: replyId } });
    await eventually(async () => (await page(ticketId)).messages.find((m) => m.id === reply.id)!.isDeleted);
    list = (await page(ticketId)).messages;
    expect(list.find((m) => m.id === reply.id)).toMatchObject({ isDeleted: true, fromMe: false });
    await eventually(() => live.appMessage.some((e) => e.message.id === reply.id && e.message.isDeleted));
    // The ticket's conversation keeps every message in order.
    expect(list.map((m) => m.id)).toEqual([...list.map((m) => m.id)].sort((a, b) => a - b));
  });
});
