import { useState } from "react";
import { toast, toastError } from "../api/toast";

/**
 * A list page's delete confirmation: `ask(item)` opens it and `dialog` goes to ConfirmationDialog
 * (open, busy, onConfirm, onClose). Once confirmed, `remove(item)` runs: on success the dialog
 * closes with the `deleted` toast; a failure shows its error and leaves the dialog open.
 */
export function useConfirmDelete<T>(remove: (item: T) => Promise<void>, deleted: string) {
  const [deleting, setDeleting] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirm() {
    if (deleting === null) return;
    setBusy(true);
    try {
      await remove(deleting);
      toast(deleted, "success");
      setDeleting(null);
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  }

  return {
    deleting,
    ask: (item: T) => setDeleting(item),
    dialog: {
      open: deleting !== null,
      busy,
      onConfirm: () => void confirm(),
      onClose: () => setDeleting(null),
    },
  };
}
