import { mayManageChat } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import { findCompany } from "../companies/queries.js";
import type { ChatRow } from "./present.js";

export const chatPolicy = {
  /**
   * A chat exists for its members only: anyone else (of the company or not) is told it does not
   * exist (404), the same answer for reading, posting and marking read.
   */
  member(chat: ChatRow | null, members: number[], actor: Pick<AuthContext, "userId">): ChatRow {
    if (!chat || !members.includes(actor.userId)) throw new AppError("ERR_NO_CHAT_FOUND");
    return chat;
  },
  /** Only the owner edits or deletes a chat (the rule in contracts). */
  manage(chat: ChatRow, actor: Pick<AuthContext, "userId">): void {
    if (!mayManageChat(chat, actor.userId)) throw new AppError("ERR_CHAT_OWNER_ONLY");
  },
};

/** The internal chat needs the plan flag useInternalChat. */
export async function requireChatPlan(db: Executor, companyId: number): Promise<void> {
  const company = await findCompany(db, companyId);
  if (!company?.plan?.useInternalChat) throw new AppError("ERR_PLAN_FEATURE_DISABLED");
}
