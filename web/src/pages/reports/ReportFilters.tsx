import SearchIcon from "@mui/icons-material/Search";
import { Autocomplete, Box, InputAdornment, MenuItem, Stack, TextField } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useQueueList } from "../../api/queues";
import { fetchUserOptions, ticketKeys } from "../../api/tickets";
import { PeriodFields, type FilterForm } from "../../components/PeriodFields";
import type { ReportStatus } from "./reportsApi";

const STATUSES: ReportStatus[] = ["pending", "open", "closed"];

/** What the filter controls hold (the contact text is debounced by the page). */
export interface ReportFilterForm {
  period: FilterForm;
  queueIds: number[];
  userId: number | null;
  status: ReportStatus | null;
  search: string;
}

interface ReportFiltersProps {
  value: ReportFilterForm;
  onChange(value: ReportFilterForm): void;
}

/** Period or date range, queues (several), agent, status and the contact's name or number. */
export function ReportFilters({ value, onChange }: ReportFiltersProps) {
  const { t } = useTranslation();
  const queues = useQueueList();
  const users = useQuery({
    queryKey: ticketKeys.userOptions(),
    queryFn: ({ signal }) => fetchUserOptions(signal),
    staleTime: 60_000,
  });
  const queueOptions = queues.data ?? [];
  const selectedQueues = queueOptions.filter((queue) => value.queueIds.includes(queue.id));

  return (
    <Stack direction="row" useFlexGap spacing={1.5} sx={{ flexWrap: "wrap", alignItems: "flex-start" }}>
      <PeriodFields value={value.period} onChange={(period) => onChange({ ...value, period })} />
      <Autocomplete
        multiple
        size="small"
        options={queueOptions}
        value={selectedQueues}
        getOptionLabel={(queue) => queue.name}
        isOptionEqualToValue={(option, selected) => option.id === selected.id}
        onChange={(_, picked) => onChange({ ...value, queueIds: picked.map((queue) => queue.id) })}
        renderOption={({ key, ...props }, queue) => (
          <li key={key} {...props}>
            <Box
              component="span"
              aria-hidden
              sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: queue.color, mr: 1, flexShrink: 0 }}
            />
            {queue.name}
          </li>
        )}
        renderInput={(params) => <TextField {...params} label={t("reports.filters.queues")} />}
        sx={{ minWidth: 200, flex: "1 1 200px", maxWidth: 360 }}
      />
      <TextField
        select
        size="small"
        label={t("reports.filters.user")}
        value={value.userId ?? ""}
        onChange={(event) =>
          onChange({ ...value, userId: event.target.value === "" ? null : Number(event.target.value) })
        }
        sx={{ minWidth: 180 }}
        slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
      >
        <MenuItem value="">{t("reports.filters.anyUser")}</MenuItem>
        {(users.data ?? []).map((user) => (
          <MenuItem key={user.id} value={user.id}>
            {user.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t("reports.filters.status")}
        value={value.status ?? ""}
        onChange={(event) =>
          onChange({
            ...value,
            status: event.target.value === "" ? null : (event.target.value as ReportStatus),
          })
        }
        sx={{ minWidth: 170 }}
        slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
      >
        <MenuItem value="">{t("reports.filters.anyStatus")}</MenuItem>
        {STATUSES.map((status) => (
          <MenuItem key={status} value={status}>
            {t(`reports.status.${status}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        size="small"
        type="search"
        label={t("reports.filters.contact")}
        placeholder={t("reports.filters.contactPlaceholder")}
        value={value.search}
        onChange={(event) => onChange({ ...value, search: event.target.value })}
        sx={{ minWidth: 200, flex: "1 1 200px", maxWidth: 300 }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
    </Stack>
  );
}
