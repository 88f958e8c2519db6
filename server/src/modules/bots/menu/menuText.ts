import type { ChatbotType } from "@atende/contracts";
import type { ConnectionRow, OptionRow, QueueRow } from "./queries.js";

// What the queue menu says: its menus in the company's style, and its fixed replies.

export const RATING_RETRY = "Por favor, responda apenas com 1, 2 ou 3.";

export const INVALID_OPTION = "*Opção inválida!* Responda apenas com o número de uma das opções abaixo:";

type MenuItem = { n: string; title: string };
export type MenuStyle = (items: MenuItem[]) => string;

/**
 * How a menu reads, per the company's chatBotType setting. The spec's one value is text: numbered
 * lines the customer answers with the number (WhatsApp's buttons and lists are not offered to
 * unofficial clients, so the settings page offers only what is here).
 */
const MENU_STYLES: Record<ChatbotType, MenuStyle> = {
  text: (items) => items.map((i) => `*[ ${i.n} ]* - ${i.title}`).join("\n"),
};

/** The company's menu style; a value saved before only text was kept reads as text. */
export function menuStyleOf(settings: Record<string, string>): MenuStyle {
  const type = settings.chatBotType;
  return type && type in MENU_STYLES ? MENU_STYLES[type as ChatbotType] : MENU_STYLES.text;
}

const withMenu = (head: string, menu: string) => (head.trim() ? `${head}\n\n${menu}` : menu);

export function queuesMenu(connection: ConnectionRow, list: QueueRow[], style: MenuStyle): string {
  return withMenu(
    connection.greetingMessage,
    style(list.map((q, i) => ({ n: String(i + 1), title: q.name }))),
  );
}

export function optionsMenu(
  head: string,
  options: OptionRow[],
  nested: boolean,
  severalQueues: boolean,
  style: MenuStyle,
) {
  const items = options.map((o) => ({ n: String(o.option), title: o.title }));
  if (nested) items.push({ n: "0", title: "Voltar" });
  if (nested || severalQueues) items.push({ n: "#", title: "Menu inicial" });
  return withMenu(head, style(items));
}
