import type { ScheduleDTO } from "@atende/contracts";
import AddIcon from "@mui/icons-material/Add";
import CalendarMonthIcon from "@mui/icons-material/CalendarMonthOutlined";
import SearchIcon from "@mui/icons-material/Search";
import ViewListIcon from "@mui/icons-material/ViewListOutlined";
import {
  Box,
  Button,
  InputAdornment,
  Paper,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  deleteSchedule,
  fetchSchedulesBetween,
  fetchSchedulesPage,
  removeScheduleFromLists,
  scheduleKeys,
} from "../../api/schedules";
import { useSchedulesLive } from "../../api/schedulesLive";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { useConfirmDelete } from "../../hooks/useConfirmDelete";
import { useSearchableList } from "../../hooks/useSearchableList";
import { monthStart, nextMonth, ScheduleCalendar } from "./ScheduleCalendar";
import { ScheduleDialog } from "./ScheduleDialog";
import { SchedulesTable } from "./SchedulesTable";

const VIEW_KEY = "schedules-view";

type View = "list" | "calendar";
/** The dialog: a schedule to edit or see, a new one (maybe on a calendar day), or closed. */
type Editing = { schedule: ScheduleDTO | null; day?: Date } | null;

function storedView(): View {
  try {
    return localStorage.getItem(VIEW_KEY) === "calendar" ? "calendar" : "list";
  } catch {
    return "list";
  }
}

/** /schedules (behind PlanRoute: only companies whose plan has schedules reach it). */
export function SchedulesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [view, setView] = useState<View>(storedView);
  const [month, setMonth] = useState(() => monthStart(new Date()));
  const [editing, setEditing] = useState<Editing>(null);

  const list = useSearchableList({
    queryKey: scheduleKeys.list,
    fetchPage: fetchSchedulesPage,
    itemsOf: (page) => page.schedules,
    enabled: view === "list",
  });

  const monthQuery = useQuery({
    queryKey: scheduleKeys.month(month.toISOString()),
    queryFn: ({ signal }) => fetchSchedulesBetween(month, nextMonth(month), signal),
    enabled: view === "calendar",
    placeholderData: (previous) => previous,
  });

  useSchedulesLive();

  function changeView(next: View | null) {
    if (!next) return;
    setView(next);
    try {
      localStorage.setItem(VIEW_KEY, next);
    } catch {
      // no storage: the choice lasts while the page does
    }
  }

  const removal = useConfirmDelete<ScheduleDTO>(async (item) => {
    await deleteSchedule(item.id);
    removeScheduleFromLists(queryClient, item.id);
  }, t("schedules.deleted"));

  return (
    <Box
      sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2, flex: 1, minHeight: 0 }}
    >
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5} sx={{ alignItems: { sm: "center" } }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1, fontWeight: 600 }}>
          {t("schedules.title")}
          {view === "list" && list.count !== undefined && (
            <Typography component="span" color="text.secondary" sx={{ ml: 1, fontSize: "1rem" }}>
              ({list.count})
            </Typography>
          )}
        </Typography>
        {view === "list" && (
          <TextField
            size="small"
            placeholder={t("schedules.search")}
            value={list.searchText}
            onChange={(event) => list.setSearchText(event.target.value)}
            slotProps={{
              htmlInput: { "aria-label": t("schedules.search") },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
        )}
        <ToggleButtonGroup
          size="small"
          exclusive
          value={view}
          onChange={(_, next: View | null) => changeView(next)}
        >
          <ToggleButton value="list" aria-label={t("schedules.view.list")}>
            <Tooltip title={t("schedules.view.list")}>
              <ViewListIcon fontSize="small" />
            </Tooltip>
          </ToggleButton>
          <ToggleButton value="calendar" aria-label={t("schedules.view.calendar")}>
            <Tooltip title={t("schedules.view.calendar")}>
              <CalendarMonthIcon fontSize="small" />
            </Tooltip>
          </ToggleButton>
        </ToggleButtonGroup>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ schedule: null })}>
          {t("schedules.add")}
        </Button>
      </Stack>
      <Paper
        variant="outlined"
        sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column", overflow: "hidden" }}
      >
        {view === "list" ? (
          <SchedulesTable
            list={list}
            onOpen={(schedule) => setEditing({ schedule })}
            onDelete={removal.ask}
          />
        ) : (
          <ScheduleCalendar
            month={month}
            onMonthChange={setMonth}
            schedules={monthQuery.data ?? []}
            loading={monthQuery.isFetching}
            onOpen={(schedule) => setEditing({ schedule })}
            onCreateOn={(day) => setEditing({ schedule: null, day })}
          />
        )}
      </Paper>
      {editing && (
        <ScheduleDialog schedule={editing.schedule} day={editing.day} onClose={() => setEditing(null)} />
      )}
      <ConfirmationDialog
        {...removal.dialog}
        title={t("schedules.deleteTitle", { name: removal.deleting?.contact.name ?? "" })}
        message={t("schedules.deleteConfirm")}
      />
    </Box>
  );
}
