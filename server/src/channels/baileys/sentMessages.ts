import { proto, type WAMessage, type WAMessageKey } from "./lib.js";
import { type AuthStore, SENT_MESSAGES } from "../provider.js";
import type { BaileysLogger } from "./logger.js";

interface KeptMessage {
  jid: string;
  /** The WAProto Message, encoded, in base64. */
  message: string;
}

/**
 * What the session sent, kept in the database by message id. A phone that could not decrypt one of
 * our messages asks for it again (a retry receipt); Baileys answers from `getMessage`, which reads
 * it here, so the answer survives Baileys' few minutes of memory, a restart and a lease move to
 * another instance. Without it the customer's phone shows "Waiting for this message".
 */
export class SentMessages {
  constructor(
    private readonly store: AuthStore,
    private readonly logger: BaileysLogger,
  ) {}

  /** Keeps a message the socket just sent. A failure is logged: the message did go. */
  async keep(sent: WAMessage | undefined): Promise<void> {
    const id = sent?.key.id;
    if (!sent?.message || !id) return;
    const value: KeptMessage = {
      jid: sent.key.remoteJid ?? "",
      message: Buffer.from(proto.Message.encode(sent.message).finish()).toString("base64"),
    };
    try {
      await this.store.set([{ category: SENT_MESSAGES, id, value }]);
    } catch (err) {
      this.logger.warn({ err, id }, "baileys: could not keep a sent message for resend requests");
    }
  }

  /** Baileys' `getMessage`: the message we sent with this key's id, as WAProto. */
  readonly find = async (key: WAMessageKey): Promise<proto.IMessage | undefined> => {
    if (!key.id) return undefined;
    const kept = (await this.store.get(SENT_MESSAGES, [key.id]))[key.id] as KeptMessage | undefined;
    if (!kept?.message) return undefined;
    return proto.Message.decode(Buffer.from(kept.message, "base64"));
  };
}
