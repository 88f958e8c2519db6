import { advanceDueDate, addMonthsToDate, dueDateTone, trialDaysLeft } from "@atende/contracts";
import { describe, expect, it } from "vitest";

describe("the Empresas tab's due dates (contracts/companyDue)", () => {
  it("'Vencimento' moves the due date by the recurrence: 1, 2, 3, 6 or 12 months", () => {
    expect(advanceDueDate("2026-03-10", "MENSAL", "2026-01-01")).toBe("2026-04-10");
    expect(advanceDueDate("2026-03-10", "BIMESTRAL", "2026-01-01")).toBe("2026-05-10");
    expect(advanceDueDate("2026-03-10", "TRIMESTRAL", "2026-01-01")).toBe("2026-06-10");
    expect(advanceDueDate("2026-03-10", "SEMESTRAL", "2026-01-01")).toBe("2026-09-10");
    expect(advanceDueDate("2026-03-10", "ANUAL", "2026-01-01")).toBe("2027-03-10");
    // Across the year's end.
    expect(advanceDueDate("2026-11-15", "TRIMESTRAL", "2026-01-01")).toBe("2027-02-15");
  });

  it("keeps a month-end date inside the target month (Jan 31 + 1 month is Feb 28, or 29 in a leap year)", () => {
    expect(advanceDueDate("2026-01-31", "MENSAL", "2026-01-01")).toBe("2026-02-28");
    expect(advanceDueDate("2028-01-31", "MENSAL", "2026-01-01")).toBe("2028-02-29");
    expect(advanceDueDate("2026-08-31", "BIMESTRAL", "2026-01-01")).toBe("2026-10-31");
    expect(advanceDueDate("2026-03-31", "MENSAL", "2026-01-01")).toBe("2026-04-30");
    expect(advanceDueDate("2028-02-29", "ANUAL", "2026-01-01")).toBe("2029-02-28");
    expect(addMonthsToDate("2026-12-31", 2)).toBe("2027-02-28");
  });

  it("starts from today without a due date, and reads a timestamp by its date; an unknown recurrence is monthly", () => {
    expect(advanceDueDate(null, "ANUAL", "2026-11-25")).toBe("2027-11-25");
    expect(advanceDueDate("2026-05-20T00:00:00.000Z", "MENSAL", "2026-01-01")).toBe("2026-06-20");
    expect(advanceDueDate("2026-05-20", "QUINZENAL", "2026-01-01")).toBe("2026-06-20");
  });

  it("colours a row red on or after its due date, yellow 1 to 5 days before, not otherwise", () => {
    const today = "2026-11-25";
    expect(dueDateTone("2026-11-20", today)).toBe("overdue");
    expect(dueDateTone("2026-11-25", today)).toBe("overdue");
    expect(dueDateTone("2026-11-26", today)).toBe("soon");
    expect(dueDateTone("2026-11-30", today)).toBe("soon");
    expect(dueDateTone("2026-12-01", today)).toBeNull();
    expect(dueDateTone(null, today)).toBeNull();
    expect(dueDateTone("", today)).toBeNull();
  });

  it("counts the trial's days after today up to its last day (in the company's zone); none once it ended or without one", () => {
    // 22:30 UTC on the 25th is still the 25th in São Paulo (19:30).
    const now = new Date("2026-11-25T22:30:00Z");
    expect(trialDaysLeft("2026-11-28", now)).toBe(3);
    expect(trialDaysLeft("2026-11-25", now)).toBe(0);
    expect(trialDaysLeft("2026-11-24", now)).toBeNull();
    expect(trialDaysLeft("2026-11-28", now, "UTC")).toBe(3);
    expect(trialDaysLeft("2026-11-28", new Date("2026-11-26T02:30:00Z"))).toBe(3);
    expect(trialDaysLeft("2026-11-28", new Date("2026-11-26T02:30:00Z"), "UTC")).toBe(2);
    // A timestamp: whole days, rounded up.
    expect(trialDaysLeft("2026-11-26T00:00:00Z", now)).toBe(1);
    expect(trialDaysLeft("2026-11-25T11:00:00Z", now)).toBeNull();
    expect(trialDaysLeft(null, now)).toBeNull();
    expect(trialDaysLeft(undefined, now)).toBeNull();
    expect(trialDaysLeft("not a date", now)).toBeNull();
  });
});
