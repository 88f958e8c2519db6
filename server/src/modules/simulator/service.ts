import crypto from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { SimulatorPhoneMessage, SimulatorSendInput } from "@atende/contracts";
import { dbAuthStore } from "../../channels/authStore.js";
import type { ConnectionCache } from "../../channels/connectionCache.js";
import type { Inbound } from "../../channels/sink.js";
import { normalizeNumber } from "../../channels/numbers.js";
import { type ConnectionInfo, type InboundMessage, connectionInfoOf } from "../../channels/provider.js";
import { type PhoneBook, presentPhoneMessage } from "../../channels/simulator/phones.js";
import type { Db } from "../../db/client.js";
import { type AuthContext, authorize } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import type { MediaStore } from "../../storage/media.js";
import { simulatorChat, simulatorPhones } from "./queries.js";

function mediaKind(mimetype: string): InboundMessage["kind"] {
  if (mimetype.startsWith("image/")) return mimetype === "image/webp" ? "sticker" : "image";
  if (mimetype.startsWith("audio/")) return "audio";
  if (mimetype.startsWith("video/")) return "video";
  return "document";
}

function vcardName(vcard: string): string {
  return /^FN[;:](.*)$/m.exec(vcard)?.[1]?.split(":").pop()?.trim() ?? "Contato";
}

/** The simulator's phone side: a person (or a test, or a benchmark) plays the customer. */
export function createSimulatorService(deps: {
  db: Db;
  inbound: Inbound;
  phones: PhoneBook;
  media: MediaStore;
  now: () => Date;
  connections: ConnectionCache;
  log: FastifyBaseLogger;
}) {
  const { db, inbound, phones, media, now, connections, log } = deps;

  async function connection(
    actor: AuthContext,
    whatsappId: number,
    mustBeConnected = false,
  ): Promise<ConnectionInfo> {
    authorize(actor, "simulator:use");
    // Every phone message checks its connection: the cached row (a status change made here is seen at once).
    const row = await connections.get(actor.companyId, whatsappId);
    if (!row || row.provider !== "simulator") throw new AppError("ERR_NO_WAPP_FOUND");
    if (mustBeConnected && row.status !== "CONNECTED") throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    return connectionInfoOf(row);
  }

  /** The phone calls the connection: the call shows on the phone (declined if the business rejects it). */
  async function placeCall(
    conn: ConnectionInfo,
    call: { from: string; name?: string; isVideo: boolean; id?: string },
  ): Promise<{ id: string }> {
    const number = normalizeNumber(call.from);
    const id = call.id ?? `SIMCALL${crypto.randomBytes(8).toString("hex").toUpperCase()}`;
    await phones.record({
      companyId: conn.companyId,
      whatsappId: conn.id,
      number,
      direction: "in",
      providerId: id,
      body: call.isVideo ? "Chamada de vídeo" : "Chamada de voz",
      kind: "call",
      ack: 1,
      createdAt: now(),
    });
    await inbound.handle(conn, {
      type: "call",
      from: { number, isGroup: false },
      isVideo: call.isVideo,
      at: now(),
      callId: id,
    });
    // A call carries no profile name: WhatsApp tells it apart, as a contact update.
    if (call.name)
      await inbound.handle(conn, { type: "contact", address: { number, isGroup: false }, name: call.name });
    return { id };
  }

  return {
    /** POST /simulator/{whatsappId}/calls: a voice or video call from a phone. */
    async call(
      actor: AuthContext,
      whatsappId: number,
      input: { from: string; name?: string; isVideo: boolean },
    ) {
      const conn = await connection(actor, whatsappId, true);
      return placeCall(conn, input);
    },

    async phones(actor: AuthContext, whatsappId: number) {
      await connection(actor, whatsappId);
      await phones.settled(whatsappId);
      return simulatorPhones(db, actor.companyId, whatsappId);
    },

    async messages(actor: AuthContext, whatsappId: number, number: string): Promise<SimulatorPhoneMessage[]> {
      await connection(actor, whatsappId);
      await phones.settled(whatsappId);
      const rows = await simulatorChat(db, actor.companyId, whatsappId, normalizeNumber(number));
      return rows.reverse().map(presentPhoneMessage);
    },

    async scan(actor: AuthContext, whatsappId: number) {
      const conn = await connection(actor, whatsappId);
      await dbAuthStore(db, conn.companyId, conn.id).set([
        { category: "simulator", id: "paired", value: true },
      ]);
    },

    /** The phone opened the chat: what the business sent turns read. */
    async read(actor: AuthContext, whatsappId: number, number: string) {
      const conn = await connection(actor, whatsappId);
      const rows = await phones.advance(conn.id, "out", 4, { number: normalizeNumber(number) });
      for (const r of rows) await inbound.handle(conn, { type: "ack", id: r.providerId, ack: 4 });
      return rows.length;
    },

    /** A customer phone sends something to the connection. Sending the same id twice delivers it twice. */
    async send(actor: AuthContext, whatsappId: number, input: SimulatorSendInput): Promise<{ id: string }> {
      const conn = await connection(actor, whatsappId, true);
      const number = normalizeNumber(input.from);
      const chat = { number, isGroup: false };
      const id = input.id ?? `SIMIN${crypto.randomBytes(8).toString("hex").toUpperCase()}`;
      if (input.presence) {
        await inbound.handle(conn, { type: "presence", chat, presence: input.presence });
        return { id };
      }
      if (input.edit) {
        await phones.change(conn.id, input.edit.targetId, { body: input.edit.body });
        await inbound.handle(conn, { type: "edit", id: input.edit.targetId, body: input.edit.body });
        return { id: input.edit.targetId };
      }
      if (input.revoke) {
        await phones.change(conn.id, input.revoke.targetId, { isDeleted: true });
        await inbound.handle(conn, { type: "revoke", id: input.revoke.targetId });
        return { id: input.revoke.targetId };
      }
      if (input.call)
        return placeCall(conn, { from: number, name: input.name, isVideo: input.call.isVideo, id });
      const bytes = input.media ? Buffer.from(input.media.dataBase64, "base64") : null;
      const stored =
        input.media && bytes ? await media.save(conn.companyId, bytes, input.media.mimetype) : null;
      const message: InboundMessage = {
        id,
        chat,
        fromMe: false,
        pushName: input.name,
        timestamp: now(),
        kind: "text",
        body: input.body ?? "",
        quotedId: input.quotedId,
      };
      if (input.media && bytes) {
        message.kind = mediaKind(input.media.mimetype);
        message.media = {
          mimetype: input.media.mimetype,
          filename: input.media.filename,
          size: bytes.length,
          ref: { path: stored!.path },
          download: async () => bytes,
        };
      } else if (input.location) {
        const { latitude, longitude, name } = input.location;
        message.kind = "location";
        message.location = input.location;
        message.body = `https://maps.google.com/maps?q=${latitude},${longitude}${name ? `\n${name}` : ""}`;
      } else if (input.vcard) {
        message.kind = "contact";
        message.vcard = input.vcard;
        message.body = vcardName(input.vcard);
      } else if (input.reaction) {
        message.kind = "reaction";
        message.reaction = input.reaction;
        message.body = input.reaction.emoji;
      }
      const row = (ack: number) => ({
        companyId: conn.companyId,
        whatsappId: conn.id,
        number,
        direction: "in" as const,
        providerId: id,
        body: message.body,
        kind: message.kind,
        media: stored
          ? { filename: input.media!.filename, mimetype: stored.mimetype, path: stored.path }
          : null,
        quotedId: input.quotedId ?? input.reaction?.targetId ?? null,
        ack,
        // When the phone sent it, not when the business was done with it: the bot's reply, sent
        // meanwhile, is stamped later than the message it answers.
        createdAt: message.timestamp,
      });
      // The phone's book records the message once the business has it, as delivered (ack 3): one
      // write and one tick for the phone; refused by the pipeline, it stays sent (ack 1). Its place
      // in the book is taken now (recordWhen: a reply or a read tick waits for it), and the phone is
      // answered without waiting for the write, whose readers wait for it (settled). A failed write
      // loses the phone's copy only: the business has the message.
      const handled = inbound.handle(conn, { type: "message", message });
      phones
        .recordWhen(
          conn.id,
          handled.then(
            () => row(3),
            () => row(1),
          ),
        )
        .catch((err: unknown) =>
          log.error({ err, whatsappId: conn.id }, "simulator: phone book write failed"),
        );
      await handled;
      return { id };
    },
  };
}

export type SimulatorService = ReturnType<typeof createSimulatorService>;
