import type { ChannelAddress, ChannelSession } from "./provider.js";

/**
 * The one number check of the modules that check many numbers (a contact list, a campaign's
 * recipients): the session's own where it has one (Baileys: many numbers per query, paced per
 * connection, answers kept for the company), else one `checkNumber` per number (the Cloud API and
 * the simulator answer without asking WhatsApp). Answers by the given number: its address on
 * WhatsApp, or null when it has no account. `ahead`: numbers wanted next, asked in the same
 * queries when WhatsApp must be asked anyway. Throws ChannelError when WhatsApp cannot be asked.
 */
export async function checkNumbers(
  session: Pick<ChannelSession, "checkNumber" | "checkNumbers">,
  numbers: string[],
  ahead: string[] = [],
): Promise<Map<string, ChannelAddress | null>> {
  if (session.checkNumbers) return session.checkNumbers(numbers, ahead);
  const answers = new Map<string, ChannelAddress | null>();
  for (const number of numbers) answers.set(number, await session.checkNumber(number));
  return answers;
}
