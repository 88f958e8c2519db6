import {
  LIMITS,
  type ListQuery,
  type PromptDTO,
  type PromptInput,
  type PromptsPage,
  type TokenUsageDTO,
} from "@atende/contracts";
import type { Deps } from "../../../deps.js";
import { inTransaction } from "../../../events/bus.js";
import type { AuthContext } from "../../../http/auth.js";
import { AppError, uniqueOr } from "../../../http/errors.js";
import type { SecretBox } from "../../../lib/secretBox.js";
import { botPolicy } from "../integrations/policy.js";
import { presentPrompt } from "./present.js";
import * as q from "./queries.js";
import { PROMPT_SECRET_PURPOSE as PURPOSE, openPromptSecrets } from "./sealing.js";

export type PromptsDeps = Pick<Deps, "db" | "bus" | "now"> & { secrets: SecretBox };

export function createPromptsService({ db, bus, now, secrets }: PromptsDeps) {
  const present = (found: q.PromptWithQueue) =>
    presentPrompt(found, openPromptSecrets(secrets, found.prompt));

  async function found(actor: AuthContext, id: number): Promise<q.PromptWithQueue> {
    const row = await q.findPrompt(db, actor.companyId, id);
    if (!row) throw new AppError("ERR_NO_PROMPT_FOUND");
    botPolicy.manage(actor);
    return row;
  }

  /** The columns from the dialog; blank keys keep the stored ones. 'Informe o setor' without a queue. */
  async function values(companyId: number, input: PromptInput, stored?: q.PromptRow) {
    if (input.queueId === null) throw new AppError("ERR_PROMPT_QUEUE_REQUIRED");
    if (!(await q.companyHasQueue(db, companyId, input.queueId))) throw new AppError("ERR_NO_QUEUE_FOUND");
    const apiKeyEnc = input.apiKey ? secrets.seal(PURPOSE.apiKey, input.apiKey) : stored?.apiKeyEnc;
    if (!apiKeyEnc) throw new AppError("ERR_PROMPT_API_KEY_REQUIRED");
    return {
      name: input.name,
      prompt: input.prompt,
      voice: input.voice,
      voiceKeyEnc: input.voiceKey
        ? secrets.seal(PURPOSE.voiceKey, input.voiceKey)
        : (stored?.voiceKeyEnc ?? null),
      voiceRegion: input.voiceRegion,
      maxTokens: input.maxTokens,
      temperature: input.temperature,
      apiKeyEnc,
      queueId: input.queueId,
      maxMessages: input.maxMessages,
      updatedAt: now(),
    };
  }

  return {
    async page(actor: AuthContext, query: ListQuery): Promise<PromptsPage> {
      const page = await q.pagePrompts(db, actor.companyId, { ...query, pageSize: LIMITS.pageSize });
      return { prompts: page.rows.map(present), count: page.count, hasMore: page.hasMore };
    },

    async get(actor: AuthContext, id: number): Promise<PromptDTO> {
      return present(await found(actor, id));
    },

    async create(actor: AuthContext, input: PromptInput): Promise<PromptDTO> {
      const fields = await values(actor.companyId, input);
      return uniqueOr("ERR_PROMPT_NAME_TAKEN", () =>
        inTransaction(db, bus, async (tx, raise) => {
          const id = await q.insertPrompt(tx, actor.companyId, { ...fields, createdAt: now() });
          const prompt = present((await q.findPrompt(tx, actor.companyId, id))!);
          raise({
            type: "prompt.changed",
            companyId: actor.companyId,
            payload: { action: "create", prompt },
          });
          return prompt;
        }),
      );
    },

    async update(actor: AuthContext, id: number, input: PromptInput): Promise<PromptDTO> {
      const fields = await values(actor.companyId, input, (await found(actor, id)).prompt);
      return uniqueOr("ERR_PROMPT_NAME_TAKEN", () =>
        inTransaction(db, bus, async (tx, raise) => {
          if (!(await q.updatePrompt(tx, actor.companyId, id, fields)))
            throw new AppError("ERR_NO_PROMPT_FOUND");
          const prompt = present((await q.findPrompt(tx, actor.companyId, id))!);
          raise({
            type: "prompt.changed",
            companyId: actor.companyId,
            payload: { action: "update", prompt },
          });
          return prompt;
        }),
      );
    },

    async remove(actor: AuthContext, id: number): Promise<void> {
      await found(actor, id);
      await inTransaction(db, bus, async (tx, raise) => {
        if (!(await q.deletePrompt(tx, actor.companyId, id))) throw new AppError("ERR_NO_PROMPT_FOUND");
        raise({
          type: "prompt.changed",
          companyId: actor.companyId,
          payload: { action: "delete", promptId: id },
        });
      });
    },

    /** The company's AI tokens: this month (UTC) and all time. */
    async usage(actor: AuthContext): Promise<TokenUsageDTO> {
      const monthStart = `${now().toISOString().slice(0, 7)}-01`;
      return q.tokenUsage(db, actor.companyId, monthStart);
    },
  };
}
export type PromptsService = ReturnType<typeof createPromptsService>;
