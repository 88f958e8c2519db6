import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type MessageDTO } from "@atende/contracts";
import { messages } from "../../db/schema/index.js";
import { buildContact, newNumber } from "../../test/factories.js";
import { expectError } from "../../test/calls.js";
import { jobsIdle } from "../../test/settled.js";
import {
  setupMessagesSuite,
  eventually,
  ctx,
  team,
  ana,
  caio,
  stranger,
  strangerCompanyId,
  PNG,
  call,
  phoneSays,
  phoneOut,
  ticketOf,
  openConversation,
  page,
  sendText,
  onPhone,
  postForm,
  listen,
} from "./testing.js";

/**
 * Forwarding a message (POST /message/forward) to another contact, with or without a ticket, and what is
 * refused.
 */
setupMessagesSuite();

describe("POST /message/forward", () => {
  it("sends a copy to another contact's open ticket, marked forwarded, and their phone receives it", async () => {
    const from = await openConversation();
    const to = await openConversation();
    // Signed by its author: the copy carries one signature, the forwarder's, not two.
    const original = await sendText(from.ticketId, ana.login, {
      body: "Nosso endereço: Rua A, 100",
      signMessage: true,
    });
    expect(original.body).toBe("*Ana Souza:*\nNosso endereço: Rua A, 100");
    await onPhone(from.number, original.id);
    const live = await listen(ana.login);

    const res = await call("POST", "/message/forward", ana.login, {
      messageId: original.id,
      contactId: to.contactId,
      signMessage: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const copy = res.json<MessageDTO>();
    expect(copy).toMatchObject({
      ticketId: to.ticketId,
      contactId: to.contactId,
      fromMe: true,
      isForwarded: true,
      body: "*Ana Souza:*\nNosso endereço: Rua A, 100",
      userId: ana.id,
    });
    expect((await onPhone(to.number, copy.id)).body).toBe("*Ana Souza:*\nNosso endereço: Rua A, 100");
    expect((await page(to.ticketId)).messages.at(-1)).toMatchObject({ id: copy.id, isForwarded: true });
    // The first the live channel says of the copy already says it is forwarded.
    await eventually(() => live.appMessage.some((e) => e.message.id === copy.id));
    expect(live.appMessage.find((e) => e.message.id === copy.id)).toMatchObject({
      action: "create",
      message: { isForwarded: true },
      ticket: { id: to.ticketId },
    });
    // The source conversation is untouched.
    expect((await phoneOut(from.number)).map((m) => m.body)).toEqual([
      "*Ana Souza:*\nNosso endereço: Rua A, 100",
    ]);
  });

  it("forwards a file to a contact without a ticket: a new open ticket of the caller carries it", async () => {
    const from = await openConversation();
    const upload = await postForm(from.ticketId, ana.login, [
      { name: "medias", filename: "catalogo.png", type: "image/png", data: PNG },
    ]);
    const image = upload.json<MessageDTO>();
    const number = newNumber();
    const contact = await buildContact(ctx.deps.db, team.company.id, { name: "Novo Cliente", number });
    const res = await call("POST", "/message/forward", ana.login, {
      messageId: image.id,
      contactId: contact.id,
      signMessage: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    const copy = res.json<MessageDTO>();
    expect(copy).toMatchObject({
      mediaType: "image",
      mediaName: "catalogo.png",
      isForwarded: true,
      body: "",
    });
    const ticket = (await ticketOf(number))!;
    expect(ticket).toMatchObject({
      id: copy.ticketId,
      status: "open",
      userId: ana.id,
      queueId: team.queues[0]!.id,
    });
    const onTheirPhone = await onPhone(number, copy.id);
    expect(onTheirPhone).toMatchObject({ kind: "image", media: { filename: "catalogo.png" } });
    expect((await call("GET", onTheirPhone.media!.url, team.adminLogin)).rawPayload.equals(PNG)).toBe(true);
  });

  it("a file no longer kept (removed from storage) cannot be forwarded: 400 ERR_FETCH_WAPP_MSG, nothing sent", async () => {
    const from = await openConversation();
    const upload = await postForm(from.ticketId, ana.login, [
      { name: "medias", filename: "antigo.png", type: "image/png", data: PNG },
    ]);
    const image = upload.json<MessageDTO>();
    const row = (await ctx.deps.db.select().from(messages).where(eq(messages.id, image.id)))[0]!;
    fs.rmSync(path.join(ctx.deps.media.root, row.mediaPath!));
    const to = await openConversation();
    const before = (await page(to.ticketId)).messages.length;
    const res = await call("POST", "/message/forward", ana.login, {
      messageId: image.id,
      contactId: to.contactId,
    });
    expectError(res, 400, "ERR_FETCH_WAPP_MSG");
    expect(res.json()).toMatchObject({
      message: "Erro ao buscar a mensagem no WhatsApp, talvez ela seja muito antiga.",
    });
    expect((await page(to.ticketId)).messages).toHaveLength(before);
  });

  it("is refused across companies, into a conversation the caller may not see, and for a deleted message", async () => {
    const from = await openConversation();
    const original = await sendText(from.ticketId, ana.login, { body: "confidencial" });
    const foreign = await buildContact(ctx.deps.db, strangerCompanyId, { name: "De outra empresa" });
    const mine = await buildContact(ctx.deps.db, team.company.id, { name: "Meu contato" });
    const before = (await ctx.deps.db.select().from(messages)).length;

    expectError(
      await call("POST", "/message/forward", ana.login, { messageId: original.id, contactId: foreign.id }),
      404,
      "ERR_NO_CONTACT_FOUND",
    );
    expectError(
      await call("POST", "/message/forward", stranger, { messageId: original.id, contactId: mine.id }),
      404,
      "ERR_NOT_FOUND",
    );
    // Caio's queue holds the other contact's conversation: Ana may not write into it.
    const theirs = await openConversation({ agent: caio, queue: 1 });
    expectError(
      await call("POST", "/message/forward", ana.login, {
        messageId: original.id,
        contactId: theirs.contactId,
      }),
      403,
      "ERR_TICKET_ACCESS_DENIED",
    );
    // A waiting conversation is accepted before anyone writes into it.
    const waiting = newNumber();
    await phoneSays(waiting, { body: "oi?" });
    const waitingTicket = (await ticketOf(waiting))!;
    expectError(
      await call("POST", "/message/forward", team.adminLogin, {
        messageId: original.id,
        contactId: waitingTicket.contactId,
      }),
      409,
      "ERR_TICKET_NOT_OPEN",
    );
    expect((await call("DELETE", `/messages/${original.id}`, ana.login)).statusCode).toBe(204);
    expectError(
      await call("POST", "/message/forward", ana.login, { messageId: original.id, contactId: mine.id }),
      400,
      "ERR_FETCH_WAPP_MSG",
    );

    // Only the conversations the test itself opened added messages.
    expect((await ctx.deps.db.select().from(messages)).length).toBe(before + 2);
    expect(await ticketOf(mine!.number)).toBeNull();
    await jobsIdle(ctx);
    expect(await phoneOut(theirs.number)).toEqual([]);
    expect(await phoneOut(waiting)).toEqual([]);
  });
});
