/** A stored number (E.164 digits) as people read it: +55 (11) 97123-4501 for Brazil, +digits elsewhere. */
export function formatNumber(number: string, isGroup = false): string {
  if (isGroup || !/^\d+$/.test(number)) return number;
  const br = /^55(\d{2})(\d{4,5})(\d{4})$/.exec(number);
  if (br) return `+55 (${br[1]}) ${br[2]}-${br[3]}`;
  return `+${number}`;
}
