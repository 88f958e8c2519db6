import type { HelpDTO } from "@atende/contracts";
import CloseIcon from "@mui/icons-material/Close";
import PlayIcon from "@mui/icons-material/PlayCircleOutlined";
import {
  Box,
  Card,
  CardActionArea,
  CardContent,
  Dialog,
  DialogTitle,
  IconButton,
  Skeleton,
  Typography,
} from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { fetchHelps, helpEmbedUrl, helpKeys, helpThumbnailUrl } from "../../api/helps";

const grid = {
  display: "grid",
  gap: 2,
  gridTemplateColumns: "repeat(auto-fill, minmax(min(100%, 260px), 1fr))",
} as const;

/**
 * The video's still from YouTube over a placeholder: the placeholder shows while it loads and stays
 * when it cannot load (no internet, a removed video), so a card never shows a broken image.
 */
function Thumbnail({ help }: { help: HelpDTO }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  return (
    <Box
      sx={{
        position: "relative",
        aspectRatio: "16 / 9",
        bgcolor: "action.hover",
        display: "grid",
        placeItems: "center",
        overflow: "hidden",
      }}
    >
      <PlayIcon sx={{ fontSize: 56, color: "text.disabled" }} aria-hidden />
      {failed ? (
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{ position: "absolute", bottom: 8, left: 0, right: 0, textAlign: "center" }}
        >
          {t("platform.helpsPage.noThumbnail")}
        </Typography>
      ) : (
        <Box
          component="img"
          src={helpThumbnailUrl(help.video)}
          alt=""
          loading="lazy"
          referrerPolicy="no-referrer"
          onError={() => setFailed(true)}
          sx={{ position: "absolute", inset: 0, width: "100%", height: "100%", objectFit: "cover" }}
        />
      )}
    </Box>
  );
}

function PlayerDialog({ help, onClose }: { help: HelpDTO; onClose(): void }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId} sx={{ display: "flex", alignItems: "center", gap: 1, pr: 1.5 }}>
        <Box component="span" sx={{ flex: 1 }}>
          {help.title}
        </Box>
        <IconButton aria-label={t("common.close")} onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <Box sx={{ aspectRatio: "16 / 9", bgcolor: "common.black" }}>
        <Box
          component="iframe"
          src={helpEmbedUrl(help.video)}
          title={help.title}
          allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
          sx={{ width: "100%", height: "100%", border: 0, display: "block" }}
        />
      </Box>
      {help.description && (
        <Typography color="text.secondary" sx={{ p: 2.5, whiteSpace: "pre-line" }}>
          {help.description}
        </Typography>
      )}
    </Dialog>
  );
}

/** /helps: the platform's help videos as cards; a card opens the player, Esc closes it. */
export function HelpsPage() {
  const { t } = useTranslation();
  const helps = useQuery({ queryKey: helpKeys.list(), queryFn: ({ signal }) => fetchHelps(signal) });
  const [playing, setPlaying] = useState<HelpDTO | null>(null);

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2 }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
        {t("platform.helpsPage.title")}
        {helps.data && (
          <Typography component="span" color="text.secondary" sx={{ ml: 1, fontSize: "1rem" }}>
            ({helps.data.length})
          </Typography>
        )}
      </Typography>
      {helps.isPending && (
        <Box sx={grid} aria-hidden>
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} variant="rounded" sx={{ aspectRatio: "4 / 3", height: "auto" }} />
          ))}
        </Box>
      )}
      {helps.data?.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 6, textAlign: "center" }}>
          {t("platform.helpsPage.empty")}
        </Typography>
      )}
      {helps.data && helps.data.length > 0 && (
        <Box component="ul" sx={{ ...grid, listStyle: "none", m: 0, p: 0 }}>
          {helps.data.map((help) => (
            <Card component="li" key={help.id} variant="outlined" sx={{ display: "flex" }}>
              <CardActionArea
                onClick={() => setPlaying(help)}
                aria-label={t("platform.helpsPage.play", { title: help.title })}
                sx={{
                  display: "flex",
                  flexDirection: "column",
                  alignItems: "stretch",
                  justifyContent: "flex-start",
                }}
              >
                <Thumbnail help={help} />
                <CardContent>
                  <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, lineHeight: 1.3 }}>
                    {help.title}
                  </Typography>
                  {help.description && (
                    <Typography
                      variant="body2"
                      color="text.secondary"
                      sx={{
                        mt: 0.5,
                        display: "-webkit-box",
                        WebkitLineClamp: 3,
                        WebkitBoxOrient: "vertical",
                        overflow: "hidden",
                      }}
                    >
                      {help.description}
                    </Typography>
                  )}
                </CardContent>
              </CardActionArea>
            </Card>
          ))}
        </Box>
      )}
      {playing && <PlayerDialog help={playing} onClose={() => setPlaying(null)} />}
    </Box>
  );
}
