import type { ProviderName } from "@atende/contracts";
import { cloudMediaProblem } from "../../channels/cloud/mediaLimits.js";
import { AppError } from "../../http/errors.js";
import type { MediaStore } from "../../storage/media.js";
import { VOICE_NOTE_MIME, needsVoiceConversion, toVoiceNote, voiceNoteName } from "../../storage/voice.js";
import { outboundMediaKind } from "./outbound.js";

export interface OutgoingFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

/**
 * An agent's files made ready for the ticket's connection, before anything is stored or queued:
 * every audio becomes an Ogg/Opus voice note (a browser records WebM, which the Cloud API refuses
 * and iPhones may not play); on a Cloud API connection, a type or size Meta does not take is refused
 * here with its ERR_* code, instead of failing after the message was queued.
 */
export async function prepareOutgoingFiles(
  files: OutgoingFile[],
  provider: ProviderName | null,
  media: MediaStore,
): Promise<OutgoingFile[]> {
  const ready: OutgoingFile[] = [];
  for (const file of files) {
    let next = file;
    if (await needsVoiceConversion(file.data, file.mimetype)) {
      try {
        next = {
          filename: voiceNoteName(file.filename),
          mimetype: VOICE_NOTE_MIME,
          data: await toVoiceNote(file.data),
        };
      } catch {
        throw new AppError("ERR_AUDIO_CONVERSION_FAILED");
      }
    }
    if (provider === "cloud") {
      const mimetype = await media.typeOf(next.data, next.mimetype);
      const kind = outboundMediaKind(mimetype, "");
      const problem = cloudMediaProblem(kind, mimetype, next.data.length);
      if (problem) throw new AppError(problem);
    }
    ready.push(next);
  }
  return ready;
}
