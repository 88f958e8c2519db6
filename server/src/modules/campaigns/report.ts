import {
  type CampaignReportDTO,
  type CampaignReportQuery,
  LIMITS,
  errorMessage,
  isErrorCode,
  type Lang,
} from "@atende/contracts";
import type { Db } from "../../db/client.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import { toCsv } from "../contacts/csv.js";
import { campaignPolicy } from "./policy.js";
import * as q from "./queries.js";
import * as s from "./shippings/queries.js";

/** The report (/campaign/{id}/report): totals, the recipients page by page, and the whole as CSV. */
export function createCampaignReport({ db }: { db: Db }) {
  async function campaignOf(actor: AuthContext, id: number) {
    const campaign = await q.findCampaign(db, actor.companyId, id);
    if (!campaign) throw new AppError("ERR_CAMPAIGN_NOT_FOUND");
    campaignPolicy.manage(actor);
    return campaign;
  }

  /** "ERR_X: details" → the code's text in the caller's language, then the details. */
  function reasonText(error: string | null, lang: Lang): string {
    if (!error) return "";
    const [code, ...rest] = error.split(": ");
    const text = code && isErrorCode(code) ? errorMessage(code, lang) : code!;
    return rest.length ? `${text}: ${rest.join(": ")}` : text;
  }

  return {
    async report(actor: AuthContext, id: number, query: CampaignReportQuery): Promise<CampaignReportDTO> {
      const campaign = await campaignOf(actor, id);
      const pageSize = LIMITS.pageSize * 2;
      const [totals, records, count] = [
        await s.campaignTotals(db, actor.companyId, id),
        await s.listShippings(db, actor.companyId, id, {
          state: query.state,
          searchParam: query.searchParam,
          limit: pageSize,
          offset: (query.pageNumber - 1) * pageSize,
        }),
        await s.countShippings(db, actor.companyId, id, query.state, query.searchParam),
      ];
      return { campaign, totals, records, count, hasMore: query.pageNumber * pageSize < count };
    },

    async csv(actor: AuthContext, id: number, lang: Lang): Promise<{ name: string; body: string }> {
      const campaign = await campaignOf(actor, id);
      const rows = await s.listShippings(db, actor.companyId, id, { limit: null, offset: 0 });
      const header = [
        "nome",
        "numero",
        "email",
        "estado",
        "variante",
        "confirmacao_pedida_em",
        "confirmado_em",
        "enviado_em",
        "ack",
        "motivo",
      ];
      const body = toCsv([
        header,
        ...rows.map((r) => [
          r.name,
          r.number,
          r.email,
          r.state,
          r.variant ? String(r.variant) : "",
          r.confirmationRequestedAt ?? "",
          r.confirmedAt ?? "",
          r.deliveredAt ?? "",
          r.ack === null ? "" : String(r.ack),
          reasonText(r.error, lang),
        ]),
      ]);
      const slug = campaign.name
        .normalize("NFD")
        .replace(/[^\w-]+/g, "_")
        .slice(0, 40);
      return { name: `campanha-${campaign.id}-${slug}.csv`, body };
    },
  };
}

export type CampaignReport = ReturnType<typeof createCampaignReport>;
