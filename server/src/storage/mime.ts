/**
 * The one table of the file types Atende stores and serves, by extension: what a stored file is
 * sent to WhatsApp as, and the Content-Type the media routes answer (anything else is
 * application/octet-stream, downloaded rather than shown). No type a browser would run (HTML, SVG).
 */
const MIME_BY_EXT: Readonly<Record<string, string>> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  mp4: "video/mp4",
  webm: "video/webm",
  "3gp": "video/3gpp",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/ogg",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  wav: "audio/wav",
  aac: "audio/aac",
  pdf: "application/pdf",
  txt: "text/plain; charset=utf-8",
  csv: "text/csv; charset=utf-8",
};

export const UNKNOWN_MIME = "application/octet-stream";

/** The extension of a file name or stored path, lower case ("" when it has none). */
export function extensionOf(nameOrPath: string): string {
  const base = nameOrPath.split("/").pop() ?? "";
  return base.includes(".") ? (base.split(".").pop() ?? "").toLowerCase() : "";
}

/** The type of a file by its name or stored path. */
export function mimeOf(nameOrPath: string): string {
  return MIME_BY_EXT[extensionOf(nameOrPath)] ?? UNKNOWN_MIME;
}

/**
 * A file list's file as the phone shows it: the option's name, with the stored file's extension when
 * the name has none (a document called "Tabela de preços" opens on the phone as "Tabela de preços.pdf").
 */
export function fileNameOf(name: string, storedPath: string): string {
  const ext = storedPath.includes(".") ? storedPath.split(".").pop()!.toLowerCase() : "";
  const base = name.trim() || "arquivo";
  if (!ext || ext === "bin" || /\.[a-z0-9]{1,5}$/i.test(base)) return base;
  return `${base}.${ext}`;
}
