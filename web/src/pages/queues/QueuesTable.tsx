import type { QueueDetailDTO } from "@atende/contracts";
import AddIcon from "@mui/icons-material/Add";
import {
  Box,
  Button,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";
import { useTranslation } from "react-i18next";
import { SkeletonRows } from "../../components/TableStates";
import { RowActions } from "../../components/RowActions";

interface QueuesTableProps {
  queues: QueueDetailDTO[];
  loading: boolean;
  onAdd(): void;
  onEdit(queue: QueueDetailDTO): void;
  onDelete(queue: QueueDetailDTO): void;
}

const COLUMNS = 6;

/** The queues in menu order: id, name, colour swatch, order, greeting, and the row's actions. */
export function QueuesTable({ queues, loading, onAdd, onEdit, onDelete }: QueuesTableProps) {
  const { t } = useTranslation();
  return (
    <TableContainer sx={{ flex: 1, minHeight: 0 }}>
      <Table stickyHeader size="small">
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: 64 }}>{t("queues.columns.id")}</TableCell>
            <TableCell>{t("queues.columns.name")}</TableCell>
            <TableCell>{t("queues.columns.color")}</TableCell>
            <TableCell align="center">{t("queues.columns.order")}</TableCell>
            <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>
              {t("queues.columns.greeting")}
            </TableCell>
            <TableCell align="center">{t("queues.columns.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {queues.map((queue) => (
            <TableRow key={queue.id} hover data-testid={`queue-row-${queue.id}`}>
              <TableCell>{queue.id}</TableCell>
              <TableCell sx={{ fontWeight: 500 }}>{queue.name}</TableCell>
              <TableCell>
                <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                  <Box
                    aria-hidden
                    sx={{
                      width: 24,
                      height: 24,
                      borderRadius: 1,
                      bgcolor: queue.color,
                      border: 1,
                      borderColor: "divider",
                      flexShrink: 0,
                    }}
                  />
                  <Typography variant="body2" color="text.secondary" sx={{ fontFamily: "monospace" }}>
                    {queue.color}
                  </Typography>
                </Stack>
              </TableCell>
              <TableCell align="center">{queue.orderQueue ?? "—"}</TableCell>
              <TableCell sx={{ display: { xs: "none", md: "table-cell" }, maxWidth: 420 }}>
                <Typography variant="body2" color="text.secondary" noWrap title={queue.greetingMessage}>
                  {queue.greetingMessage}
                </Typography>
              </TableCell>
              <RowActions
                name={queue.name}
                editLabel={t("queues.edit")}
                deleteLabel={t("queues.delete")}
                onEdit={() => onEdit(queue)}
                onDelete={() => onDelete(queue)}
              />
            </TableRow>
          ))}
          {loading && <SkeletonRows rows={3} columns={COLUMNS} />}
          {!loading && queues.length === 0 && (
            <TableRow>
              <TableCell colSpan={COLUMNS} sx={{ py: 6, textAlign: "center", border: 0 }}>
                <Typography color="text.secondary" sx={{ mb: 2 }}>
                  {t("queues.empty")}
                </Typography>
                <Button variant="outlined" startIcon={<AddIcon />} onClick={onAdd}>
                  {t("queues.add")}
                </Button>
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
