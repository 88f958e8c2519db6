/**
 * The new-message sound: a short two-note chime made with the Web Audio API (nothing to download),
 * played through one gain set to the volume chosen in the top bar.
 */

const NOTES_HZ = [880, 1318.5];
const NOTE_GAP_S = 0.12;
const NOTE_LENGTH_S = 0.35;
/** Each note's peak under the volume gain: two notes overlapping stay below full scale. */
const NOTE_PEAK = 0.5;
/** How long to wait for the browser to let audio start before giving this chime up. */
const RESUME_WAIT_MS = 500;

let context: AudioContext | null = null;

function audioContext(): AudioContext | null {
  if (!context && typeof AudioContext !== "undefined") context = new AudioContext();
  return context;
}

/**
 * Browsers keep audio off on a page the user has not interacted with yet; the first click or key
 * lets it start, so the first new message after a reload is heard too.
 */
export function unlockSoundOnFirstGesture(): () => void {
  const unlock = () => {
    void audioContext()
      ?.resume()
      .catch(() => undefined);
    remove();
  };
  const remove = () => {
    window.removeEventListener("pointerdown", unlock, true);
    window.removeEventListener("keydown", unlock, true);
  };
  window.addEventListener("pointerdown", unlock, true);
  window.addEventListener("keydown", unlock, true);
  return remove;
}

async function running(ctx: AudioContext): Promise<boolean> {
  if (ctx.state === "running") return true;
  const timeout = new Promise<false>((resolve) => window.setTimeout(() => resolve(false), RESUME_WAIT_MS));
  const resumed = ctx.resume().then(
    () => true,
    () => false,
  );
  return Promise.race([resumed, timeout]);
}

/**
 * Plays the chime at `volume` (0 to 1; 0 is silence). When the browser does not let the page play
 * audio yet, the chime is dropped rather than played late.
 */
export async function playMessageSound(volume: number): Promise<void> {
  if (volume <= 0) return;
  const ctx = audioContext();
  if (!ctx || !(await running(ctx))) return;
  const master = new GainNode(ctx, { gain: volume });
  master.connect(ctx.destination);
  const begin = ctx.currentTime + 0.01;
  NOTES_HZ.forEach((frequency, i) => {
    const at = begin + i * NOTE_GAP_S;
    const envelope = new GainNode(ctx, { gain: 0 });
    envelope.gain.setValueAtTime(0, at);
    envelope.gain.linearRampToValueAtTime(NOTE_PEAK, at + 0.015);
    envelope.gain.exponentialRampToValueAtTime(0.001, at + NOTE_LENGTH_S);
    const tone = new OscillatorNode(ctx, { type: "sine", frequency });
    tone.connect(envelope).connect(master);
    tone.start(at);
    tone.stop(at + NOTE_LENGTH_S);
    if (i === NOTES_HZ.length - 1) tone.onended = () => master.disconnect();
  });
}
