import type { SimulatorPhoneMessage } from "@atende/contracts";
import { phoneDigits } from "../../api/simulator";

export interface ConversationItem {
  message: SimulatorPhoneMessage;
  quoted: SimulatorPhoneMessage | undefined;
  reactions: { emoji: string; own: boolean }[];
}

const isReaction = (message: SimulatorPhoneMessage) => message.kind === "reaction";

/**
 * The messages as bubbles: reactions are not bubbles of their own but sit under the message they
 * target (its quotedId); each side keeps its latest reaction, an empty emoji removes it.
 */
export function conversationItems(messages: SimulatorPhoneMessage[]): ConversationItem[] {
  const byId = new Map(messages.map((message) => [message.id, message]));
  const reactions = new Map<string, Map<"in" | "out", string>>();
  for (const message of messages) {
    if (!isReaction(message) || !message.quotedId || !byId.has(message.quotedId)) continue;
    const sides = reactions.get(message.quotedId) ?? new Map<"in" | "out", string>();
    sides.set(message.direction, message.isDeleted ? "" : message.body);
    reactions.set(message.quotedId, sides);
  }
  return messages
    .filter((message) => !isReaction(message) || !message.quotedId || !byId.has(message.quotedId))
    .map((message) => ({
      message,
      quoted: message.quotedId && !isReaction(message) ? byId.get(message.quotedId) : undefined,
      reactions: [...(reactions.get(message.id) ?? new Map<"in" | "out", string>())]
        .filter(([, emoji]) => emoji !== "")
        .map(([side, emoji]) => ({ emoji, own: side === "in" })),
    }));
}

export function isValidPhone(digits: string): boolean {
  return digits.length >= 8 && digits.length <= 15;
}

/** A contact card for WhatsApp (vCard 3.0). */
export function buildVcard(name: string, number: string): string {
  const digits = phoneDigits(number);
  const clean = name.replace(/[\r\n;]/g, " ").trim();
  return [
    "BEGIN:VCARD",
    "VERSION:3.0",
    `N:;${clean};;;`,
    `FN:${clean}`,
    `TEL;type=CELL;type=VOICE;waid=${digits}:+${digits}`,
    "END:VCARD",
  ].join("\n");
}

/** A file's content as base64 (without the data-URL prefix). */
export function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const result = String(reader.result ?? "");
      resolve(result.slice(result.indexOf(",") + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error("read failed"));
    reader.readAsDataURL(file);
  });
}
