/** Saves a file the app built or fetched: the browser downloads it through a temporary blob link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by then; the object URL is no longer needed.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
