import { Chip, type ChipProps } from "@mui/material";

/** #rgb, #rrggbb or #rrggbbaa as red, green and blue from 0 to 1; null for anything else. */
function channels(hex: string): [number, number, number] | null {
  const digits = hex.replace(/^#/, "");
  const full =
    digits.length === 3
      ? [...digits].map((d) => d + d).join("")
      : digits.length >= 6
        ? digits.slice(0, 6)
        : "";
  if (!/^[0-9a-f]{6}$/i.test(full)) return null;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255) as [number, number, number];
}

function luminance(rgb: [number, number, number]): number {
  const [r, g, b] = rgb.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [
    number,
    number,
    number,
  ];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Black or white, whichever reads better on `background` (WCAG contrast ratio). */
export function textOn(background: string): "#000" | "#fff" {
  const rgb = channels(background);
  if (!rgb) return "#fff";
  const l = luminance(rgb);
  return (l + 0.05) / 0.05 > 1.05 / (l + 0.05) ? "#000" : "#fff";
}

/** A tag as a chip in its own colour, its text in black or white for contrast. */
export function TagChip({
  name,
  color,
  sx,
  ...props
}: { name: string; color: string } & Omit<ChipProps, "color">) {
  return (
    <Chip
      label={name}
      size="small"
      {...props}
      sx={{ bgcolor: color, color: textOn(color), fontWeight: 600, maxWidth: "100%", ...sx }}
    />
  );
}
