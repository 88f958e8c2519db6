import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type MessageDTO, type TicketDTO } from "@atende/contracts";
import { jobs } from "../../db/schema/index.js";

import { expectError } from "../../test/calls.js";
import {
  setupMessagesSuite,
  eventually,
  ctx,
  team,
  ana,
  beto,
  caio,
  stranger,
  call,
  phoneSays,
  phone,
  phoneOut,
  openConversation,
  page,
  sendText,
  stored,
  onPhone,
  listen,
} from "./testing.js";

/**
 * Changing a sent message: editing and deleting (author only, seen on the phone and in the list) and
 * reactions.
 */
setupMessagesSuite();

describe("editing and deleting a message", () => {
  it("only the author edits; the phone sees the new text and GET shows it edited", async () => {
    const { number, ticketId } = await openConversation();
    const sent = await sendText(ticketId, ana.login, { body: "O prazo é 5 dias." });
    const wid = (await onPhone(number, sent.id)).id;

    for (const who of [beto.login, team.adminLogin]) {
      const res = await call("POST", `/messages/edit/${sent.id}`, who, { body: "hackeado" });
      expectError(res, 403, "ERR_NOT_MESSAGE_AUTHOR");
    }
    expectError(
      await call("POST", `/messages/edit/${sent.id}`, caio.login, { body: "x" }),
      403,
      "ERR_TICKET_ACCESS_DENIED",
    );
    expectError(
      await call("POST", `/messages/edit/${sent.id}`, stranger, { body: "x" }),
      404,
      "ERR_NOT_FOUND",
    );
    expectError(
      await call("POST", `/messages/edit/${sent.id}`, ana.login, { body: "  " }),
      400,
      "ERR_VALIDATION",
    );
    // The customer's message is nobody's to edit.
    const inbound = (await page(ticketId)).messages.find((m) => !m.fromMe)!;
    expectError(
      await call("POST", `/messages/edit/${inbound.id}`, ana.login, { body: "x" }),
      403,
      "ERR_NOT_MESSAGE_AUTHOR",
    );
    expect((await stored(sent.id)).body).toBe("O prazo é 5 dias.");

    const live = await listen(team.adminLogin);
    const res = await call("POST", `/messages/edit/${sent.id}`, ana.login, { body: "O prazo é 3 dias." });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<MessageDTO>()).toMatchObject({ id: sent.id, body: "O prazo é 3 dias.", isEdited: true });
    await eventually(
      async () => (await phone(number)).find((m) => m.id === wid)!.body === "O prazo é 3 dias.",
    );
    expect((await page(ticketId)).messages.find((m) => m.id === sent.id)).toMatchObject({
      body: "O prazo é 3 dias.",
      isEdited: true,
    });
    await eventually(() =>
      live.appMessage.some((e) => e.action === "update" && e.message.id === sent.id && e.message.isEdited),
    );
  });

  it("only the author deletes; the phone sees it deleted for everyone and GET shows it deleted", async () => {
    const { number, ticketId } = await openConversation();
    const sent = await sendText(ticketId, ana.login, { body: "Mensagem errada" });
    const wid = (await onPhone(number, sent.id)).id;

    expectError(await call("DELETE", `/messages/${sent.id}`, beto.login), 403, "ERR_NOT_MESSAGE_AUTHOR");
    expectError(await call("DELETE", `/messages/${sent.id}`, team.adminLogin), 403, "ERR_NOT_MESSAGE_AUTHOR");
    expectError(await call("DELETE", `/messages/${sent.id}`, stranger), 404, "ERR_NOT_FOUND");
    expect((await stored(sent.id)).isDeleted).toBe(false);
    expect((await phone(number)).find((m) => m.id === wid)!.isDeleted).toBe(false);

    const live = await listen(ana.login);
    const res = await call("DELETE", `/messages/${sent.id}`, ana.login);
    expect(res.statusCode, res.body).toBe(204);
    await eventually(async () => (await phone(number)).find((m) => m.id === wid)!.isDeleted);
    expect((await phone(number)).find((m) => m.id === wid)!.body).toBe("");
    expect((await page(ticketId)).messages.find((m) => m.id === sent.id)).toMatchObject({ isDeleted: true });
    await eventually(() => live.appMessage.some((e) => e.message.id === sent.id && e.message.isDeleted));
    // Deleted is final: deleting again tells WhatsApp nothing more, and it can no longer be edited.
    expect((await call("DELETE", `/messages/${sent.id}`, ana.login)).statusCode).toBe(204);
    const deletes = (await ctx.deps.db.select().from(jobs).where(eq(jobs.type, "channel-action"))).filter(
      (j) => (j.payload as { action?: string; messageId?: number }).messageId === sent.id,
    );
    expect(deletes.map((j) => (j.payload as { action: string }).action)).toEqual(["delete"]);
    expectError(
      await call("POST", `/messages/edit/${sent.id}`, ana.login, { body: "volta" }),
      403,
      "ERR_NOT_MESSAGE_AUTHOR",
    );
  });

  it("editing or deleting the ticket's last message changes the list's preview, live; an older one leaves it", async () => {
    const { ticketId } = await openConversation();
    const first = await sendText(ticketId, ana.login, { body: "Seu pedido saiu hoje." });
    const last = await sendText(ticketId, ana.login, { body: "Chega amanhã" });
    const preview = async () =>
      (await call("GET", `/tickets/${ticketId}`, ana.login)).json<TicketDTO>().lastMessage;
    expect(await preview()).toBe("Chega amanhã");
    const colleague = await listen(beto.login);
    const heard = (text: string) =>
      colleague.ticket.some(
        (e) => e.action === "update" && e.ticket.id === ticketId && e.ticket.lastMessage === text,
      );

    // An older message is not the preview: editing it changes nothing there.
    const older = await call("POST", `/messages/edit/${first.id}`, ana.login, { body: "Seu pedido saiu." });
    expect(older.statusCode, older.body).toBe(200);
    expect(await preview()).toBe("Chega amanhã");

    const edited = await call("POST", `/messages/edit/${last.id}`, ana.login, { body: "Chega amanhã cedo" });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await preview()).toBe("Chega amanhã cedo");
    await eventually(() => heard("Chega amanhã cedo"));

    // Deleted, the message before it becomes the preview: the agent's, then the customer's first one.
    expect((await call("DELETE", `/messages/${last.id}`, ana.login)).statusCode).toBe(204);
    expect(await preview()).toBe("Seu pedido saiu.");
    await eventually(() => heard("Seu pedido saiu."));
    expect((await call("DELETE", `/messages/${first.id}`, ana.login)).statusCode).toBe(204);
    expect(await preview()).toBe("Olá, preciso de ajuda");
    await eventually(() => heard("Olá, preciso de ajuda"));
  });
});

describe("POST /messages/{id}/reactions", () => {
  it("the phone sees the agent's reaction; reacting again replaces it, and an empty one removes it", async () => {
    const { number, ticketId } = await openConversation();
    const phoneId = await phoneSays(number, { id: `PH-${number}-R`, body: "Chegou o produto!" });
    const target = (await page(ticketId)).messages.find((m) => m.body === "Chegou o produto!")!;
    const count = (await page(ticketId)).count;

    const first = await call("POST", `/messages/${target.id}/reactions`, ana.login, { type: "👍" });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<MessageDTO>()).toMatchObject({
      id: target.id,
      reactions: [{ emoji: "👍", fromMe: true }],
    });
    const reactionsOnPhone = async () =>
      (await phoneOut(number))
        .filter((m) => m.kind === "reaction" && m.quotedId === phoneId)
        .map((m) => m.body);
    await eventually(async () => (await reactionsOnPhone()).join() === "👍");

    const second = await call("POST", `/messages/${target.id}/reactions`, ana.login, { type: "❤️" });
    expect(second.json<MessageDTO>().reactions).toEqual([{ emoji: "❤️", fromMe: true }]);
    await eventually(async () => (await reactionsOnPhone()).at(-1) === "❤️");
    const after = await page(ticketId);
    expect(after.messages.find((m) => m.id === target.id)!.reactions).toEqual([
      { emoji: "❤️", fromMe: true },
    ]);
    // Reactions are not messages of their own in the list.
    expect(after.count).toBe(count);
    expect(after.messages.some((m) => m.mediaType === "reactionMessage")).toBe(false);

    // The customer reacts to the agent's message and to their own: each side keeps its own reaction.
    await phoneSays(number, { reaction: { targetId: phoneId, emoji: "😂" } });
    await eventually(
      async () => (await page(ticketId)).messages.find((m) => m.id === target.id)!.reactions.length === 2,
    );
    expect((await page(ticketId)).messages.find((m) => m.id === target.id)!.reactions).toEqual([
      { emoji: "❤️", fromMe: true },
      { emoji: "😂", fromMe: false },
    ]);

    const removed = await call("POST", `/messages/${target.id}/reactions`, ana.login, { type: "" });
    expect(removed.json<MessageDTO>().reactions).toEqual([{ emoji: "😂", fromMe: false }]);
    await eventually(async () => (await reactionsOnPhone()).at(-1) === "");

    expectError(
      await call("POST", `/messages/${target.id}/reactions`, ana.login, { type: "x".repeat(17) }),
      400,
      "ERR_VALIDATION",
    );
    expectError(
      await call("POST", `/messages/${target.id}/reactions`, caio.login, { type: "👍" }),
      403,
      "ERR_TICKET_ACCESS_DENIED",
    );
    expectError(
      await call("POST", `/messages/${target.id}/reactions`, stranger, { type: "👍" }),
      404,
      "ERR_NOT_FOUND",
    );
  });
});
