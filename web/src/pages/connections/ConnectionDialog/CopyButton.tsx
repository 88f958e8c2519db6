import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import { IconButton, Tooltip } from "@mui/material";
import { useTranslation } from "react-i18next";
import { toast, toastError } from "../../../api/toast";

/** Copies `text` to the clipboard and says so. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      toast(t("connectionModal.copied"), "success");
    } catch (error) {
      toastError(error instanceof Error ? error.message : error);
    }
  }

  return (
    <Tooltip title={label} describeChild disableInteractive>
      <span>
        <IconButton edge="end" aria-label={label} disabled={!text} onClick={() => void copy()}>
          <ContentCopyIcon fontSize="small" />
        </IconButton>
      </span>
    </Tooltip>
  );
}
