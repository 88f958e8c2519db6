import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { addBrazilianNinthDigit, normalizeNumber } from "../../channels/numbers.js";

/** The DDDs where 9 + 8 digits is a valid mobile number, asked of libphonenumber once. */
const MOBILE_DDD = new Set(
  Array.from({ length: 89 }, (_, i) => String(i + 11)).filter(
    (ddd) => parsePhoneNumberFromString(`+55${ddd}912345678`)?.isValid() ?? false,
  ),
);

/**
 * A list item's number as stored: E.164 digits, Brazilian mobiles always with the ninth digit, so
 * "(11) 9999-8888", "11 99999-8888" and "+55 11 99999-8888" are one number. Local Brazilian
 * numbers (DDD + 8 or 9 digits, maybe with a trunk 0) get 55. Answers null for what cannot be a
 * phone number.
 *
 * An import checks every row with it (100,000 in a big spreadsheet): the usual number, a Brazilian
 * mobile, is recognized without libphonenumber's parse (about 8 µs a number); any other is parsed
 * once.
 */
export function normalizeListNumber(raw: string): string | null {
  let digits = raw.replace(/\D/g, "");
  const international = raw.trim().startsWith("+");
  if (!international) digits = digits.replace(/^0+/, "");
  // DDD + number without the country: Brazilian. After a "+" the country is there (+1 202 555 0123).
  if (!international && (digits.length === 10 || digits.length === 11)) digits = `55${digits}`;
  if (digits.length < 8 || digits.length > 15) return null;
  // The usual row, a Brazilian mobile (55 + DDD + 9 + 8 digits) in a DDD where libphonenumber's
  // metadata has such mobiles, needs no parse (the test compares this road with the parse).
  const mobile = /^55(\d\d)9\d{8}$/.exec(digits);
  if (mobile && MOBILE_DDD.has(mobile[1]!)) return digits;
  const withNinth = addBrazilianNinthDigit(digits);
  if (withNinth && MOBILE_DDD.has(withNinth.slice(2, 4))) return withNinth;
  const parsed = parsePhoneNumberFromString(`+${withNinth ?? digits}`);
  if (withNinth) return parsed?.isPossible() ? withNinth : null;
  if (parsed?.isValid()) return parsed.number.slice(1);
  // Typed with "+": its country is given, never read as a local number.
  if (international) return parsed?.isPossible() ? digits : null;
  // Not a valid international number: the general reading (a local Brazilian number gets 55).
  const number = normalizeNumber(digits);
  return number && parsePhoneNumberFromString(`+${number}`)?.isPossible() ? number : null;
}
