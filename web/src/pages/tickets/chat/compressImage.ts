import { LIMITS } from "@atende/contracts";

/** Photos worth re-encoding: GIFs may move and SVGs are drawings, so they go as they are. */
const PHOTO = /^image\/(jpeg|png|webp|bmp)$/;
/** Under this size a photo already travels light: re-encoding would only cost its quality. */
const LIGHT_BYTES = 300 * 1024;

function toJpeg(canvas: HTMLCanvasElement): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", LIMITS.imageCompressionQuality));
}

/**
 * A photo as it goes out from the chat (spec section 9, image compression quality 0.7): at most
 * 1920 px on its long side, re-encoded as JPEG at 0.7 through a canvas, renamed .jpg. Anything else
 * (documents, videos, GIFs, a photo already light and small, or one the browser cannot decode)
 * goes as it is, and so does a photo the re-encoding would not make smaller.
 */
export async function compressImage(file: File): Promise<File> {
  if (!PHOTO.test(file.type)) return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return file;
  }
  try {
    const longSide = Math.max(bitmap.width, bitmap.height);
    if (longSide <= LIMITS.imageMaxSidePx && file.size <= LIGHT_BYTES) return file;
    const scale = Math.min(1, LIMITS.imageMaxSidePx / longSide);
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext("2d");
    if (!context) return file;
    // JPEG has no transparency: a transparent PNG gets a white page, not a black one.
    context.fillStyle = "#fff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const blob = await toJpeg(canvas);
    if (!blob || blob.size >= file.size) return file;
    const name = `${file.name.replace(/\.[^./\\]+$/, "") || "imagem"}.jpg`;
    return new File([blob], name, { type: "image/jpeg", lastModified: file.lastModified });
  } finally {
    bitmap.close();
  }
}

/** The files of one send, photos compressed. */
export function compressImages(files: File[]): Promise<File[]> {
  return Promise.all(files.map(compressImage));
}
