import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileTypeFromBuffer } from "file-type";

/**
 * Voice notes as WhatsApp plays them everywhere: Opus in Ogg, mono. A browser records WebM (Chrome)
 * or MP4 (Safari): the Cloud API refuses WebM and iPhones may not play it from WhatsApp Web, so
 * every outgoing audio is converted here, once, when the agent sends it.
 *
 * ffmpeg comes from the npm package @ffmpeg-installer/ffmpeg (its binary ships inside the package,
 * nothing downloaded at install); FFMPEG_PATH overrides it, and "ffmpeg" on the PATH is the last resort.
 */
export const VOICE_NOTE_MIME = "audio/ogg; codecs=opus";

let resolved: string | undefined;
function ffmpegPath(): string {
  if (resolved) return resolved;
  if (process.env.FFMPEG_PATH) return (resolved = process.env.FFMPEG_PATH);
  try {
    // The installer throws on a platform it has no binary for: then the system's ffmpeg.
    const installer = createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path: string };
    return (resolved = installer.path);
  } catch {
    return (resolved = "ffmpeg");
  }
}

/** The audio cannot be read (not audio, or damaged): nothing to send. */
export class AudioConversionError extends Error {}

/** Whether these bytes are audio that is not Ogg/Opus yet (a WebM recording counts as audio). */
export async function needsVoiceConversion(data: Buffer, declaredMime: string): Promise<boolean> {
  const sniffed = await fileTypeFromBuffer(data);
  if (!sniffed) return false;
  if (sniffed.mime === VOICE_NOTE_MIME) return false;
  if (sniffed.mime.startsWith("audio/")) return true;
  // WebM and MP4 hold sound or video alike: the sender's word says which.
  return /^video\/(webm|mp4)$/.test(sniffed.mime) && declaredMime.toLowerCase().startsWith("audio/");
}

/** Runs ffmpeg on files (an MP4 recording is not readable from a pipe: its index may come last). */
function run(args: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(), args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(new AudioConversionError(`ffmpeg exited ${code}: ${stderr.trim().split("\n").at(-1) ?? ""}`));
    });
  });
}

/** Any audio → Ogg/Opus, mono 48 kHz, speech-tuned (what WhatsApp's own voice notes are). */
export async function toVoiceNote(data: Buffer, timeoutMs = 120_000): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "atende-voice-"));
  const input = path.join(dir, `in-${crypto.randomUUID()}`);
  const output = path.join(dir, "out.ogg");
  try {
    await fs.writeFile(input, data);
    await run(
      [
        ...["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", input],
        ...["-vn", "-map_metadata", "-1", "-ac", "1", "-ar", "48000"],
        ...["-c:a", "libopus", "-b:a", "32k", "-application", "voip", "-f", "ogg", output],
      ],
      timeoutMs,
    );
    const converted = await fs.readFile(output);
    if (converted.length === 0) throw new AudioConversionError("ffmpeg wrote no audio");
    return converted;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The file name a converted recording goes by: its own name, ending in .ogg. */
export function voiceNoteName(filename: string): string {
  const base = filename.replace(/\.[A-Za-z0-9]{1,5}$/, "");
  return `${base || "audio"}.ogg`;
}
