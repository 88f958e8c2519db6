import type { PromptDTO } from "@atende/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import { IconButton, TableCell, TableRow } from "@mui/material";
import { useTranslation } from "react-i18next";
import { InfiniteTable } from "../../components/InfiniteTable";
import type { SearchableList } from "../../hooks/useSearchableList";

interface PromptsTableProps {
  list: SearchableList<PromptDTO>;
  onEdit(item: PromptDTO): void;
  onDelete(item: PromptDTO): void;
}

/** Name, queue, max tokens, the tokens it used, actions. */
export function PromptsTable({ list, onEdit, onDelete }: PromptsTableProps) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <InfiniteTable
      list={list}
      columns={[
        { label: t("bots.prompts.columns.name") },
        { label: t("bots.prompts.columns.queue") },
        { label: t("bots.prompts.columns.maxTokens"), align: "center" },
        { label: t("bots.prompts.columns.tokens"), align: "center" },
        { label: t("bots.prompts.columns.actions"), align: "center" },
      ]}
      empty={t(list.search !== "" ? "bots.prompts.emptySearch" : "bots.prompts.empty")}
      renderRow={(item) => (
        <TableRow key={item.id} hover data-testid={`prompt-row-${item.id}`}>
          <TableCell sx={{ maxWidth: 320, overflowWrap: "anywhere" }}>{item.name}</TableCell>
          <TableCell>{item.queue?.name ?? "—"}</TableCell>
          <TableCell align="center">{item.maxTokens}</TableCell>
          <TableCell align="center">{number.format(item.totalTokens)}</TableCell>
          <TableCell align="center" sx={{ whiteSpace: "nowrap", width: 120 }}>
            <IconButton
              size="small"
              aria-label={`${t("bots.prompts.edit")} ${item.name}`}
              onClick={() => onEdit(item)}
            >
              <EditIcon fontSize="small" />
            </IconButton>
            <IconButton
              size="small"
              aria-label={`${t("bots.prompts.delete")} ${item.name}`}
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
