import { DEFAULT_SCHEDULES, type ScheduleEntry, scheduleWeek } from "@atende/contracts";
import { describe, expect, it } from "vitest";
import { type WorkingCalendar, addWorkingMinutes, calendarOf, workingSecondsBetween } from "./workingTime.js";

// The defaults: Mon-Fri 08:00-18:00, Sat 08:00-12:00, Sun closed.
const saoPaulo: WorkingCalendar = { week: scheduleWeek(DEFAULT_SCHEDULES), timeZone: "America/Sao_Paulo" };
const newYork: WorkingCalendar = { week: scheduleWeek(DEFAULT_SCHEDULES), timeZone: "America/New_York" };
const at = (iso: string) => new Date(iso);
const due = (from: string, minutes: number, cal: WorkingCalendar) =>
  addWorkingMinutes(at(from), minutes, cal).toISOString();

describe("working time (service levels' calendar)", () => {
  it("counts within opening hours in São Paulo (UTC-3, no DST)", () => {
    // Wednesday 2026-12-02 10:00 local = 13:00Z: 30 minutes later, same day.
    expect(due("2026-12-02T13:00:00Z", 30, saoPaulo)).toBe("2026-12-02T13:30:00.000Z");
    // 17:30 local + 60 min: 30 min today, 30 min from Thursday's 08:00.
    expect(due("2026-12-02T20:30:00Z", 60, saoPaulo)).toBe("2026-12-03T11:30:00.000Z");
    // Started at night (22:00 local): counting starts at the next opening.
    expect(due("2026-12-03T01:00:00Z", 15, saoPaulo)).toBe("2026-12-03T11:15:00.000Z");
  });

  it("ends exactly at the close when the target fills the day", () => {
    // Wednesday 08:00 local + 600 min = 18:00 local, not Thursday 08:00.
    expect(due("2026-12-02T11:00:00Z", 600, saoPaulo)).toBe("2026-12-02T21:00:00.000Z");
    // One minute more: Thursday 08:01.
    expect(due("2026-12-02T11:00:00Z", 601, saoPaulo)).toBe("2026-12-03T11:01:00.000Z");
  });

  it("spans a weekend: Saturday's morning counts, Sunday is closed", () => {
    // Friday 2026-12-04 17:00 local + 360 min: 60 Fri, 240 Sat (08-12), 60 Mon → Monday 09:00.
    expect(due("2026-12-04T20:00:00Z", 360, saoPaulo)).toBe("2026-12-07T12:00:00.000Z");
    expect(workingSecondsBetween(at("2026-12-04T20:00:00Z"), at("2026-12-07T12:00:00Z"), saoPaulo)).toBe(
      360 * 60,
    );
  });

  it("skips a day closed in the queue's own hours", () => {
    const week: ScheduleEntry[] = scheduleWeek(DEFAULT_SCHEDULES).map((d) =>
      d.weekdayEn === "thursday" ? { ...d, startTime: "00:00", endTime: "00:00" } : d,
    );
    const cal: WorkingCalendar = { week, timeZone: "America/Sao_Paulo" };
    // Wednesday 17:00 local + 120 min: 60 Wed, Thursday closed, 60 Friday → Friday 09:00.
    expect(due("2026-12-02T20:00:00Z", 120, cal)).toBe("2026-12-04T12:00:00.000Z");
    expect(workingSecondsBetween(at("2026-12-02T20:00:00Z"), at("2026-12-04T12:00:00Z"), cal)).toBe(7200);
  });

  it("follows a DST change (New York, 2026-03-08)", () => {
    // Friday 2026-03-06 17:00 EST (22:00Z) + 300 min: 60 Fri, 240 Sat, Sunday closed (the change),
    // 0 left → Saturday 12:00 EST = 17:00Z.
    expect(due("2026-03-06T22:00:00Z", 300, newYork)).toBe("2026-03-07T17:00:00.000Z");
    // + 360 min: Monday 09:00 EDT (UTC-4) = 13:00Z, not 14:00Z.
    expect(due("2026-03-06T22:00:00Z", 360, newYork)).toBe("2026-03-09T13:00:00.000Z");
    expect(workingSecondsBetween(at("2026-03-06T22:00:00Z"), at("2026-03-09T13:00:00Z"), newYork)).toBe(
      360 * 60,
    );
  });

  it("measures only the open time between two instants", () => {
    // Wednesday 17:00 local to Thursday 09:00 local: 60 + 60 minutes.
    expect(workingSecondsBetween(at("2026-12-02T20:00:00Z"), at("2026-12-03T12:00:00Z"), saoPaulo)).toBe(
      7200,
    );
    // Both at night: nothing.
    expect(workingSecondsBetween(at("2026-12-03T01:00:00Z"), at("2026-12-03T02:00:00Z"), saoPaulo)).toBe(0);
    expect(workingSecondsBetween(at("2026-12-03T02:00:00Z"), at("2026-12-03T01:00:00Z"), saoPaulo)).toBe(0);
  });

  it("counts round the clock without opening hours", () => {
    expect(due("2026-12-05T23:00:00Z", 90, null)).toBe("2026-12-06T00:30:00.000Z");
    expect(workingSecondsBetween(at("2026-12-05T23:00:00Z"), at("2026-12-06T00:30:00Z"), null)).toBe(5400);
  });

  it("picks the hours from the company's scheduleType", () => {
    const queue = scheduleWeek(DEFAULT_SCHEDULES);
    const company = scheduleWeek(undefined).map((d) => ({ ...d, startTime: "09:00" }));
    expect(calendarOf("queue", { queue, company }, "America/Sao_Paulo")?.week[0]?.startTime).toBe("08:00");
    expect(calendarOf("company", { queue, company }, "America/Sao_Paulo")?.week[0]?.startTime).toBe("09:00");
    expect(calendarOf("disabled", { queue, company }, "America/Sao_Paulo")).toBeNull();
    expect(calendarOf(undefined, { queue, company }, "America/Sao_Paulo")).toBeNull();
    // No open minute in the whole week: round the clock rather than never.
    const shut = queue.map((d) => ({ ...d, startTime: "00:00", endTime: "00:00" }));
    expect(calendarOf("queue", { queue: shut, company }, "America/Sao_Paulo")).toBeNull();
  });
});
