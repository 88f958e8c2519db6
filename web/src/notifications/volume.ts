/** Where the top bar's volume control (layout/VolumeControl.tsx) keeps the chosen volume; the sound reads it. */
export const VOLUME_KEY = "volume";

/** The notification volume chosen in the top bar: 0 to 1, 1 when never set. */
export function readVolume(): number {
  const saved = Number.parseFloat(localStorage.getItem(VOLUME_KEY) ?? "");
  return Number.isFinite(saved) ? Math.min(1, Math.max(0, saved)) : 1;
}
