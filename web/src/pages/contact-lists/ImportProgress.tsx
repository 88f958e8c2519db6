import type { ContactListImportDTO } from "@atende/contracts";
import DownloadIcon from "@mui/icons-material/DownloadOutlined";
import { Alert, Box, Button, Chip, LinearProgress, Stack, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { downloadImportErrors } from "../../api/contactLists";
import { toastError } from "../../api/toast";

/** An import's live progress: the bar, its counts, and the bad rows with their download. */
export function ImportProgress({ record }: { record: ContactListImportDTO }) {
  const { t } = useTranslation();
  const file = record.fileName;
  const finished = record.status === "done" || record.status === "failed";
  const percent = record.totalRows > 0 ? Math.round((record.processedRows / record.totalRows) * 100) : 0;
  const headline =
    record.status === "running"
      ? t("contactLists.items.importing.running", {
          file,
          processed: record.processedRows,
          total: record.totalRows,
        })
      : t(`contactLists.items.importing.${record.status}`, { file });
  const reason = (key: string) =>
    t(`contactLists.items.reasons.${key.replace(".", "_")}`, { defaultValue: key });
  return (
    <Box sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: "divider" }} data-testid="import-progress">
      <Stack spacing={1}>
        <Typography variant="body2" data-testid="import-status">
          {headline}
        </Typography>
        {record.status === "failed" && record.error && (
          <Alert severity="error">{t(`errors.${record.error}`, { defaultValue: record.error })}</Alert>
        )}
        {!finished && (
          <LinearProgress
            variant={record.totalRows > 0 ? "determinate" : "indeterminate"}
            value={percent}
            aria-label={headline}
          />
        )}
        <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap", alignItems: "center" }}>
          <Chip
            size="small"
            color="success"
            label={t("contactLists.items.importing.imported", { count: record.imported })}
            data-testid="import-imported"
          />
          <Chip
            size="small"
            label={t("contactLists.items.importing.duplicates", { count: record.duplicates })}
            data-testid="import-duplicates"
          />
          <Chip
            size="small"
            color={record.invalid > 0 ? "error" : "default"}
            label={t("contactLists.items.importing.invalid", { count: record.invalid })}
            data-testid="import-invalid"
          />
          {record.invalid > 0 && (
            <Button
              size="small"
              startIcon={<DownloadIcon />}
              onClick={() => void downloadImportErrors(record.contactListId, record.id).catch(toastError)}
            >
              {t("contactLists.items.importing.download")}
            </Button>
          )}
        </Stack>
        {record.errors.length > 0 && (
          <Box
            component="ul"
            sx={{ m: 0, pl: 2.5, maxHeight: 96, overflow: "auto", typography: "caption" }}
            aria-label={t("contactLists.items.importing.badRows")}
          >
            {record.errors.slice(0, 20).map((e) => (
              <li key={e.row}>
                {t("contactLists.items.importing.row", { row: e.row, reason: reason(e.reason) })}
                {e.value ? ` (${e.value})` : ""}
              </li>
            ))}
          </Box>
        )}
      </Stack>
    </Box>
  );
}
