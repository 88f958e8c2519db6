import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatDTO, ChatMessageDTO } from "@atende/contracts";
import { caller, expectOk } from "../../test/calls.js";
import { type Member, buildCompany, buildMember } from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, waitFor } from "../../test/harness.js";
import { caughtUp } from "../../test/settled.js";

/**
 * The internal chat as the Whaticket SaaS front end hears it: its chat page listens on
 * `company-{id}-chat-user-{userId}` (`{action: "create" | "update", record}`) and, for the open
 * chat, on `company-{id}-chat-{chatId}` (`new-message` with `newMessage` and `chat`, `update` with
 * `chat`); its header popover reads `newMessage.chat.users[].userId` on `company-{id}-chat`. Each
 * reaches the chat's members only: never a colleague outside it, never another company.
 */

let ctx: TestContext;
let companyId: number;
let ana: Member;
let bruno: Member;
let carla: Member;
let admin: Member;
let stranger: Member;
const sockets: Socket[] = [];
const call = caller(() => ctx);

interface Heard {
  event: string;
  payload: {
    action: string;
    record?: ChatDTO;
    chat?: ChatDTO;
    newMessage?: ChatMessageDTO & { chat?: ChatDTO };
    id?: number;
  };
}

/** A member's socket, keeping every event whose name mentions a chat. */
async function listen(who: Member): Promise<{ socket: Socket; heard: Heard[] }> {
  const heard: Heard[] = [];
  const socket = await connectSocket(await ctx.url(), who.login.token, (s) =>
    s.onAny((event: string, payload: Heard["payload"]) => {
      if (event.includes("chat")) heard.push({ event, payload });
    }),
  );
  sockets.push(socket);
  return { socket, heard };
}

const named = (h: { heard: Heard[] }, event: string) => h.heard.filter((x) => x.event === event);

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  const company = await buildCompany(ctx.deps.db);
  companyId = company.id;
  ana = await buildMember(ctx, companyId, { name: "Ana Souza" });
  bruno = await buildMember(ctx, companyId, { name: "Bruno Lima" });
  carla = await buildMember(ctx, companyId, { name: "Carla Dias" });
  admin = await buildMember(ctx, companyId, { name: "Admin", profile: "admin" });
  stranger = await buildMember(ctx, (await buildCompany(ctx.deps.db)).id, { profile: "admin" });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await ctx.close();
});

describe("the internal chat as the Whaticket SaaS chat page and popover hear it", () => {
  it("a new chat on each member's chat-user channel, its messages and reads on the chat's own", async () => {
    const a = await listen(ana);
    const b = await listen(bruno);
    const c = await listen(carla);
    const outsider = await listen(admin);
    const other = await listen(stranger);
    const userEvent = (m: Member) => `company-${companyId}-chat-user-${m.id}`;

    // The family's chat dialog sends the title and the chosen users as objects.
    const chat = expectOk<ChatDTO>(
      await call("POST", "/chats", ana.login, {
        title: "Plantão",
        users: [
          { id: bruno.id, name: "Bruno Lima" },
          { id: carla.id, name: "Carla Dias" },
        ],
      }),
      201,
    );
    const members = [
      [a, ana],
      [b, bruno],
      [c, carla],
    ] as const;
    await waitFor(() => members.every(([h, m]) => named(h, userEvent(m)).length === 1));
    for (const [h, m] of members)
      expect(named(h, userEvent(m))).toEqual([
        { event: userEvent(m), payload: { action: "create", record: chat } },
      ]);
    // Each hears their own channel only.
    expect(b.heard.some((x) => x.event === userEvent(ana) || x.event === userEvent(carla))).toBe(false);

    // The page, with the chat open, sends a message and reads it on company-{id}-chat-{chatId}.
    const chatEvent = `company-${companyId}-chat-${chat.id}`;
    const sent = expectOk<ChatMessageDTO>(
      await call("POST", `/chats/${chat.id}/messages`, ana.login, { message: "chegou?" }),
      201,
    );
    await waitFor(() => named(b, chatEvent).length === 1 && named(c, chatEvent).length === 1);
    const heardMessage = named(b, chatEvent)[0]!.payload;
    expect(heardMessage).toMatchObject({ action: "new-message", newMessage: sent, chat: { id: chat.id } });
    expect(heardMessage.newMessage!.chatId).toBe(chat.id);
    // The popover: newMessage.chat.users[].userId and newMessage.senderId (sound for the others).
    const popover = named(b, `company-${companyId}-chat`).find((x) => x.payload.action === "new-message")!;
    const userIds = popover.payload.newMessage!.chat!.users.map((u) => u.userId);
    expect(userIds.sort()).toEqual([ana.id, bruno.id, carla.id].sort());
    expect(userIds.includes(bruno.id) && popover.payload.newMessage!.senderId !== bruno.id).toBe(true);
    expect(popover.payload.chat!.users.find((u) => u.userId === bruno.id)!.unreads).toBe(1);

    // Read: the chat again on its own channel (the list's unread badge).
    expectOk(await call("POST", `/chats/${chat.id}/read`, bruno.login, { userId: bruno.id }));
    await waitFor(() => named(b, chatEvent).length === 2);
    const read = named(b, chatEvent)[1]!.payload;
    expect(read).toMatchObject({ action: "update", chat: { id: chat.id } });
    expect(read.chat!.users.find((u) => u.userId === bruno.id)!.unreads).toBe(0);
    // A read mark is not a change of the chat list (that page would open the chat again).
    await caughtUp(b.socket);
    expect(named(b, userEvent(bruno))).toHaveLength(1);

    // The owner edits it (title and users, as the dialog sends them): update on the chat-user channels.
    const renamed = expectOk<ChatDTO>(
      await call("PUT", `/chats/${chat.id}`, ana.login, {
        title: "Plantão noturno",
        users: [{ id: bruno.id, name: "Bruno Lima" }],
      }),
    );
    await waitFor(() => named(b, userEvent(bruno)).length === 2);
    expect(named(b, userEvent(bruno))[1]!.payload).toEqual({ action: "update", record: renamed });
    await waitFor(() => named(c, `company-${companyId}-chat`).some((x) => x.payload.action === "delete"));

    // Carla left it: the next message reaches Ana and Bruno only.
    await call("POST", `/chats/${chat.id}/messages`, bruno.login, { message: "só nós" });
    await waitFor(() => named(a, chatEvent).length === 3);
    await Promise.all([c, outsider, other].map((h) => caughtUp(h.socket)));
    expect(named(c, chatEvent)).toHaveLength(2);
    expect(named(c, userEvent(carla))).toHaveLength(1);
    // Nobody outside the chat, nor in another company, heard any of it.
    expect(outsider.heard).toEqual([]);
    expect(other.heard).toEqual([]);
  });
});
