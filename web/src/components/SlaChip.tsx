import { slaStateAt, type SlaState, type SlaTarget, type TicketSlaDTO } from "@atende/contracts";
import { styled, type Theme } from "@mui/material/styles";
import type { TFunction } from "i18next";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { dayOf, formatDate, formatTime } from "../i18n/format";
import { visuallyHidden } from "./visuallyHidden";

const MINUTE = 60_000;

/** A span of time as the chip words it: "< 1 min", "12 min", "2 h 5 min", "3 d 4 h". */
export function slaDuration(ms: number, t: TFunction, round: "up" | "down"): string {
  const minutes = round === "up" ? Math.ceil(ms / MINUTE) : Math.floor(ms / MINUTE);
  if (minutes < 1) return t("sla.duration.lessThanMinute");
  if (minutes < 60) return t("sla.duration.minutes", { m: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) {
    const m = minutes % 60;
    return m ? t("sla.duration.hoursMinutes", { h: hours, m }) : t("sla.duration.hours", { h: hours });
  }
  const days = Math.floor(hours / 24);
  const h = hours % 24;
  return h ? t("sla.duration.daysHours", { d: days, h }) : t("sla.duration.days", { d: days });
}

/** A due time: the time alone today (on the company's clock), else the date and time. */
function when(iso: string, now: number): string {
  return dayOf(iso) === dayOf(new Date(now)) ? formatTime(iso) : `${formatDate(iso)} ${formatTime(iso)}`;
}

export interface SlaView {
  state: SlaState;
  /** What the chip shows. */
  text: string;
  /** What it means, for the tooltip and screen readers: which target and its due time. */
  label: string;
}

/** The target a breached ticket missed, and when it was due. */
function missed(sla: TicketSlaDTO, now: number): { target: SlaTarget; due: string | null; running: boolean } {
  if (sla.running && sla.dueAt && Date.parse(sla.dueAt) <= now)
    return { target: sla.running, due: sla.dueAt, running: true };
  const firstLate =
    sla.firstResponseBreachedAt !== null ||
    (sla.firstResponseAt !== null &&
      sla.firstResponseDueAt !== null &&
      sla.firstResponseAt > sla.firstResponseDueAt);
  return firstLate
    ? { target: "firstResponse", due: sla.firstResponseDueAt, running: false }
    : { target: "resolution", due: sla.resolutionDueAt, running: false };
}

/** The chip's state, text and label at `now` (contracts' slaStateAt); null when there is nothing to show. */
export function slaView(sla: TicketSlaDTO | null | undefined, now: number, t: TFunction): SlaView | null {
  const state = slaStateAt(sla, new Date(now));
  if (!sla || !state) return null;
  switch (state) {
    case "ok":
    case "warning": {
      const due = sla.dueAt!;
      const time = slaDuration(Date.parse(due) - now, t, "up");
      const target = t(`sla.targets.${sla.running!}`);
      return { state, text: time, label: t(`sla.label.${state}`, { target, time, due: when(due, now) }) };
    }
    case "breached": {
      const { target, due, running } = missed(sla, now);
      const name = t(`sla.targets.${target}`);
      const dueText = due ? when(due, now) : "";
      if (running && due) {
        const time = slaDuration(now - Date.parse(due), t, "down");
        return {
          state,
          text: t("sla.chip.breachedFor", { time }),
          label: t("sla.label.breachedFor", { target: name, time, due: dueText }),
        };
      }
      return {
        state,
        text: t("sla.chip.breached"),
        label: t("sla.label.breached", { target: name, due: dueText }),
      };
    }
    case "paused":
      return {
        state,
        text: t("sla.chip.paused"),
        label: t("sla.label.paused", { since: when(sla.pausedAt!, now) }),
      };
    case "met":
      return { state, text: t("sla.chip.met"), label: t("sla.label.met") };
  }
}

/**
 * The chip's colours by state, at AA contrast (4.5:1 or more) on either theme: the time left in
 * the page's secondary text, warning amber, breached red, paused grey, met green.
 */
export function slaChipCss(theme: Theme) {
  const dark = theme.palette.mode === "dark";
  return {
    ...theme.typography.caption,
    display: "inline-flex",
    alignItems: "center",
    flexShrink: 0,
    padding: theme.spacing(0, 0.75),
    borderRadius: 9,
    border: "1px solid transparent",
    fontSize: 11,
    fontWeight: 600,
    lineHeight: "16px",
    whiteSpace: "nowrap",
    fontVariantNumeric: "tabular-nums",
    '&[data-sla="ok"]': { color: theme.palette.text.secondary, borderColor: theme.palette.divider },
    '&[data-sla="warning"]': dark
      ? { color: "#ffcc80", backgroundColor: "#3d2a00", borderColor: "#8a5a00" }
      : { color: "#7a3e00", backgroundColor: "#fff3e0", borderColor: "#f0b260" },
    '&[data-sla="breached"]': dark
      ? { color: "#1b1b1b", backgroundColor: "#f28b82" }
      : { color: "#ffffff", backgroundColor: "#c62828" },
    '&[data-sla="paused"]': dark
      ? { color: "#cfd8dc", backgroundColor: "#37474f" }
      : { color: "#37474f", backgroundColor: "#eceff1" },
    '&[data-sla="met"]': dark
      ? { color: "#a5d6a7", borderColor: "#2e7d32" }
      : { color: "#1b5e20", backgroundColor: "#e8f5e9" },
  } as const;
}

const Standalone = styled("span")(({ theme }) => ({
  ...slaChipCss(theme),
  position: "relative",
  "& .sla-chip-sr": visuallyHidden,
}));

interface SlaChipProps {
  sla: TicketSlaDTO | null | undefined;
  /** The page's shared clock (useClock): every chip on screen moves on the same tick. */
  now: number;
  /**
   * Inside a ticket list (TicketRows styles `.sla-chip` once for all rows): a plain element, as the
   * rows are; elsewhere the chip brings its own styles.
   */
  plain?: boolean;
}

/**
 * A ticket's service-level chip: the time left on the running target, "warning" in amber past the
 * queue's threshold, "late by" in red, "paused" in grey while waiting on the customer; nothing on a
 * ticket whose queue has no target. The tooltip (title) and screen readers get the target and its
 * due time.
 */
export const SlaChip = memo(function SlaChip({ sla, now, plain = false }: SlaChipProps) {
  const { t } = useTranslation();
  const view = slaView(sla, now, t);
  if (!view) return null;
  const content = (
    <>
      <span aria-hidden>{view.text}</span>
      <span className="sla-chip-sr">{view.label}</span>
    </>
  );
  const props = { "data-sla": view.state, "data-testid": "sla-chip", title: view.label };
  return plain ? (
    <span className="sla-chip" {...props}>
      {content}
    </span>
  ) : (
    <Standalone className="sla-chip" {...props}>
      {content}
    </Standalone>
  );
});
