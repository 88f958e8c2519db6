import type { TicketDTO } from "@atende/contracts";
import { Box, Chip, useTheme, type SxProps, type Theme } from "@mui/material";
import { useTranslation } from "react-i18next";

/** The ticket's tags, read-only (the contact panel); the chat's header edits them (TagEditor). */
export function TagChips({ tags, sx }: { tags: TicketDTO["tags"]; sx?: SxProps<Theme> }) {
  const { t } = useTranslation();
  const theme = useTheme();
  if (tags.length === 0) return null;
  return (
    <Box
      role="list"
      aria-label={t("chat.header.tags")}
      sx={{ display: "flex", gap: 0.5, flexWrap: "wrap", ...sx }}
    >
      {tags.map((tag) => (
        <Chip
          key={tag.id}
          role="listitem"
          size="small"
          label={tag.name}
          sx={{
            bgcolor: tag.color,
            color: theme.palette.getContrastText(tag.color),
            fontWeight: 500,
            height: 22,
          }}
        />
      ))}
    </Box>
  );
}
