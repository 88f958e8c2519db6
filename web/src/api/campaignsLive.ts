import { CAMPAIGN, type CampaignDTO, type CampaignEventPayload } from "@atende/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useCompanySuffixEvent } from "./SocketProvider";
import {
  applyReportProgress,
  campaignKeys,
  removeCampaignFromLists,
  setReportCampaign,
  upsertCampaignInLists,
} from "./campaigns";

/** Keeps the campaign lists current while mounted: campaigns made, changed (status) or deleted. */
export function useCampaignsLive(): void {
  const queryClient = useQueryClient();
  useCompanySuffixEvent<CampaignEventPayload>("campaign", (payload) => {
    if (payload.action === "delete") removeCampaignFromLists(queryClient, payload.id);
    else if (payload.action !== "progress") upsertCampaignInLists(queryClient, payload.record);
  });
}

/**
 * Keeps one campaign's report live while mounted: each recipient's new state and the totals as the
 * sender goes, the campaign's status; when FINALIZADA arrives, the report is read again 5 s later
 * (the spec), once every last ack has had time to land. `onFinished` is told at once.
 */
export function useCampaignReportLive(campaignId: number, onFinished: (record: CampaignDTO) => void): void {
  const queryClient = useQueryClient();
  const reload = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(reload.current), []);
  useCompanySuffixEvent<CampaignEventPayload>("campaign", (payload) => {
    if (payload.action === "progress") {
      if (payload.campaignId === campaignId)
        applyReportProgress(queryClient, campaignId, payload.totals, payload.shipping);
      return;
    }
    if (payload.action === "delete" || payload.record.id !== campaignId) return;
    setReportCampaign(queryClient, payload.record);
    if (payload.record.status !== "FINALIZADA") return;
    onFinished(payload.record);
    window.clearTimeout(reload.current);
    reload.current = window.setTimeout(() => {
      void queryClient.invalidateQueries({ queryKey: campaignKeys.reports(campaignId) });
    }, CAMPAIGN.reportReloadMs);
  });
}
