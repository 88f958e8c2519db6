import VolumeDownIcon from "@mui/icons-material/VolumeDown";
import VolumeOffIcon from "@mui/icons-material/VolumeOff";
import VolumeUpIcon from "@mui/icons-material/VolumeUp";
import { IconButton, Popover, Slider, Stack, Tooltip } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { VOLUME_KEY, readVolume } from "../notifications/volume";

export function VolumeControl() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [volume, setVolume] = useState(readVolume);

  function change(value: number) {
    setVolume(value);
    localStorage.setItem(VOLUME_KEY, String(value));
  }

  const Icon = volume === 0 ? VolumeOffIcon : volume < 0.5 ? VolumeDownIcon : VolumeUpIcon;
  return (
    <>
      <Tooltip title={t("topBar.volume")}>
        <IconButton
          color="inherit"
          aria-label={t("topBar.volume")}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <Icon />
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
        transformOrigin={{ vertical: "top", horizontal: "center" }}
      >
        <Stack direction="row" spacing={2} sx={{ alignItems: "center", px: 2, py: 1, width: 220 }}>
          <VolumeDownIcon fontSize="small" aria-hidden />
          <Slider
            aria-label={t("topBar.volume")}
            value={volume}
            min={0}
            max={1}
            step={0.1}
            onChange={(_, value) => change(value as number)}
          />
          <VolumeUpIcon fontSize="small" aria-hidden />
        </Stack>
      </Popover>
    </>
  );
}
