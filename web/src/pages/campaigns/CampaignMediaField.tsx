import AttachFileIcon from "@mui/icons-material/AttachFile";
import CloseIcon from "@mui/icons-material/Close";
import { Button, Chip, Stack } from "@mui/material";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { campaignMediaName } from "../../api/campaigns";

interface CampaignMediaFieldProps {
  /** The media the campaign has now. */
  currentName: string | null;
  /** A new file to send once saved, or "remove" to drop the current one. */
  media: File | "remove" | null;
  onChange(media: File | "remove" | null): void;
  readOnly: boolean;
}

/** The campaign's media: attach one (sent after the campaign is saved), or remove it. */
export function CampaignMediaField({ currentName, media, onChange, readOnly }: CampaignMediaFieldProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const shown =
    media instanceof File ? campaignMediaName(media.name) : media === "remove" ? null : currentName;
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexShrink: 0, minWidth: 0 }}>
      <input
        ref={input}
        type="file"
        hidden
        aria-label={t("campaigns.dialog.attach")}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) onChange(file);
          event.target.value = "";
        }}
      />
      {!readOnly && (
        <Button
          startIcon={<AttachFileIcon />}
          onClick={() => input.current?.click()}
          sx={{ whiteSpace: "nowrap" }}
        >
          {t("campaigns.dialog.attach")}
        </Button>
      )}
      {shown && (
        <Chip
          label={shown}
          title={t("campaigns.dialog.media")}
          onDelete={readOnly ? undefined : () => onChange(media instanceof File ? null : "remove")}
          deleteIcon={<CloseIcon aria-label={t("campaigns.dialog.removeMedia")} />}
          sx={{ maxWidth: 260 }}
        />
      )}
    </Stack>
  );
}
