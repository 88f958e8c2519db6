import AddIcon from "@mui/icons-material/Add";
import { Box, ButtonBase, IconButton, Popover } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ALL_EMOJI, EMOJI_FONT, QUICK_EMOJI } from "./emoji";

interface EmojiPickerProps {
  anchorEl: HTMLElement | null;
  onClose(): void;
  onPick(emoji: string): void;
  /** Reactions start with the six quick emoji and a "+" that opens the full list. */
  quick?: boolean;
  /** The emoji already chosen (picking it again removes a reaction). */
  selected?: string;
}

function EmojiButton({ emoji, selected, onPick }: { emoji: string; selected: boolean; onPick(): void }) {
  const { t } = useTranslation();
  return (
    <ButtonBase
      aria-label={t("chat.react.emoji", { emoji })}
      aria-pressed={selected}
      onClick={onPick}
      sx={{
        width: 38,
        height: 38,
        fontSize: 24,
        fontFamily: EMOJI_FONT,
        borderRadius: "50%",
        bgcolor: selected ? "action.selected" : undefined,
        transition: "transform 120ms",
        "&:hover, &:focus-visible": { bgcolor: "action.hover", transform: "scale(1.15)" },
      }}
    >
      {emoji}
    </ButtonBase>
  );
}

export function EmojiPicker({ anchorEl, onClose, onPick, quick = false, selected }: EmojiPickerProps) {
  const { t } = useTranslation();
  const [full, setFull] = useState(!quick);

  return (
    <Popover
      open={anchorEl !== null}
      anchorEl={anchorEl}
      onClose={onClose}
      anchorOrigin={{ vertical: "top", horizontal: "center" }}
      transformOrigin={{ vertical: "bottom", horizontal: "center" }}
      slotProps={{
        paper: { sx: { borderRadius: full ? 3 : 6, p: 0.75 } },
        transition: { onExited: () => setFull(!quick) },
      }}
    >
      {!full ? (
        <Box role="group" aria-label={t("chat.react.title")} sx={{ display: "flex", alignItems: "center" }}>
          {QUICK_EMOJI.map((emoji) => (
            <EmojiButton
              key={emoji}
              emoji={emoji}
              selected={selected === emoji}
              onPick={() => onPick(emoji)}
            />
          ))}
          <IconButton
            size="small"
            aria-label={t("chat.react.more")}
            onClick={() => setFull(true)}
            sx={{ ml: 0.5 }}
          >
            <AddIcon fontSize="small" />
          </IconButton>
        </Box>
      ) : (
        <Box
          role="group"
          aria-label={t("chat.emoji.title")}
          sx={{ display: "grid", gridTemplateColumns: "repeat(8, 38px)", maxHeight: 260, overflowY: "auto" }}
        >
          {ALL_EMOJI.map((emoji) => (
            <EmojiButton
              key={emoji}
              emoji={emoji}
              selected={selected === emoji}
              onPick={() => onPick(emoji)}
            />
          ))}
        </Box>
      )}
    </Popover>
  );
}
