import fc from "fast-check";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { describe, expect, it } from "vitest";
import { normalizeNumber } from "../../channels/numbers.js";
import { normalizeListNumber } from "./numbers.js";

/**
 * The list's number rule written the plain way (the general normalization, then a possible-number
 * check): normalizeListNumber takes a shorter road for speed (an import checks 100,000 rows) and
 * must land on the same number.
 */
function reference(raw: string): string | null {
  let digits = raw.replace(/\D/g, "");
  const international = raw.trim().startsWith("+");
  if (!international) digits = digits.replace(/^0+/, "");
  // DDD + number without the country: Brazilian. After a "+" the country is there (+1 202 555 0123).
  if (!international && (digits.length === 10 || digits.length === 11)) digits = `55${digits}`;
  if (digits.length < 8 || digits.length > 15) return null;
  // After a "+" the number is never read as a local Brazilian one.
  const valid = parsePhoneNumberFromString(`+${digits}`)?.isValid();
  const number =
    international && !valid && !/^55\d{2}[6-9]\d{7}$/.test(digits) ? digits : normalizeNumber(digits);
  if (!number) return null;
  return parsePhoneNumberFromString(`+${number}`)?.isPossible() ? number : null;
}

describe("a contact list's numbers", () => {
  it("stores Brazilian mobiles with the ninth digit, however they are written", () => {
    for (const raw of [
      "(11) 9999-8888",
      "11 99999-8888",
      "+55 11 99999-8888",
      "5511999998888",
      "011 99999-8888",
    ])
      expect(normalizeListNumber(raw)).toBe("5511999998888");
    expect(normalizeListNumber("11 8888-0002")).toBe("5511988880002");
    expect(normalizeListNumber("(21) 3333-4444")).toBe("552133334444");
    expect(normalizeListNumber("+1 202 555 0123")).toBe("12025550123");
  });

  it("refuses what cannot be a phone number", () => {
    for (const raw of ["", "12ab", "1234567", "+999 1234 5678", "1234567890123456"])
      expect(normalizeListNumber(raw)).toBeNull();
  });

  it("agrees with the general normalization on any number as people type them", () => {
    const digits = (min: number, max: number) =>
      fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((d) => d.join(""));
    const typed = fc.oneof(
      // Brazilian: DDD + 8 or 9 digits, with or without 55, a trunk 0, spaces, dashes, brackets.
      fc
        .tuple(
          fc.constantFrom("", "55", "+55 ", "0", "+55 0"),
          fc.integer({ min: 11, max: 99 }),
          digits(8, 9),
          fc.constantFrom("", " ", "-"),
        )
        .map(([prefix, ddd, rest, sep]) => `${prefix}(${ddd}) ${rest.slice(0, 4)}${sep}${rest.slice(4)}`),
      // Anything else: a country code or none, 6 to 16 digits.
      fc.tuple(fc.constantFrom("", "+", "00"), digits(6, 16)).map(([p, d]) => p + d),
    );
    fc.assert(
      fc.property(typed, (raw) => {
        expect(normalizeListNumber(raw)).toBe(reference(raw));
      }),
      { numRuns: 20000 },
    );
  });
});
