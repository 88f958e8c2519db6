import crypto from "node:crypto";

/** Compares a received secret with the expected one in constant time; an empty expected secret never matches. */
export function sameSecret(received: unknown, expected: string): boolean {
  if (typeof received !== "string" || expected.length === 0) return false;
  // Hashed first: equal lengths for timingSafeEqual, and the length of the secret is not leaked either.
  const a = crypto.createHash("sha256").update(received).digest();
  const b = crypto.createHash("sha256").update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

export function headerOf(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
