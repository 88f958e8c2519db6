import {
  ASSIST_LIMITS,
  type AssistAnswerDTO,
  type AssistRephraseInput,
  type AssistStatusDTO,
  type AssistStyle,
  type Lang,
} from "@atende/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../config.js";
import type { Deps } from "../../deps.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import type { Outbound } from "../../lib/outbound.js";
import type { SecretBox } from "../../lib/secretBox.js";
import { recordTokenUsage } from "../bots/prompts/queries.js";
import { openPromptSecrets } from "../bots/prompts/sealing.js";
import { chatQuickMessages } from "../quickMessages/queries.js";
import { findTicketRow } from "../tickets/queries.js";
import type { TicketRow, TicketsService } from "../tickets/service.js";
import { type AssistCompletion, complete } from "./provider.js";
import * as q from "./queries.js";

export type AssistDeps = Pick<Deps, "db" | "now"> & {
  config: Pick<Config, "OPENAI_BASE_URL" | "OPENAI_MODEL" | "AI_ASSIST_TIMEOUT_MS">;
  outbound: Outbound;
  secrets: SecretBox;
  log: FastifyBaseLogger;
  tickets: Pick<TicketsService, "visibleTicket">;
};

/** The prompt that answers for a ticket: its settings, its key opened, and whether its text is the ticket's queue's. */
interface ChosenPrompt {
  id: number;
  apiKey: string;
  maxTokens: number;
  temperature: number;
  /** The prompt's text, only when the prompt is the ticket queue's own (never another queue's). */
  instructions: string | null;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const LANGUAGE: Record<Lang, string> = { pt: "português do Brasil", en: "inglês", es: "espanhol" };

const SUGGEST_SYSTEM =
  "Você ajuda um atendente humano de uma empresa a responder um cliente pelo WhatsApp. Escreva apenas " +
  "a próxima mensagem do atendente para o cliente: cordial, curta, no idioma do cliente, sem inventar " +
  "fatos, preços, prazos ou promessas que não estejam na conversa ou nas instruções. Responda só com o " +
  "texto da mensagem, sem rótulos, aspas ou explicações.";

const REPHRASE_SYSTEM: Record<AssistStyle, string> = {
  friendlier:
    "Reescreva a mensagem que um atendente vai enviar a um cliente de forma mais cordial e acolhedora, " +
    "mantendo o sentido, as informações e o idioma.",
  shorter:
    "Reescreva a mensagem que um atendente vai enviar a um cliente de forma mais curta e direta, " +
    "mantendo o sentido, as informações essenciais e o idioma.",
  grammar:
    "Corrija a ortografia, a gramática e a pontuação da mensagem que um atendente vai enviar a um " +
    "cliente, sem mudar o sentido, o tom nem o idioma.",
};
const REPHRASE_TAIL = " Responda só com a mensagem reescrita, sem aspas nem explicações.";

const summarySystem = (lang: Lang) =>
  "Resuma a conversa de atendimento abaixo numa observação interna para quem continuar o atendimento: " +
  "o que o cliente quer, o que já foi feito ou combinado e o que falta fazer. Poucas linhas objetivas, " +
  `em ${LANGUAGE[lang]}, sem inventar nada que não esteja na conversa.`;

/** Each kind's floor of answer tokens: the prompt's maxTokens (100 by default) is for a bot's short replies. */
const MIN_TOKENS = { suggest: 300, rephrase: 300, summary: 600 } as const;

export function createAssistService(deps: AssistDeps) {
  const { db, now, secrets, tickets } = deps;

  /** A ticket of the caller's company the caller may see, as its messages are: 404 another company's, 403 outside their queues. */
  async function visibleTicket(actor: AuthContext, ticketId: number): Promise<TicketRow> {
    return tickets.visibleTicket(actor, await findTicketRow(db, actor.companyId, ticketId));
  }

  const keyOf = (row: q.AssistPromptRow) => openPromptSecrets(secrets, row).apiKey;

  /**
   * Which prompt's provider answers for the ticket: the ticket's queue's bot prompt, else a prompt
   * whose queue is the ticket's, else the company's first prompt with a readable key. Only a prompt
   * of the ticket's own queue lends its text: another queue's instructions never go into a request.
   */
  async function promptFor(companyId: number, queueId: number | null): Promise<ChosenPrompt> {
    const all = (await q.companyPrompts(db, companyId)).filter((row) => keyOf(row));
    const bot = queueId === null ? null : await q.queueBotPrompt(db, companyId, queueId);
    const own =
      (bot && all.find((row) => row.id === bot.id)) ??
      (queueId === null ? undefined : all.find((row) => row.queueId === queueId));
    const row = own ?? all[0];
    if (!row) throw new AppError("ERR_ASSIST_NO_PROMPT");
    return {
      id: row.id,
      apiKey: keyOf(row)!,
      maxTokens: row.maxTokens,
      temperature: row.temperature,
      instructions: own ? clip(row.prompt.trim(), ASSIST_LIMITS.promptChars) : null,
    };
  }

  /** This ticket's last messages as a transcript, oldest first, each clipped. */
  async function transcript(companyId: number, ticketId: number): Promise<string[]> {
    const lines = await q.lastTicketMessages(db, companyId, ticketId, ASSIST_LIMITS.messages);
    return lines
      .map((m) => {
        const body = m.body.trim() || (m.mediaType !== "chat" ? `[${m.mediaType}]` : "");
        return body ? `${m.fromMe ? "Atendente" : "Cliente"}: ${clip(body, ASSIST_LIMITS.messageChars)}` : "";
      })
      .filter(Boolean);
  }

  /** Asks the provider; counts the tokens it billed on the prompt and the company's day. */
  async function ask(companyId: number, prompt: ChosenPrompt, completion: AssistCompletion): Promise<string> {
    const { text, usage } = await complete(deps, prompt.apiKey, completion);
    // What the provider billed counts, even for an answer without text.
    if (text || usage.totalTokens > 0)
      await recordTokenUsage(db, companyId, prompt.id, usage, now().toISOString().slice(0, 10));
    if (!text) throw new AppError("ERR_ASSIST_PROVIDER_FAILED");
    return text;
  }

  return {
    /** Whether the composer offers AI help: the company has a prompt whose key opens. */
    async status(actor: AuthContext): Promise<AssistStatusDTO> {
      const all = await q.companyPrompts(db, actor.companyId);
      return { available: all.some((row) => keyOf(row)) };
    },

    /**
     * A reply for the agent to edit, from this ticket's last messages, the agent's quick messages
     * (their own and the company's shared ones, as the '/' list shows them) and the queue prompt's text.
     */
    async suggest(actor: AuthContext, ticketId: number): Promise<AssistAnswerDTO> {
      const ticket = await visibleTicket(actor, ticketId);
      const prompt = await promptFor(actor.companyId, ticket.queueId);
      const lines = await transcript(actor.companyId, ticket.id);
      const quick = (await chatQuickMessages(db, actor.companyId, actor.userId))
        .slice(0, ASSIST_LIMITS.quickMessages)
        .map((m) => `- /${m.shortcode}: ${clip(m.message.trim(), ASSIST_LIMITS.quickMessageChars)}`);
      let system = SUGGEST_SYSTEM;
      if (prompt.instructions) system += `\n\nInstruções da empresa para este setor:\n${prompt.instructions}`;
      if (quick.length)
        system += `\n\nRespostas prontas da empresa (use ou adapte se couberem):\n${quick.join("\n")}`;
      const text = await ask(actor.companyId, prompt, {
        system,
        user: lines.length
          ? `Conversa (da mais antiga para a mais recente):\n${lines.join("\n")}`
          : "A conversa ainda não tem mensagens: sugira uma saudação de abertura.",
        maxTokens: Math.max(prompt.maxTokens, MIN_TOKENS.suggest),
        temperature: prompt.temperature,
      });
      return { text };
    },

    /** What the agent typed, friendlier, shorter or corrected; nothing of the conversation is sent. */
    async rephrase(
      actor: AuthContext,
      ticketId: number,
      input: AssistRephraseInput,
    ): Promise<AssistAnswerDTO> {
      const ticket = await visibleTicket(actor, ticketId);
      const prompt = await promptFor(actor.companyId, ticket.queueId);
      const text = await ask(actor.companyId, prompt, {
        system: REPHRASE_SYSTEM[input.style] + REPHRASE_TAIL,
        user: input.text,
        maxTokens: Math.max(prompt.maxTokens, MIN_TOKENS.rephrase, Math.ceil(input.text.length / 2)),
        temperature: Math.min(prompt.temperature, 0.3),
      });
      return { text };
    },

    /** A note on the conversation for whoever takes it next, in the agent's language; not saved here. */
    async summarize(actor: AuthContext, ticketId: number, lang: Lang): Promise<AssistAnswerDTO> {
      const ticket = await visibleTicket(actor, ticketId);
      const prompt = await promptFor(actor.companyId, ticket.queueId);
      const lines = await transcript(actor.companyId, ticket.id);
      if (lines.length === 0) throw new AppError("ERR_ASSIST_EMPTY_CONVERSATION");
      const text = await ask(actor.companyId, prompt, {
        system: summarySystem(lang),
        user: `Conversa (da mais antiga para a mais recente):\n${lines.join("\n")}`,
        maxTokens: Math.max(prompt.maxTokens, MIN_TOKENS.summary),
        temperature: Math.min(prompt.temperature, 0.3),
      });
      return { text: clip(text, ASSIST_LIMITS.summaryChars) };
    },
  };
}
export type AssistService = ReturnType<typeof createAssistService>;
