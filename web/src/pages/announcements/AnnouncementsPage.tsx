import type { AnnouncementAdminDTO } from "@atende/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import {
  announcementKeys,
  applyToMyAnnouncements,
  deleteAnnouncement,
  fetchAnnouncementsPage,
  removeAnnouncementFromLists,
} from "../../api/announcements";
import { toast } from "../../api/toast";
import { useSessionUser } from "../../auth/AuthContext";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { FullPageLoader } from "../../components/FullPageLoader";
import { ListPage } from "../../components/ListPage";
import { useConfirmDelete } from "../../hooks/useConfirmDelete";
import { useSearchableList } from "../../hooks/useSearchableList";
import { AnnouncementDialog } from "./AnnouncementDialog";
import { AnnouncementsTable } from "./AnnouncementsTable";

const REDIRECT_MS = 1_000;

/** /announcements, for the super user; anyone else hears why and goes to / after a second. */
export function AnnouncementsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const allowed = useSessionUser().super;

  useEffect(() => {
    if (allowed) return;
    toast(t("announcements.superOnly"), "error");
    const timer = window.setTimeout(() => void navigate("/", { replace: true }), REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [allowed, navigate, t]);

  return allowed ? <Announcements /> : <FullPageLoader />;
}

/** Which announcement the dialog edits: null creates one; undefined means the dialog is closed. */
type Editing = AnnouncementAdminDTO | null | undefined;

function Announcements() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(undefined);
  const list = useSearchableList({
    queryKey: announcementKeys.list,
    fetchPage: fetchAnnouncementsPage,
    itemsOf: (page) => page.records as AnnouncementAdminDTO[],
  });

  const removal = useConfirmDelete<AnnouncementAdminDTO>(async (item) => {
    await deleteAnnouncement(item.id);
    removeAnnouncementFromLists(queryClient, item.id);
    applyToMyAnnouncements(queryClient, { action: "delete", id: item.id });
  }, t("announcements.deleted"));

  return (
    <ListPage
      title={t("announcements.title")}
      count={list.count}
      searchLabel={t("announcements.search")}
      searchText={list.searchText}
      onSearchChange={list.setSearchText}
      addLabel={t("announcements.add")}
      onAdd={() => setEditing(null)}
      dialogs={
        <>
          {editing !== undefined && (
            <AnnouncementDialog announcement={editing} onClose={() => setEditing(undefined)} />
          )}
          <ConfirmationDialog
            {...removal.dialog}
            title={t("announcements.deleteTitle", { name: removal.deleting?.title ?? "" })}
            message={t("announcements.deleteConfirm")}
          />
        </>
      }
    >
      <AnnouncementsTable list={list} onEdit={setEditing} onDelete={removal.ask} />
    </ListPage>
  );
}
