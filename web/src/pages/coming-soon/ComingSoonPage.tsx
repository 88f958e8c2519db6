import { Box, Chip, Link, Paper, Typography } from "@mui/material";
import ConstructionIcon from "@mui/icons-material/ConstructionOutlined";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import type { Translation } from "../../i18n/pt";

export type PageKey = keyof Translation["pages"];

interface ComingSoonPageProps {
  title: PageKey;
  /** A public page outside the app shell: centred, with a way back to the login. */
  standalone?: boolean;
}

/** The one placeholder for pages that later work delivers: the page's title and a sentence. */
export function ComingSoonPage({ title, standalone = false }: ComingSoonPageProps) {
  const { t } = useTranslation();
  const card = (
    <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, maxWidth: 560, width: "100%", textAlign: "center" }}>
      <ConstructionIcon color="primary" sx={{ fontSize: 48 }} aria-hidden />
      <Typography variant="h5" component="h1" sx={{ mt: 1 }}>
        {t(`pages.${title}`)}
      </Typography>
      <Chip label={t("comingSoon.badge")} color="primary" variant="outlined" size="small" sx={{ my: 1.5 }} />
      <Typography color="text.secondary">{t("comingSoon.text")}</Typography>
      {standalone && (
        <Link component={RouterLink} to="/login" sx={{ display: "inline-block", mt: 2 }}>
          {t("comingSoon.backToLogin")}
        </Link>
      )}
    </Paper>
  );
  return (
    <Box
      sx={{ display: "grid", placeItems: "center", p: 2, flex: 1, minHeight: standalone ? "100vh" : "60vh" }}
    >
      {card}
    </Box>
  );
}
