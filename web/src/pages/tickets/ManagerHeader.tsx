import type { QueueDTO } from "@atende/contracts";
import AddIcon from "@mui/icons-material/Add";
import DoneAllIcon from "@mui/icons-material/DoneAll";
import FilterListIcon from "@mui/icons-material/FilterList";
import AlarmIcon from "@mui/icons-material/AlarmOutlined";
import {
  Badge,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  IconButton,
  ListItemText,
  ListSubheader,
  Menu,
  MenuItem,
  Stack,
  Switch,
  Tooltip,
} from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { QueueFilter } from "./useQueueFilter";

interface ManagerHeaderProps {
  queueFilter: QueueFilter;
  /** Shown only with tickets-manager:showall. */
  showAll?: { value: boolean; onChange(value: boolean): void };
  /** "Closest to breach first" (the waiting and open lists): shown on the open tab. */
  slaOrder?: { value: boolean; onChange(value: boolean): void };
  /** Shown only with tickets-manager:closeAll. */
  onCloseAll?: () => void;
  onNewTicket(): void;
}

function QueueDot({ color }: { color: string }) {
  return (
    <Box
      component="span"
      sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: color, flexShrink: 0, mr: 1.5 }}
    />
  );
}

/** The queue filter: an icon with a dot while it narrows the lists, a menu of checkboxes. */
function QueueSelect({ queueFilter }: { queueFilter: QueueFilter }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const { options, selected } = queueFilter;
  const narrowed = selected.length < options.length;
  const names = options
    .filter((queue) => selected.includes(queue.id))
    .map((queue) => queue.name)
    .join(", ");
  const summary = narrowed ? names : t("tickets.header.allQueues");

  function toggle(id: number) {
    queueFilter.change(selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id]);
  }

  return (
    <>
      <Tooltip title={`${t("tickets.header.queues")}: ${summary}`}>
        <IconButton
          size="small"
          aria-label={t("tickets.header.queues")}
          aria-haspopup="menu"
          aria-expanded={anchor ? "true" : undefined}
          onClick={(event) => setAnchor(event.currentTarget)}
          color={narrowed ? "primary" : "default"}
        >
          <Badge color="primary" variant="dot" invisible={!narrowed}>
            <FilterListIcon fontSize="small" />
          </Badge>
        </IconButton>
      </Tooltip>
      <Menu
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
        slotProps={{ list: { dense: true, "aria-label": t("tickets.header.queues") } }}
      >
        <ListSubheader sx={{ lineHeight: "32px" }}>{t("tickets.header.queues")}</ListSubheader>
        {options.map((queue: QueueDTO) => {
          const checked = selected.includes(queue.id);
          return (
            <MenuItem
              key={queue.id}
              role="menuitemcheckbox"
              aria-checked={checked}
              // The last ticked queue stays: the lists always show at least one.
              disabled={checked && selected.length === 1}
              onClick={() => toggle(queue.id)}
            >
              <Checkbox size="small" checked={checked} tabIndex={-1} sx={{ p: 0.5, mr: 1 }} />
              <QueueDot color={queue.color} />
              <ListItemText primary={queue.name} />
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}

/**
 * New ticket, then the admin's show-all switch, the "closest to breach first" toggle, the queue
 * filter and close-all.
 */
export function ManagerHeader({
  queueFilter,
  showAll,
  slaOrder,
  onCloseAll,
  onNewTicket,
}: ManagerHeaderProps) {
  const { t } = useTranslation();
  return (
    <Stack
      direction="row"
      useFlexGap
      sx={{ alignItems: "center", flexWrap: "wrap", gap: 0.5, px: 1.5, py: 1, minHeight: 56 }}
    >
      <Button
        variant="contained"
        size="small"
        disableElevation
        startIcon={<AddIcon />}
        onClick={onNewTicket}
        sx={{ flexShrink: 0 }}
      >
        {t("tickets.header.newTicket")}
      </Button>
      <Box sx={{ flex: 1 }} />
      {showAll && (
        <Tooltip title={t("tickets.header.showAllHint")}>
          <FormControlLabel
            sx={{ mr: 0.5, ml: 0, "& .MuiFormControlLabel-label": { fontSize: 14 } }}
            control={
              <Switch
                size="small"
                checked={showAll.value}
                onChange={(event) => showAll.onChange(event.target.checked)}
              />
            }
            label={t("tickets.header.showAll")}
          />
        </Tooltip>
      )}
      {slaOrder && (
        <Tooltip title={t("sla.sort.slaDue")}>
          <IconButton
            size="small"
            aria-label={t("sla.sort.slaDue")}
            aria-pressed={slaOrder.value}
            color={slaOrder.value ? "primary" : "default"}
            onClick={() => slaOrder.onChange(!slaOrder.value)}
          >
            <AlarmIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {queueFilter.options.length > 0 && <QueueSelect queueFilter={queueFilter} />}
      {onCloseAll && (
        <Tooltip title={t("tickets.header.closeAll")}>
          <IconButton size="small" aria-label={t("tickets.header.closeAll")} onClick={onCloseAll}>
            <DoneAllIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </Stack>
  );
}
