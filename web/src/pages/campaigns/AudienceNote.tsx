import { Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { campaignKeys, fetchCampaignAudience } from "../../api/campaigns";

/** Under the audience: how many contacts it has and how many of them opted out (they are skipped). */
export function AudienceNote({
  contactListId,
  tagListId,
}: {
  contactListId: number | null;
  tagListId: number | null;
}) {
  const { t } = useTranslation();
  const chosen = contactListId !== null || tagListId !== null;
  const audience = useQuery({
    queryKey: campaignKeys.audience(contactListId, tagListId),
    queryFn: ({ signal }) => fetchCampaignAudience(contactListId, tagListId, signal),
    enabled: chosen,
  });
  if (!chosen || !audience.data) return null;
  const { total, optedOut } = audience.data;
  return (
    <Typography
      variant="caption"
      component="p"
      role="status"
      color={optedOut > 0 ? "warning.main" : "text.secondary"}
      sx={{ mt: 0.75 }}
    >
      {t("campaigns.dialog.audienceSize", { count: total })}{" "}
      {t("campaigns.dialog.optedOut", { count: optedOut })}
    </Typography>
  );
}
