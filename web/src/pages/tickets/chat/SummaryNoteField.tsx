import AutoAwesomeIcon from "@mui/icons-material/AutoAwesome";
import { Box, Button, TextField } from "@mui/material";
import { TICKET_NOTE } from "@atende/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { summarizeTicket } from "../../../api/assist";
import { toastError } from "../../../api/toast";

interface SummaryNoteFieldProps {
  ticketId: number;
  value: string;
  onChange(value: string): void;
  disabled?: boolean;
}

/**
 * A note saved with a transfer or a resolve: the agent writes it, or "Resumir" fills it with the AI's
 * summary of the conversation, which the agent reviews and may edit before it is saved. A failed
 * summary keeps what was there.
 */
export function SummaryNoteField({ ticketId, value, onChange, disabled }: SummaryNoteFieldProps) {
  const { t } = useTranslation();
  const [summarizing, setSummarizing] = useState(false);

  async function summarize() {
    setSummarizing(true);
    try {
      onChange((await summarizeTicket(ticketId)).text);
    } catch (error) {
      toastError(error);
    } finally {
      setSummarizing(false);
    }
  }

  return (
    <Box>
      <TextField
        label={t("assist.note")}
        helperText={t("assist.noteHint")}
        multiline
        minRows={3}
        maxRows={10}
        fullWidth
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
        slotProps={{ htmlInput: { maxLength: TICKET_NOTE.max }, input: { readOnly: summarizing } }}
      />
      <Button
        size="small"
        startIcon={<AutoAwesomeIcon />}
        loading={summarizing}
        disabled={disabled}
        onClick={() => void summarize()}
        sx={{ mt: 0.5 }}
      >
        {t("assist.summarize")}
      </Button>
    </Box>
  );
}
