import type { CampaignDTO } from "@atende/contracts";
import SettingsIcon from "@mui/icons-material/TuneOutlined";
import { Button } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router-dom";
import {
  campaignKeys,
  cancelCampaign,
  deleteCampaign,
  fetchCampaignsPage,
  removeCampaignFromLists,
  restartCampaign,
  upsertCampaignInLists,
} from "../../api/campaigns";
import { useCampaignsLive } from "../../api/campaignsLive";
import { toast, toastError } from "../../api/toast";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { ListPage } from "../../components/ListPage";
import { useConfirmDelete } from "../../hooks/useConfirmDelete";
import { useSearchableList } from "../../hooks/useSearchableList";
import { CampaignDialog } from "./CampaignDialog";
import { CampaignsTable } from "./CampaignsTable";

/** Which campaign the dialog shows: null creates one; undefined means the dialog is closed. */
type Editing = CampaignDTO | null | undefined;

/** /campaigns: search, the list (live), add, edit or view, cancel, restart, delete, the report. */
export function CampaignsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [editing, setEditing] = useState<Editing>(undefined);
  const [busyId, setBusyId] = useState<number | null>(null);
  const list = useSearchableList({
    queryKey: campaignKeys.list,
    fetchPage: fetchCampaignsPage,
    itemsOf: (page) => page.records,
  });
  useCampaignsLive();

  const removal = useConfirmDelete<CampaignDTO>(async (item) => {
    await deleteCampaign(item.id);
    removeCampaignFromLists(queryClient, item.id);
  }, t("campaigns.deleted"));

  /** Cancel or restart: the answer (or the live event) shows the new status; a refusal is a toast. */
  async function transition(
    record: CampaignDTO,
    call: (id: number) => Promise<CampaignDTO | undefined>,
    done: string,
  ) {
    setBusyId(record.id);
    try {
      const updated = await call(record.id);
      if (updated && typeof updated === "object" && "id" in updated)
        upsertCampaignInLists(queryClient, updated);
      toast(done, "success");
    } catch (error) {
      toastError(error);
    } finally {
      setBusyId(null);
    }
  }

  return (
    <ListPage
      title={t("campaigns.title")}
      count={list.count}
      searchLabel={t("campaigns.search")}
      searchText={list.searchText}
      onSearchChange={list.setSearchText}
      addLabel={t("campaigns.add")}
      onAdd={() => setEditing(null)}
      extraActions={
        <Button component={RouterLink} to="/campaigns-config" startIcon={<SettingsIcon />}>
          {t("campaigns.settingsLink")}
        </Button>
      }
      dialogs={
        <>
          {editing !== undefined && (
            <CampaignDialog campaign={editing} onClose={() => setEditing(undefined)} />
          )}
          <ConfirmationDialog
            {...removal.dialog}
            title={t("campaigns.deleteTitle", { name: removal.deleting?.name ?? "" })}
            message={t("campaigns.deleteConfirm")}
          />
        </>
      }
    >
      <CampaignsTable
        list={list}
        busyId={busyId}
        onEdit={setEditing}
        onDelete={removal.ask}
        onCancel={(record) => void transition(record, cancelCampaign, t("campaigns.cancelled"))}
        onRestart={(record) => void transition(record, restartCampaign, t("campaigns.restarted"))}
        onReport={(record) => void navigate(`/campaign/${record.id}/report`)}
      />
    </ListPage>
  );
}
