import type { QueueDTO } from "@atende/contracts";
import { Box, Chip, MenuItem, TextField, useTheme } from "@mui/material";
import type { Ref } from "react";
import { useTranslation } from "react-i18next";

interface QueuesSelectProps {
  queues: QueueDTO[];
  value: number[];
  onChange(value: number[]): void;
  onBlur(): void;
  inputRef: Ref<unknown>;
  error?: string;
}

function Dot({ color }: { color: string }) {
  return <Box component="span" sx={{ width: 12, height: 12, borderRadius: "50%", bgcolor: color }} />;
}

/** The connection's queues: a multi-select whose choices show as chips in each queue's colour. */
export function QueuesSelect({ queues, value, onChange, onBlur, inputRef, error }: QueuesSelectProps) {
  const { t } = useTranslation();
  const theme = useTheme();

  function textOn(color: string): string | undefined {
    try {
      return theme.palette.getContrastText(color);
    } catch {
      return undefined;
    }
  }

  return (
    <TextField
      select
      id="connection-queues"
      label={t("connectionModal.queues")}
      value={value}
      onChange={(event) => {
        const selected = event.target.value as unknown as number[] | string;
        onChange(typeof selected === "string" ? [] : selected);
      }}
      onBlur={onBlur}
      inputRef={inputRef}
      error={Boolean(error)}
      helperText={error}
      slotProps={{
        select: {
          multiple: true,
          renderValue: (selected) => (
            <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
              {(selected as number[]).map((id) => {
                const queue = queues.find((q) => q.id === id);
                const color = queue?.color ?? theme.palette.grey[500];
                return (
                  <Chip
                    key={id}
                    size="small"
                    label={queue?.name ?? `#${id}`}
                    sx={{ bgcolor: color, color: textOn(color) }}
                  />
                );
              })}
            </Box>
          ),
        },
      }}
    >
      {queues.map((queue) => (
        <MenuItem key={queue.id} value={queue.id} sx={{ gap: 1 }}>
          <Dot color={queue.color} />
          {queue.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
