import { trialDaysLeft } from "@atende/contracts";

/**
 * The trial days a company has left, or null when it is not on trial. A sign-up's trial ends on
 * its `trialExpiration`, which is also its first due date: while the two agree the company is on
 * trial. Once a payment moved the due date (or the super user set another), the due date rules:
 * the company is subscribed, or due on that date, whatever days the trial had left.
 */
export function trialDaysOf(
  company: { dueDate: string | null; trialExpiration: string | null | undefined },
  now: Date,
  timeZone?: string,
): number | null {
  const { dueDate, trialExpiration } = company;
  if (!trialExpiration) return null;
  if (dueDate && dueDate.slice(0, 10) !== trialExpiration.slice(0, 10)) return null;
  return trialDaysLeft(trialExpiration, now, timeZone);
}
