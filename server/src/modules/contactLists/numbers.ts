import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { normalizeNumber } from "../../channels/numbers.js";

/**
 * A list item's number as stored: E.164 digits, Brazilian mobiles always with the ninth digit, so
 * "(11) 9999-8888", "11 99999-8888" and "+55 11 99999-8888" are one number. Local Brazilian
 * numbers (DDD + 8 or 9 digits, maybe with a trunk 0) get 55. Answers null for what cannot be a
 * phone number.
 */
export function normalizeListNumber(raw: string): string | null {
  let digits = raw.replace(/\D/g, "");
  if (!raw.trim().startsWith("+")) digits = digits.replace(/^0+/, "");
  if (digits.length === 10 || digits.length === 11) digits = `55${digits}`;
  if (digits.length < 8 || digits.length > 15) return null;
  const number = normalizeNumber(digits);
  if (!number) return null;
  const parsed = parsePhoneNumberFromString(`+${number}`);
  return parsed?.isPossible() ? number : null;
}
