import type { QueueIntegrationType } from "@atende/contracts";
import WebhookIcon from "@mui/icons-material/Webhook";
import { Avatar } from "@mui/material";
import { useTranslation } from "react-i18next";

/** Each kind's mark: its brand colour and a simple glyph (drawn here, no image fetched). */
const MARKS: Record<QueueIntegrationType, { color: string; glyph: string | null }> = {
  dialogflow: { color: "#FF9800", glyph: "DF" },
  n8n: { color: "#EA4B71", glyph: "n8n" },
  webhook: { color: "#455A64", glyph: null },
  typebot: { color: "#0042DA", glyph: "TB" },
};

/** The type's logo in the integrations table, named for screen readers. */
export function IntegrationLogo({ type, size = 36 }: { type: QueueIntegrationType; size?: number }) {
  const { t } = useTranslation();
  const mark = MARKS[type];
  const name = t(`bots.integrations.types.${type}`);
  return (
    <Avatar
      variant="rounded"
      role="img"
      aria-label={name}
      title={name}
      data-testid={`integration-logo-${type}`}
      sx={{
        width: size,
        height: size,
        bgcolor: mark.color,
        color: "#fff",
        fontSize: mark.glyph && mark.glyph.length > 2 ? 12 : 14,
        fontWeight: 700,
      }}
    >
      {mark.glyph ?? <WebhookIcon fontSize="small" />}
    </Avatar>
  );
}
