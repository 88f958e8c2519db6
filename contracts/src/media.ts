/** Spaces in a media name become underscores (spec section 5), and the name stays short. */
export function mediaNameOf(filename: string): string {
  const clean = [...filename]
    .filter((c) => c.charCodeAt(0) >= 0x20 && c !== "/" && c !== "\\")
    .join("")
    .trim()
    .replace(/\s+/g, "_");
  return (clean || "arquivo").slice(-200);
}
