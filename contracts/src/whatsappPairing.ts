import { z } from "zod";

/**
 * POST /whatsappsession/{id}/pairing-code: pairs a phone by an 8-character code typed on it
 * (WhatsApp → Linked devices → Link with phone number) instead of scanning the QR code. The number
 * is the phone's own, with country and area code; only its digits count ("+55 (11) 98765-4321").
 * It is used as typed, with no ninth digit added: WhatsApp pairs the number as it knows it.
 */
export const pairingCodeRequestSchema = z.object({
  number: z.preprocess(
    (v) => (typeof v === "string" ? v.replace(/\D/g, "") : v),
    z
      .string({ error: "validation.required" })
      .min(1, { error: "validation.required", abort: true })
      .regex(/^[1-9]\d{9,14}$/, "validation.phoneWithCountry"),
  ),
});

export type PairingCodeRequest = z.input<typeof pairingCodeRequestSchema>;

/** The code as WhatsApp gives it: 8 letters and digits, shown as "ABCD-EFGH". */
export const pairingCodeSchema = z.object({ code: z.string() }).meta({
  id: "PairingCode",
  description: "The 8-character code that pairs a connection's phone, to type on it (shown as ABCD-EFGH)",
});

export type PairingCodeDTO = z.infer<typeof pairingCodeSchema>;

/** "ABCDEFGH" → "ABCD-EFGH", the way the phone shows it. */
export function formatPairingCode(code: string): string {
  return code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code;
}
