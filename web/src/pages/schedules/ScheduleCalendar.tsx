import type { ScheduleDTO } from "@atende/contracts";
import AddIcon from "@mui/icons-material/Add";
import ChevronLeftIcon from "@mui/icons-material/ChevronLeft";
import ChevronRightIcon from "@mui/icons-material/ChevronRight";
import {
  Box,
  Button,
  ButtonBase,
  IconButton,
  LinearProgress,
  Stack,
  Tooltip,
  Typography,
} from "@mui/material";
import { alpha } from "@mui/material/styles";
import { useTranslation } from "react-i18next";
import { STATUS_COLOR } from "./scheduleStatus";
import { calendarDay, dayOf, formatTime, localeTag } from "../../i18n/format";

interface ScheduleCalendarProps {
  /** Any day of the month shown. */
  month: Date;
  onMonthChange(month: Date): void;
  schedules: ScheduleDTO[];
  loading: boolean;
  onOpen(schedule: ScheduleDTO): void;
  /** A new schedule on that day. */
  onCreateOn(day: Date): void;
}

export function monthStart(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), 1);
}

export function nextMonth(date: Date, step = 1): Date {
  return new Date(date.getFullYear(), date.getMonth() + step, 1);
}

/** The six weeks shown for a month, Sunday first, in the browser's time zone. */
function gridDays(month: Date): Date[] {
  const first = monthStart(month);
  const start = new Date(first.getFullYear(), first.getMonth(), 1 - first.getDay());
  return Array.from(
    { length: 42 },
    (_, i) => new Date(start.getFullYear(), start.getMonth(), start.getDate() + i),
  );
}

/** A month of schedules, each day listing its sends by time with their status colour. */
export function ScheduleCalendar({
  month,
  onMonthChange,
  schedules,
  loading,
  onOpen,
  onCreateOn,
}: ScheduleCalendarProps) {
  const { t, i18n } = useTranslation();
  const today = dayOf(new Date());
  const days = gridDays(month);
  // Month and weekday names in the chosen language, not the browser's.
  const locale = localeTag(i18n.language);
  const weekday = new Intl.DateTimeFormat(locale, { weekday: "short" });
  const monthName = new Intl.DateTimeFormat(locale, { month: "long", year: "numeric" }).format(month);
  const title = monthName.charAt(0).toUpperCase() + monthName.slice(1);
  const byDay = new Map<string, ScheduleDTO[]>();
  // Each schedule on its day on the company's clock, as its time shows.
  for (const schedule of [...schedules].sort((x, y) => x.sendAt.localeCompare(y.sendAt))) {
    const key = dayOf(schedule.sendAt);
    byDay.set(key, [...(byDay.get(key) ?? []), schedule]);
  }

  return (
    <Box sx={{ display: "flex", flexDirection: "column", flex: 1, minHeight: 0 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", px: 1.5, py: 1 }}>
        <Tooltip title={t("schedules.calendar.previous")}>
          <IconButton
            aria-label={t("schedules.calendar.previous")}
            onClick={() => onMonthChange(nextMonth(month, -1))}
          >
            <ChevronLeftIcon />
          </IconButton>
        </Tooltip>
        <Tooltip title={t("schedules.calendar.next")}>
          <IconButton
            aria-label={t("schedules.calendar.next")}
            onClick={() => onMonthChange(nextMonth(month))}
          >
            <ChevronRightIcon />
          </IconButton>
        </Tooltip>
        <Typography component="h2" variant="h6" sx={{ flex: 1 }} aria-live="polite">
          {title}
        </Typography>
        <Button size="small" onClick={() => onMonthChange(monthStart(new Date()))}>
          {t("schedules.calendar.today")}
        </Button>
      </Stack>
      <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
      <Box
        role="grid"
        aria-label={title}
        sx={{
          flex: 1,
          minHeight: 0,
          overflow: "auto",
          display: "grid",
          gridTemplateColumns: "repeat(7, minmax(110px, 1fr))",
          gridTemplateRows: "auto",
          gridAutoRows: "minmax(104px, 1fr)",
          borderTop: 1,
          borderColor: "divider",
        }}
      >
        {days.slice(0, 7).map((day) => (
          <Box
            key={`head-${day.getDay()}`}
            role="columnheader"
            sx={{
              py: 0.5,
              textAlign: "center",
              typography: "caption",
              color: "text.secondary",
              textTransform: "capitalize",
            }}
          >
            {weekday.format(day)}
          </Box>
        ))}
        {days.map((day) => {
          const inMonth = day.getMonth() === month.getMonth();
          const isToday = calendarDay(day) === today;
          const entries = byDay.get(calendarDay(day)) ?? [];
          return (
            <Box
              key={day.toISOString()}
              role="gridcell"
              aria-label={day.toLocaleDateString(locale, { dateStyle: "full" })}
              sx={{
                borderTop: 1,
                borderRight: 1,
                borderColor: "divider",
                p: 0.5,
                minWidth: 0,
                display: "flex",
                flexDirection: "column",
                gap: 0.25,
                bgcolor: inMonth ? "background.paper" : "action.hover",
                "&:hover .add-on-day": { opacity: 1 },
              }}
            >
              <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between" }}>
                <Typography
                  variant="caption"
                  sx={{
                    fontWeight: isToday ? 700 : 400,
                    color: isToday ? "primary.contrastText" : inMonth ? "text.primary" : "text.disabled",
                    bgcolor: isToday ? "primary.main" : "transparent",
                    borderRadius: "50%",
                    width: 22,
                    height: 22,
                    display: "inline-flex",
                    alignItems: "center",
                    justifyContent: "center",
                  }}
                >
                  {day.getDate()}
                </Typography>
                <IconButton
                  className="add-on-day"
                  size="small"
                  aria-label={`${t("schedules.add")} ${day.toLocaleDateString(locale, { dateStyle: "full" })}`}
                  onClick={() => onCreateOn(day)}
                  sx={{ opacity: 0, p: 0.25, "&:focus-visible": { opacity: 1 } }}
                >
                  <AddIcon sx={{ fontSize: 16 }} />
                </IconButton>
              </Stack>
              <Box
                sx={{
                  overflowY: "auto",
                  display: "flex",
                  flexDirection: "column",
                  gap: 0.25,
                  maxHeight: 120,
                }}
              >
                {entries.map((schedule) => {
                  const color = STATUS_COLOR[schedule.status];
                  return (
                    <ButtonBase
                      key={schedule.id}
                      onClick={() => onOpen(schedule)}
                      title={`${formatTime(schedule.sendAt)} ${schedule.contact.name}: ${schedule.body}`}
                      sx={(theme) => {
                        const main =
                          color === "default" ? theme.palette.text.secondary : theme.palette[color].main;
                        return {
                          justifyContent: "flex-start",
                          borderRadius: 1,
                          px: 0.5,
                          py: 0.25,
                          gap: 0.5,
                          typography: "caption",
                          bgcolor: alpha(main, 0.12),
                          borderLeft: 3,
                          borderColor: main,
                          textAlign: "left",
                          minWidth: 0,
                          width: "100%",
                        };
                      }}
                    >
                      <Box component="span" sx={{ fontWeight: 600, flexShrink: 0 }}>
                        {formatTime(schedule.sendAt)}
                      </Box>
                      <Box
                        component="span"
                        sx={{ overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}
                      >
                        {schedule.contact.name}
                      </Box>
                    </ButtonBase>
                  );
                })}
              </Box>
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
