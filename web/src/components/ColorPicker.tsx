import CheckIcon from "@mui/icons-material/Check";
import { Box, ButtonBase, Stack, TextField, Tooltip } from "@mui/material";
import { type ChangeEvent, useId } from "react";
import { useTranslation } from "react-i18next";
import { textOn } from "./TagChip";

/** Distinct, mid-tone colours that keep a chip's text readable. */
export const TAG_PALETTE = [
  "#5C59A0",
  "#1565C0",
  "#0288D1",
  "#00838F",
  "#2E7D32",
  "#689F38",
  "#F9A825",
  "#EF6C00",
  "#D84315",
  "#C62828",
  "#AD1457",
  "#6A1B9A",
  "#4E342E",
  "#546E7A",
  "#212121",
  "#B0BEC5",
];

interface ColorPickerProps {
  value: string;
  onChange(color: string): void;
  error?: string;
}

/** A palette of swatches, the browser's own colour picker for any other colour, and the hex code. */
export function ColorPicker({ value, onChange, error }: ColorPickerProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const current = value.toLowerCase();
  const nativeValue = /^#[0-9a-f]{6}$/i.test(value) ? value : "#000000";
  return (
    <Box>
      <Box id={labelId} component="span" sx={{ typography: "body2", color: "text.secondary" }}>
        {t("tags.dialog.color")}
      </Box>
      <Box
        role="radiogroup"
        aria-labelledby={labelId}
        sx={{ display: "flex", flexWrap: "wrap", gap: 1, mt: 1 }}
      >
        {TAG_PALETTE.map((color) => {
          const selected = color.toLowerCase() === current;
          return (
            <ButtonBase
              key={color}
              role="radio"
              aria-checked={selected}
              aria-label={color}
              onClick={() => onChange(color)}
              sx={{
                width: 32,
                height: 32,
                borderRadius: "50%",
                bgcolor: color,
                color: textOn(color),
                outline: selected ? "2px solid" : "none",
                outlineColor: "text.primary",
                outlineOffset: 2,
                "&.Mui-focusVisible": {
                  outline: "2px solid",
                  outlineColor: "primary.main",
                  outlineOffset: 2,
                },
              }}
            >
              {selected && <CheckIcon fontSize="small" />}
            </ButtonBase>
          );
        })}
      </Box>
      <Stack direction="row" spacing={1.5} sx={{ mt: 2, alignItems: "flex-start" }}>
        <Tooltip title={t("tags.dialog.customColor")}>
          <Box
            component="input"
            type="color"
            aria-label={t("tags.dialog.customColor")}
            value={nativeValue}
            onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value)}
            sx={{
              width: 48,
              height: 40,
              p: 0.5,
              border: 1,
              borderColor: "divider",
              borderRadius: 1,
              bgcolor: "background.paper",
              cursor: "pointer",
            }}
          />
        </Tooltip>
        <TextField
          size="small"
          label={t("tags.dialog.hex")}
          value={value}
          onChange={(event) => onChange(event.target.value.trim())}
          error={Boolean(error)}
          helperText={error}
          slotProps={{ htmlInput: { maxLength: 9, spellCheck: false } }}
          sx={{ width: 160 }}
        />
      </Stack>
    </Box>
  );
}
