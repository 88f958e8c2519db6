import type { DashboardCounters } from "@atende/contracts";
import BusinessIcon from "@mui/icons-material/BusinessOutlined";
import DoneAllIcon from "@mui/icons-material/DoneAll";
import HeadsetMicIcon from "@mui/icons-material/HeadsetMicOutlined";
import HourglassIcon from "@mui/icons-material/HourglassEmptyOutlined";
import SyncAltIcon from "@mui/icons-material/SyncAltOutlined";
import TimerIcon from "@mui/icons-material/TimerOutlined";
import WatchLaterIcon from "@mui/icons-material/WatchLaterOutlined";
import { Box, Paper, Skeleton, Typography, type SvgIcon } from "@mui/material";
import { alpha, useTheme, type Theme } from "@mui/material/styles";
import { useTranslation } from "react-i18next";
import { formatMinutes } from "../../i18n/format";

type CardColor = "primary" | "warning" | "success" | "info" | "secondary";

interface CardSpec {
  key: keyof DashboardCounters;
  icon: typeof SvgIcon;
  color: CardColor;
  minutes?: boolean;
  superOnly?: boolean;
}

const CARDS: CardSpec[] = [
  { key: "supportHappening", icon: HeadsetMicIcon, color: "primary" },
  { key: "supportPending", icon: HourglassIcon, color: "warning" },
  { key: "supportFinished", icon: DoneAllIcon, color: "success" },
  { key: "avgSupportTime", icon: TimerIcon, color: "info", minutes: true },
  { key: "avgWaitTime", icon: WatchLaterIcon, color: "secondary", minutes: true },
  { key: "totalWhatsappSessions", icon: SyncAltIcon, color: "primary", superOnly: true },
  { key: "totalCompanies", icon: BusinessIcon, color: "info", superOnly: true },
];

function paletteColor(theme: Theme, color: CardColor): string {
  return theme.palette[color].main;
}

interface CounterCardsProps {
  counters: DashboardCounters | undefined;
  /** The super user also sees the active connections and the companies. */
  isSuper: boolean;
}

/** The dashboard's figures, one card each; skeleton values while the first answer is on its way. */
export function CounterCards({ counters, isSuper }: CounterCardsProps) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const cards = CARDS.filter((card) => isSuper || !card.superOnly);

  function display(card: CardSpec): string {
    const value = counters?.[card.key] ?? null;
    if (card.minutes) return formatMinutes(value, i18n.language);
    return new Intl.NumberFormat(i18n.language).format(value ?? 0);
  }

  return (
    <Box
      sx={{
        display: "grid",
        gap: 2,
        gridTemplateColumns: { xs: "repeat(2, minmax(0, 1fr))", md: "repeat(auto-fit, minmax(180px, 1fr))" },
      }}
    >
      {cards.map((card) => {
        const Icon = card.icon;
        const color = paletteColor(theme, card.color);
        const label = t(`dashboard.cards.${card.key}`);
        return (
          <Paper
            key={card.key}
            variant="outlined"
            role="group"
            aria-label={label}
            data-testid={`card-${card.key}`}
            sx={{ p: 2, display: "flex", alignItems: "center", gap: 1.5, minWidth: 0, minHeight: 84 }}
          >
            <Box
              aria-hidden
              sx={{
                width: 40,
                height: 40,
                flexShrink: 0,
                borderRadius: "50%",
                display: "grid",
                placeItems: "center",
                color,
                bgcolor: alpha(color, theme.palette.mode === "dark" ? 0.18 : 0.12),
              }}
            >
              <Icon />
            </Box>
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2" component="div" color="text.secondary" sx={{ lineHeight: 1.3 }}>
                {label}
              </Typography>
              <Typography variant="h5" component="p" sx={{ fontWeight: 600, lineHeight: 1.3 }}>
                {counters ? display(card) : <Skeleton width={56} />}
              </Typography>
            </Box>
          </Paper>
        );
      })}
    </Box>
  );
}
