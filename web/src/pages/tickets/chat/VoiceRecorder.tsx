import { LIMITS } from "@atende/contracts";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutlineOutlined";
import MicIcon from "@mui/icons-material/Mic";
import SendIcon from "@mui/icons-material/Send";
import { Box, IconButton, LinearProgress, Typography, useTheme } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { upsertMessage } from "../../../api/messagePages";
import { sendMedia } from "../../../api/messages";
import { toast, toastError } from "../../../api/toast";

/** What the recorder may produce, best first: WhatsApp plays Opus in Ogg; Chromium records WebM only. */
const MIME_CHOICES = ["audio/ogg;codecs=opus", "audio/webm;codecs=opus", "audio/webm"];
/** The spec's audio bit rate (128 kbit/s). */
const AUDIO_BITS_PER_SECOND = 128_000;

type Phase = "idle" | "starting" | "recording" | "sending";

interface Recording {
  stream: MediaStream;
  recorder: MediaRecorder;
  chunks: Blob[];
  mimeType: string;
  timer: number;
}

function pickMimeType(): string {
  return MIME_CHOICES.find((type) => MediaRecorder.isTypeSupported(type)) ?? "";
}

function stopTracks(stream: MediaStream) {
  for (const track of stream.getTracks()) track.stop();
}

/** The toast for a microphone that could not be opened. */
function micErrorKey(error: unknown): string {
  const name = error instanceof DOMException ? error.name : "";
  if (name === "NotAllowedError" || name === "SecurityError") return "chat.voice.denied";
  if (name === "NotFoundError" || name === "OverconstrainedError" || name === "NotReadableError")
    return "chat.voice.noDevice";
  return "chat.voice.failed";
}

const pad = (n: number) => String(n).padStart(2, "0");

/** "audio-20240521-143005.webm": the local time of the recording, and the container's extension. */
export function audioFileName(at: Date, mimeType: string): string {
  const stamp =
    `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}` +
    `-${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  return `audio-${stamp}.${mimeType.includes("ogg") ? "ogg" : "webm"}`;
}

/** m:ss */
export function formatElapsed(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${pad(seconds % 60)}`;
}

interface VoiceRecorderProps {
  ticketId: number;
  /** The message the audio answers, if any. */
  quotedMsgId?: number;
  sign: boolean;
  /** True from the microphone's start until the audio is sent or dropped: the box steps aside meanwhile. */
  onActiveChange(active: boolean): void;
  /** A recording went out (ends the reply). */
  onSent(): void;
}

/**
 * The microphone of the message box, WhatsApp-like: a click records, and the bar shows a red dot and
 * the time with a bin (drop it) and a send button. A recording under LIMITS.minAudioBytes is dropped
 * with a notice. The microphone is released on every way out: send, drop, error, unmount.
 */
export function VoiceRecorder({ ticketId, quotedMsgId, sign, onActiveChange, onSent }: VoiceRecorderProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const dark = useTheme().palette.mode === "dark";
  const [phase, setPhase] = useState<Phase>("idle");
  const [elapsed, setElapsed] = useState(0);
  const [progress, setProgress] = useState<number | null>(null);
  const recording = useRef<Recording | null>(null);
  /** Bumped by every start and cancel: a microphone granted after the user gave up is closed at once. */
  const attempt = useRef(0);
  const alive = useRef(true);
  const activeChange = useRef(onActiveChange);

  useEffect(() => {
    activeChange.current = onActiveChange;
  }, [onActiveChange]);

  useEffect(() => {
    activeChange.current(phase !== "idle");
  }, [phase]);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      const current = recording.current;
      recording.current = null;
      if (current) discard(current);
      activeChange.current(false);
    };
  }, []);

  function discard(current: Recording) {
    window.clearInterval(current.timer);
    current.recorder.ondataavailable = null;
    current.recorder.onstop = null;
    if (current.recorder.state !== "inactive") current.recorder.stop();
    stopTracks(current.stream);
  }

  async function start() {
    if (phase !== "idle") return;
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === "undefined") {
      toast(t("chat.voice.unsupported"), "error");
      return;
    }
    const mine = ++attempt.current;
    setElapsed(0);
    setPhase("starting");
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      if (alive.current && attempt.current === mine) {
        setPhase("idle");
        toast(t(micErrorKey(error)), "error");
      }
      return;
    }
    if (!alive.current || attempt.current !== mine) {
      stopTracks(stream);
      return;
    }
    const mimeType = pickMimeType();
    const chunks: Blob[] = [];
    let recorder: MediaRecorder;
    try {
      recorder = new MediaRecorder(stream, {
        ...(mimeType ? { mimeType } : {}),
        audioBitsPerSecond: AUDIO_BITS_PER_SECOND,
      });
      recorder.ondataavailable = (event) => {
        if (event.data.size > 0) chunks.push(event.data);
      };
      recorder.start(1000);
    } catch {
      stopTracks(stream);
      setPhase("idle");
      toast(t("chat.voice.failed"), "error");
      return;
    }
    const startedAt = performance.now();
    const timer = window.setInterval(() => {
      setElapsed(Math.floor((performance.now() - startedAt) / 1000));
    }, 250);
    recording.current = { stream, recorder, chunks, mimeType, timer };
    recorder.onerror = () => {
      cancel();
      toast(t("chat.voice.failed"), "error");
    };
    setPhase("recording");
  }

  function cancel() {
    attempt.current++;
    const current = recording.current;
    recording.current = null;
    if (current) discard(current);
    setPhase("idle");
  }

  /** Stops the recorder and answers everything it recorded; the microphone is released. */
  function finish(current: Recording): Promise<Blob> {
    window.clearInterval(current.timer);
    return new Promise((resolve) => {
      const done = () => {
        stopTracks(current.stream);
        const type = (current.recorder.mimeType || current.mimeType || "audio/webm").split(";")[0]!;
        resolve(new Blob(current.chunks, { type }));
      };
      if (current.recorder.state === "inactive") done();
      else {
        current.recorder.onstop = done;
        current.recorder.stop();
      }
    });
  }

  async function send() {
    const current = recording.current;
    if (!current || phase !== "recording") return;
    recording.current = null;
    setPhase("sending");
    const blob = await finish(current);
    if (blob.size < LIMITS.minAudioBytes) {
      toast(t("chat.voice.tooShort"), "warning");
      if (alive.current) setPhase("idle");
      return;
    }
    const file = new File([blob], audioFileName(new Date(), blob.type), { type: blob.type });
    try {
      setProgress(0);
      const sent = await sendMedia(ticketId, [file], {
        quotedMsgId,
        signMessage: sign,
        onProgress: (fraction) => {
          if (alive.current) setProgress(fraction);
        },
      });
      for (const message of sent) upsertMessage(queryClient, ticketId, message);
      if (alive.current) onSent();
    } catch (error) {
      toastError(error);
    } finally {
      if (alive.current) {
        setProgress(null);
        setPhase("idle");
      }
    }
  }

  if (phase === "idle") {
    return (
      <IconButton color="primary" aria-label={t("chat.voice.record")} onClick={() => void start()}>
        <MicIcon />
      </IconButton>
    );
  }

  const sending = phase === "sending";
  return (
    <Box sx={{ flex: 1, minWidth: 0, display: "flex", alignItems: "center", gap: 0.5 }}>
      <IconButton aria-label={t("chat.voice.cancel")} onClick={cancel} disabled={sending}>
        <DeleteOutlineIcon />
      </IconButton>
      <Box
        role="status"
        aria-label={t(sending ? "chat.voice.uploading" : "chat.voice.recording")}
        sx={{
          flex: 1,
          minWidth: 0,
          display: "flex",
          alignItems: "center",
          gap: 1.5,
          bgcolor: dark ? "#2a3942" : "#ffffff",
          borderRadius: 2,
          px: 1.5,
          height: 42,
        }}
      >
        {sending && progress !== null ? (
          <LinearProgress
            variant="determinate"
            value={Math.round(progress * 100)}
            aria-label={t("chat.voice.uploading")}
            sx={{ flex: 1 }}
          />
        ) : (
          <>
            <Box
              aria-hidden
              sx={{
                width: 10,
                height: 10,
                borderRadius: "50%",
                bgcolor: "error.main",
                flexShrink: 0,
                animation: phase === "recording" ? "voice-pulse 1.2s ease-in-out infinite" : "none",
                "@keyframes voice-pulse": { "50%": { opacity: 0.3 } },
                "@media (prefers-reduced-motion: reduce)": { animation: "none" },
              }}
            />
            <Typography variant="body2" sx={{ fontVariantNumeric: "tabular-nums" }}>
              {formatElapsed(elapsed)}
            </Typography>
            <Typography variant="body2" color="text.secondary" noWrap>
              {t(phase === "starting" ? "chat.voice.starting" : "chat.voice.recording")}
            </Typography>
          </>
        )}
      </Box>
      <IconButton
        color="primary"
        aria-label={t("chat.voice.send")}
        onClick={() => void send()}
        disabled={phase !== "recording"}
      >
        <SendIcon />
      </IconButton>
    </Box>
  );
}
