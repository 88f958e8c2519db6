import type { CampaignSettingsValues, CampaignVariable, CloudTemplateSend } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import type { Raise } from "../../events/bus.js";
import { queueOutbound } from "../messages/outbound.js";
import { onlyTemplateMayGo } from "../cloudTemplates/window.js";
import type { CampaignRow } from "./present.js";
import * as q from "./queries.js";
import { renderFor } from "./variables.js";

/**
 * A campaign on a Cloud API connection and the 24-hour window (the composer's own rule,
 * cloudTemplates/window.ts): a recipient who has not written on the connection in the last 24 hours
 * can be reached only by an approved template. With one on the campaign it goes instead of the
 * message; without, the recipient is skipped with ERR_CAMPAIGN_OUTSIDE_WINDOW, never counted sent
 * (Meta would refuse the message with 131047 after we counted it).
 */
export async function outsideCloudWindow(
  tx: Executor,
  companyId: number,
  contactId: number,
  whatsappId: number,
  at: Date,
): Promise<boolean> {
  const connection = await q.connectionOf(tx, companyId, whatsappId);
  return onlyTemplateMayGo(tx, companyId, contactId, connection, at);
}

/** The campaign's template for one recipient: its values and its text with {nome}, {numero}… filled. */
export function templateFor(
  template: NonNullable<CampaignRow["template"]>,
  person: { name: string; number: string; email: string },
  variables: CampaignVariable[],
): { send: CloudTemplateSend; text: string } {
  const fill = (values: string[] | undefined) => values?.map((v) => renderFor(v, person, variables));
  const { text, ...send } = template;
  return {
    send: {
      ...send,
      ...(send.header ? { header: fill(send.header) } : {}),
      ...(send.body ? { body: fill(send.body) } : {}),
      ...(send.buttons
        ? { buttons: send.buttons.map((b) => ({ ...b, value: renderFor(b.value, person, variables) })) }
        : {}),
    },
    text: renderFor(text, person, variables),
  };
}

/** Queues the campaign's template for one recipient in their ticket; answers the message and its text. */
export async function queueCampaignTemplate(
  tx: Executor,
  raise: Raise,
  c: CampaignRow,
  ticketId: number,
  person: { name: string; number: string; email: string },
  settings: Pick<CampaignSettingsValues, "variables">,
  at: Date,
): Promise<{ messageId: number; text: string }> {
  const { send, text } = templateFor(c.template!, person, settings.variables);
  const messageId = await queueOutbound(tx, raise, {
    companyId: c.companyId,
    ticketId,
    body: text,
    template: send,
    isBot: true,
    at,
  });
  return { messageId, text };
}
