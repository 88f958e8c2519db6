import { parsePhoneNumberFromString } from "libphonenumber-js/max";

/**
 * One person is one contact: every number is stored as E.164 digits without "+". Brazilian mobile
 * numbers are stored with the ninth digit, whether WhatsApp reported them with it or without
 * (old accounts still use 8-digit jids: 55 DD 8XXXXXXX).
 */
export function normalizeNumber(raw: string, defaultCountry: "BR" = "BR"): string {
  // Every inbound message normalizes its sender: libphonenumber's parse is remembered per number.
  const known = normalized.get(raw);
  if (known !== undefined) return known;
  const number = normalize(raw, defaultCountry);
  if (raw.length > 40) return number;
  if (normalized.size >= NORMALIZED_MAX) normalized.delete(normalized.keys().next().value!);
  normalized.set(raw, number);
  return number;
}

const normalized = new Map<string, string>();
const NORMALIZED_MAX = 10_000;

function normalize(raw: string, defaultCountry: "BR"): string {
  const digits = raw.replace(/\D/g, "");
  if (!digits) return "";
  const withNinth = addBrazilianNinthDigit(digits);
  if (withNinth) return withNinth;
  const international = parsePhoneNumberFromString(`+${digits}`);
  if (international?.isValid()) return international.number.replace("+", "");
  // No country code typed: a valid Brazilian number (DDD + number) gets 55.
  const local = parsePhoneNumberFromString(digits, defaultCountry);
  if (local?.isValid()) {
    const e164 = local.number.replace("+", "");
    return addBrazilianNinthDigit(e164) ?? e164;
  }
  return digits;
}

/** 55 + DDD + 8-digit mobile (starting 6-9) → with the ninth digit; else null. */
export function addBrazilianNinthDigit(digits: string): string | null {
  const m = /^55(\d{2})([6-9]\d{7})$/.exec(digits);
  return m ? `55${m[1]}9${m[2]}` : null;
}

/** The forms WhatsApp may use for a stored number: Brazilian mobiles also without the ninth digit. */
export function numberVariants(normalized: string): string[] {
  const m = /^55(\d{2})9([6-9]\d{7})$/.exec(normalized);
  return m ? [normalized, `55${m[1]}${m[2]}`] : [normalized];
}
