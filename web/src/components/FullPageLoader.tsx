import { Box, CircularProgress } from "@mui/material";
import { useTranslation } from "react-i18next";

/** Shown while the session is checked or a page's code loads. */
export function FullPageLoader() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "grid", placeItems: "center", minHeight: "50vh", flex: 1 }}>
      <CircularProgress aria-label={t("common.loading")} />
    </Box>
  );
}
