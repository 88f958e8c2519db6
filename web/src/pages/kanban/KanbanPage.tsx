import LocalOfferIcon from "@mui/icons-material/LocalOfferOutlined";
import RefreshIcon from "@mui/icons-material/Refresh";
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  FormControlLabel,
  IconButton,
  Skeleton,
  Stack,
  Switch,
  Tooltip,
  Typography,
} from "@mui/material";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { toastError } from "../../api/toast";
import { useSessionUser } from "../../auth/AuthContext";
import { can } from "../../auth/permissions";
import { KanbanBoard } from "./KanbanBoard";
import { LANE_WIDTH } from "./KanbanLane";
import { useKanbanBoard } from "./useKanbanBoard";

function LanesSkeleton() {
  return (
    <Stack direction="row" spacing={2} sx={{ flex: 1, minHeight: 0 }} aria-hidden>
      {Array.from({ length: 3 }, (_, i) => (
        <Skeleton
          key={i}
          variant="rounded"
          width={LANE_WIDTH}
          sx={{ height: "100%", maxHeight: 420, flexShrink: 0 }}
        />
      ))}
    </Stack>
  );
}

/** /kanban (behind PlanRoute: only companies whose plan has kanban reach it). */
export function KanbanPage() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const mayShowAll = can(user, "tickets-manager:showall");
  const [showAll, setShowAll] = useState(mayShowAll);
  const board = useKanbanBoard(showAll && mayShowAll);

  useEffect(() => {
    if (board.error) toastError(board.error);
  }, [board.error]);

  return (
    <Box
      sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2, flex: 1, minHeight: 0 }}
    >
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5} sx={{ alignItems: { sm: "center" } }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1, fontWeight: 600 }}>
          {t("kanban.title")}
        </Typography>
        {mayShowAll && (
          <FormControlLabel
            control={<Switch checked={showAll} onChange={(event) => setShowAll(event.target.checked)} />}
            label={t("kanban.showAll")}
          />
        )}
        {board.hasMore && (
          <Button
            variant="outlined"
            onClick={board.loadMore}
            disabled={board.loadingMore}
            startIcon={board.loadingMore ? <CircularProgress size={16} /> : undefined}
          >
            {t("kanban.loadMore")}
          </Button>
        )}
        <Button component={RouterLink} to="/tags" startIcon={<LocalOfferIcon />}>
          {t("kanban.manageTags")}
        </Button>
        <Tooltip title={t("kanban.refresh")}>
          <IconButton aria-label={t("kanban.refresh")} onClick={board.refresh}>
            <RefreshIcon />
          </IconButton>
        </Tooltip>
      </Stack>
      {!board.loading && !board.hasLanes && (
        <Alert
          severity="info"
          action={
            <Button component={RouterLink} to="/tags" color="inherit" size="small">
              {t("kanban.manageTags")}
            </Button>
          }
        >
          {t("kanban.noLanes")}
        </Alert>
      )}
      {board.loading ? (
        <LanesSkeleton />
      ) : (
        <KanbanBoard lanes={board.lanes} onMove={(ticket, to) => void board.move(ticket, to)} />
      )}
    </Box>
  );
}
