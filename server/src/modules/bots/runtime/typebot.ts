import { type BotAdapter, type BotAction, BotError, type BotOutcome, type BotReply } from "./contract.js";
import { postJson } from "./http.js";
import { markdownToWhatsapp } from "./markdown.js";
import type { IntegrationConfig } from "./bindings.js";

/** What Typebot's chat API answers (startChat and continueChat), the parts read here. */
interface TypebotAnswer {
  sessionId?: string;
  messages?: { type: string; content?: Record<string, unknown> }[];
  input?: { type: string; items?: { id?: string; content?: string }[] } | null;
}

/**
 * The command bubble of this product family: a text bubble `#{"queueId":1,"userId":2,"stopBot":true}`
 * (values may be strings) transfers the ticket, or stops the bot, instead of being sent.
 */
export function commandOf(text: string): BotAction | null {
  const trimmed = text.trim().replace(/\\([{}"_])/g, "$1");
  if (!trimmed.startsWith("#{")) return null;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(trimmed.slice(1)) as Record<string, unknown>;
  } catch {
    return null;
  }
  const id = (v: unknown) => (v === undefined || v === null || v === "" ? null : Number(v) || null);
  const queueId = id(parsed.queueId);
  const userId = id(parsed.userId);
  if (queueId !== null || userId !== null) return { type: "transfer", queueId, userId };
  if (parsed.stopBot === true || parsed.stopBot === "true") return { type: "end" };
  return null;
}

/** Typebot's rich text (when a server ignores the markdown format), as plain text. */
function richTextToPlain(nodes: unknown): string {
  if (!Array.isArray(nodes)) return "";
  return nodes
    .map((n: { text?: string; children?: unknown; type?: string }) =>
      typeof n.text === "string" ? n.text : richTextToPlain(n.children) + (n.type === "p" ? "\n" : ""),
    )
    .join("")
    .trim();
}

export function readTypebotAnswer(answer: TypebotAnswer): BotOutcome {
  const replies: BotReply[] = [];
  let action: BotAction | undefined;
  for (const m of answer.messages ?? []) {
    const c = m.content ?? {};
    const url = typeof c.url === "string" ? c.url : undefined;
    switch (m.type) {
      case "text": {
        const text =
          typeof c.markdown === "string" ? markdownToWhatsapp(c.markdown) : richTextToPlain(c.richText);
        const command = commandOf(typeof c.markdown === "string" ? c.markdown : text);
        if (command) action = command;
        else if (text.trim()) replies.push({ type: "text", text });
        break;
      }
      case "image":
      case "audio":
      case "video":
        if (url) replies.push({ type: m.type, url });
        break;
      case "embed":
      case "file":
        if (url) replies.push({ type: "file", url });
        break;
    }
  }
  const input = answer.input;
  if (input?.type === "choice input" && input.items?.length)
    replies.push({ type: "choices", text: "", options: input.items.map((i) => i.content ?? "") });
  // No question left and no command: the flow is over, people take the ticket.
  if (!action && !input) action = { type: "end" };
  return { replies, action, externalId: answer.sessionId };
}

/**
 * Typebot's chat API: `POST {url}/api/v1/typebots/{slug}/startChat` opens a session with the
 * contact's details as prefilled variables; the customer's real words go to
 * `POST {url}/api/v1/sessions/{sessionId}/continueChat`. Text bubbles come as markdown. A private
 * bot's token rides as `Authorization: Bearer`.
 */
export const typebotAdapter: BotAdapter<IntegrationConfig> = {
  takesMedia: false,
  async turn(config, input, ctx) {
    const base = config.urlN8N.replace(/\/+$/, "");
    if (!base || !config.typebotSlug) throw new BotError("the Typebot integration has no URL or slug");
    const headers: Record<string, string> = config.typebotToken
      ? { authorization: `Bearer ${config.typebotToken}` }
      : {};
    const signal = ctx.signal;
    const continueChat = async (sessionId: string, text: string) =>
      readTypebotAnswer({
        sessionId,
        ...(await postJson<TypebotAnswer>(
          ctx.outbound,
          `${base}/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`,
          { message: { type: "text", text }, textBubbleContentFormat: "markdown" },
          { signal, headers },
        )),
      });

    if (!input.start && ctx.externalId) return continueChat(ctx.externalId, input.text);

    const started = await postJson<TypebotAnswer>(
      ctx.outbound,
      `${base}/api/v1/typebots/${encodeURIComponent(config.typebotSlug)}/startChat`,
      {
        isStreamEnabled: false,
        textBubbleContentFormat: "markdown",
        prefilledVariables: {
          number: ctx.contact.number,
          pushName: ctx.contact.name,
          ticketId: ctx.ticket.id,
          queueId: ctx.ticket.queueId,
          connection: ctx.connection.name,
        },
      },
      { signal, headers },
    );
    if (!started.sessionId) throw new BotError("Typebot's startChat answered no sessionId");
    // A flow that opens with a question (no bubble before it) takes the customer's first words as
    // its answer; any other flow greets, and the words that woke it are not an answer to anything.
    if (input.text.trim() && !started.messages?.length && started.input)
      return continueChat(started.sessionId, input.text);
    return readTypebotAnswer(started);
  },
};
