import type { QueueIntegrationDTO } from "@atende/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import { IconButton, TableCell, TableRow } from "@mui/material";
import { useTranslation } from "react-i18next";
import { InfiniteTable } from "../../components/InfiniteTable";
import type { SearchableList } from "../../hooks/useSearchableList";
import { IntegrationLogo } from "./IntegrationLogo";

interface QueueIntegrationsTableProps {
  list: SearchableList<QueueIntegrationDTO>;
  onEdit(item: QueueIntegrationDTO): void;
  onDelete(item: QueueIntegrationDTO): void;
}

/** The type's logo, id and name; the next page loads within 100 px of the end. */
export function QueueIntegrationsTable({ list, onEdit, onDelete }: QueueIntegrationsTableProps) {
  const { t } = useTranslation();
  return (
    <InfiniteTable
      list={list}
      columns={[
        { label: t("bots.integrations.columns.type"), align: "center" },
        { label: t("bots.integrations.columns.id"), align: "center" },
        { label: t("bots.integrations.columns.name") },
        { label: t("bots.integrations.columns.actions"), align: "center" },
      ]}
      empty={t(list.search !== "" ? "bots.integrations.emptySearch" : "bots.integrations.empty")}
      renderRow={(item) => (
        <TableRow key={item.id} hover data-testid={`integration-row-${item.id}`}>
          <TableCell align="center" sx={{ width: 72 }}>
            <IntegrationLogo type={item.type} />
          </TableCell>
          <TableCell align="center" sx={{ width: 80 }}>
            {item.id}
          </TableCell>
          <TableCell sx={{ maxWidth: 420, overflowWrap: "anywhere" }}>{item.name}</TableCell>
          <TableCell align="center" sx={{ whiteSpace: "nowrap", width: 120 }}>
            <IconButton
              size="small"
              aria-label={`${t("bots.integrations.edit")} ${item.name}`}
              onClick={() => onEdit(item)}
            >
              <EditIcon fontSize="small" />
            </IconButton>
            <IconButton
              size="small"
              aria-label={`${t("bots.integrations.delete")} ${item.name}`}
              onClick={() => onDelete(item)}
            >
              <DeleteIcon fontSize="small" />
            </IconButton>
          </TableCell>
        </TableRow>
      )}
    />
  );
}
