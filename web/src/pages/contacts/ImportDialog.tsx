import type { ContactImportResult } from "@atende/contracts";
import UploadFileIcon from "@mui/icons-material/UploadFileOutlined";
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { contactKeys, importContacts, type ImportStage } from "../../api/contacts";
import { ApiError } from "../../api/http";

interface ImportDialogProps {
  onClose(): void;
}

type State =
  | { kind: "idle" }
  | { kind: "running"; stage: ImportStage | null }
  | { kind: "done"; result: ContactImportResult }
  | { kind: "failed"; message: string };

const ACCEPT = ".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The bar moves through sending (0-30 %), checking (30-60 %) and saving (60-100 %). */
function percentOf(stage: ImportStage | null): number {
  if (!stage) return 0;
  if (stage.stage === "upload") return stage.total ? (30 * stage.loaded) / stage.total : 0;
  const share = stage.total ? stage.done / stage.total : 1;
  return stage.stage === "check" ? 30 + 30 * share : 60 + 40 * share;
}

/** Imports a CSV / XLSX file: a progress bar, then the summary and every bad row with its problem. */
export function ImportDialog({ onClose }: ImportDialogProps) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const titleId = useId();
  const input = useRef<HTMLInputElement>(null);
  const aborter = useRef<AbortController | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<State>({ kind: "idle" });

  useEffect(() => () => aborter.current?.abort(), []);

  function errorText(error: unknown): string {
    if (error instanceof ApiError && error.code && i18n.exists(`errors.${error.code}`))
      return t(`errors.${error.code}`);
    return t("common.genericError");
  }

  async function run(skipInvalid: boolean) {
    if (!file) return;
    aborter.current = new AbortController();
    setState({ kind: "running", stage: null });
    try {
      const result = await importContacts(file, {
        skipInvalid,
        signal: aborter.current.signal,
        onStage: (stage) => setState({ kind: "running", stage }),
      });
      setState({ kind: "done", result });
      if (result.committed) void queryClient.invalidateQueries({ queryKey: contactKeys.lists() });
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") return;
      setState({ kind: "failed", message: errorText(error) });
    }
  }

  function pick(chosen: File | undefined) {
    setFile(chosen ?? null);
    setState({ kind: "idle" });
  }

  const running = state.kind === "running";
  const result = state.kind === "done" ? state.result : null;
  const badRows = result ? new Set(result.errors.map((e) => e.row)).size : 0;
  const validRows = result ? result.total - badRows : 0;

  return (
    <Dialog
      open
      onClose={running ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="md"
      fullWidth
      scroll="paper"
    >
      <DialogTitle id={titleId}>{t("contacts.importDialog.title")}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Typography variant="body2">{t("contacts.importDialog.intro")}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ fontFamily: "monospace" }}>
            {t("contacts.importDialog.example")}
          </Typography>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: "center" }}>
            <input
              ref={input}
              type="file"
              accept={ACCEPT}
              hidden
              data-testid="contacts-import-file"
              onChange={(event) => {
                pick(event.target.files?.[0]);
                event.target.value = "";
              }}
            />
            <Button
              variant="outlined"
              startIcon={<UploadFileIcon />}
              disabled={running}
              onClick={() => input.current?.click()}
            >
              {t("contacts.importDialog.choose")}
            </Button>
            <Typography
              variant="body2"
              noWrap
              sx={{ minWidth: 0 }}
              color={file ? "text.primary" : "text.secondary"}
            >
              {file ? file.name : t("contacts.importDialog.noFile")}
            </Typography>
          </Stack>

          {running && (
            <Box role="status">
              <LinearProgress
                variant="determinate"
                value={percentOf(state.stage)}
                aria-label={t("contacts.importDialog.title")}
              />
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {state.stage?.stage === "check" || state.stage?.stage === "save"
                  ? t(`contacts.importDialog.stages.${state.stage.stage}`, {
                      done: state.stage.done,
                      total: state.stage.total,
                    })
                  : t("contacts.importDialog.stages.upload")}
              </Typography>
            </Box>
          )}

          {state.kind === "failed" && <Alert severity="error">{state.message}</Alert>}

          {result && <ImportSummary result={result} badRows={badRows} />}
          {result && result.errors.length > 0 && <ImportReport result={result} />}
        </Stack>
      </DialogContent>
      <DialogActions>
        {result && !result.committed && validRows > 0 && (
          <Button onClick={() => void run(true)}>
            {t("contacts.importDialog.skipInvalid", { count: validRows })}
          </Button>
        )}
        <Button onClick={onClose} disabled={running}>
          {t("contacts.importDialog.close")}
        </Button>
        {!result?.committed && (
          <Button variant="contained" disabled={!file} loading={running} onClick={() => void run(false)}>
            {t("contacts.importDialog.start")}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

function ImportSummary({ result, badRows }: { result: ContactImportResult; badRows: number }) {
  const { t } = useTranslation();
  if (!result.committed)
    return <Alert severity="error">{t("contacts.importDialog.refused", { count: badRows })}</Alert>;
  return (
    <Alert severity={result.skipped > 0 ? "warning" : "success"}>
      <Typography variant="body2">
        {t("contacts.importDialog.done", { imported: result.imported })}
      </Typography>
      {result.existing > 0 && (
        <Typography variant="body2">
          {t("contacts.importDialog.existing", { count: result.existing })}
        </Typography>
      )}
      {result.skipped > 0 && (
        <Typography variant="body2">
          {t("contacts.importDialog.skipped", { count: result.skipped })}
        </Typography>
      )}
    </Alert>
  );
}

/** Every problem, one line each, in the file's row order. */
function ImportReport({ result }: { result: ContactImportResult }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Box>
      <Typography id={headingId} variant="subtitle2" sx={{ mb: 1 }}>
        {t("contacts.importDialog.report")}
      </Typography>
      <TableContainer sx={{ maxHeight: 280, border: 1, borderColor: "divider", borderRadius: 1 }}>
        <Table size="small" stickyHeader aria-labelledby={headingId}>
          <TableHead>
            <TableRow>
              <TableCell>{t("contacts.importDialog.row")}</TableCell>
              <TableCell>{t("contacts.importDialog.field")}</TableCell>
              <TableCell>{t("contacts.importDialog.value")}</TableCell>
              <TableCell>{t("contacts.importDialog.problem")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {result.errors.map((error) => (
              <TableRow key={`${error.row}-${error.field}`}>
                <TableCell>{error.row}</TableCell>
                <TableCell>{t(`contacts.importDialog.fields.${error.field}`)}</TableCell>
                <TableCell sx={{ maxWidth: 200, overflowWrap: "anywhere" }}>{error.value}</TableCell>
                <TableCell>{error.message}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
