import type { WAMessage } from "./lib.js";
import { describe, expect, it } from "vitest";
import type { InboundMessage } from "../provider.js";
import { described, ignored } from "./fixtures/messages.js";
import { mapUpsertedMessage } from "./mapping.js";

const noDownload = async () => Buffer.alloc(0);

function shown(msg: WAMessage): Pick<InboundMessage, "kind" | "body"> | null {
  const event = mapUpsertedMessage(msg, noDownload);
  if (event === null) return null;
  if (event.type !== "message") throw new Error(`expected a message, got ${event.type}`);
  return { kind: event.message.kind, body: event.message.body };
}

describe("Baileys kinds the inbox shows as text", () => {
  it("a poll: its question, numbered options and how many may be chosen", () => {
    expect(shown(described.poll)).toStrictEqual({
      kind: "text",
      body: "📊 Enquete: Qual horário prefere?\n1. Manhã\n2. Tarde\n(escolha uma opção)",
    });
  });

  it("an event: name, description, start, place", () => {
    expect(shown(described.event)).toStrictEqual({
      kind: "text",
      body: "📅 Evento: Inauguração da loja\nCafé e descontos\nInício: 26/11/2025 14:00 UTC\nLocal: Loja Centro, Rua A, 10",
    });
  });

  it("a product: title, description, price in its currency, link", () => {
    expect(shown(described.product)).toStrictEqual({
      kind: "text",
      body: "🛍️ Produto: Camiseta azul\nAlgodão, tamanho M\nR$\u00a059,90\nhttps://loja.example/camiseta",
    });
  });

  it("a group invite: the group's name, the caption and the invite link", () => {
    expect(shown(described.groupInvite)).toStrictEqual({
      kind: "text",
      body: "👥 Convite para o grupo: Clientes VIP\nEntre no nosso grupo\nhttps://chat.whatsapp.com/AbCdEf123",
    });
  });

  it("a kind nothing maps becomes a placeholder naming it, so the agent knows something came", () => {
    expect(shown(described.unknown)).toStrictEqual({
      kind: "text",
      body: "[mensagem não suportada: requestPaymentMessage]",
    });
  });

  it("what carries nothing to show stays out: a poll vote, key distribution, protocol messages, notices", () => {
    expect(shown(described.pollVote)).toBeNull();
    expect(shown(ignored.senderKeyOnly)).toBeNull();
    expect(shown(ignored.ephemeralSetting)).toBeNull();
    expect(shown(ignored.securityCodeChanged)).toBeNull();
  });
});
