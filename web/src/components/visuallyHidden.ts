/**
 * Styles that keep an element in the accessibility tree (read by screen readers) but off the screen:
 * a table's heading for a column of buttons, a chip's full sentence, a dialog's unseen title.
 */
export const visuallyHidden = {
  border: 0,
  clip: "rect(0 0 0 0)",
  height: 1,
  margin: -1,
  overflow: "hidden",
  padding: 0,
  position: "absolute",
  whiteSpace: "nowrap",
  width: 1,
} as const;
