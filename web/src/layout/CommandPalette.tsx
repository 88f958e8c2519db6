import { type ContactDTO, PALETTE_LIMITS, type QueueDTO, type TicketDTO } from "@atende/contracts";
import CloseIcon from "@mui/icons-material/Close";
import SearchIcon from "@mui/icons-material/Search";
import {
  Box,
  Dialog,
  IconButton,
  InputBase,
  ListSubheader,
  Paper,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from "@mui/material";
import useAutocomplete from "@mui/material/useAutocomplete";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { queueKeys } from "../api/queues";
import { fetchPaletteResults, paletteKeys } from "../api/search";
import { hasCampaignFlag } from "../api/session";
import { fetchQueues } from "../api/users";
import { useAuth, useSessionUser } from "../auth/AuthContext";
import { can } from "../auth/permissions";
import { ContactAvatar } from "../components/ContactAvatar";
import { TicketStartDialog } from "../components/TicketStartDialog";
import { useDebouncedValue } from "../hooks/useDebouncedValue";
import { menuGroups } from "./menuEntries";
import { useThemeMode } from "./ThemeModeProvider";
import { visuallyHidden } from "../components/visuallyHidden";

type Group = "tickets" | "contacts" | "actions" | "pages";

type PaletteOption =
  | { group: "tickets"; key: string; label: string; ticket: TicketDTO }
  | { group: "contacts"; key: string; label: string; contact: ContactDTO }
  | { group: "actions" | "pages"; key: string; label: string; run(): void };

/** Lower case without accents: "Configurações" is found by "configuracoes". */
const folded = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

const isMac = () => typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * Ctrl/Cmd+K anywhere in the app, or the top bar's search button (the way in on a phone), opens the
 * command palette: find a ticket by contact name, number, message or id, a contact, a page, or run
 * an action (a new ticket, a queue's waiting tickets, the theme), all by keyboard. Tickets and
 * contacts come from the server as one types (GET /search), under the ticket list's visibility, so
 * an agent finds only what they may open.
 */
export function CommandPaletteButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // A new ticket from the palette: with a contact picked there, or searched in the dialog.
  const [starting, setStarting] = useState<{ contact?: ContactDTO } | null>(null);
  const navigate = useNavigate();

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "k") {
        event.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const label = isMac() ? t("palette.open").replace("Ctrl+K", "⌘K") : t("palette.open");
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={label}
          aria-keyshortcuts="Control+K Meta+K"
          onClick={() => setOpen(true)}
        >
          <SearchIcon />
        </IconButton>
      </Tooltip>
      {open && (
        <CommandPalette
          onClose={() => setOpen(false)}
          onStartTicket={(contact) => {
            setOpen(false);
            setStarting({ contact });
          }}
        />
      )}
      {starting && (
        <TicketStartDialog
          contact={starting.contact}
          onStarted={(ticket) => {
            setStarting(null);
            void navigate(`/tickets/${ticket.uuid}`);
          }}
          onOpenExisting={(ticket) => {
            setStarting(null);
            void navigate(`/tickets/${ticket.uuid}`);
          }}
          onClose={() => setStarting(null)}
        />
      )}
    </>
  );
}

function CommandPalette({
  onClose,
  onStartTicket,
}: {
  onClose(): void;
  onStartTicket(contact?: ContactDTO): void;
}) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down("sm"), { noSsr: true });
  const navigate = useNavigate();
  const user = useSessionUser();
  const { pastDue } = useAuth();
  const { mode, toggleMode } = useThemeMode();
  const titleId = useId();
  const [text, setText] = useState("");
  const typed = useDebouncedValue(text.trim(), PALETTE_LIMITS.debounceMs);

  const found = useQuery({
    queryKey: paletteKeys.search(typed),
    queryFn: ({ signal }) => fetchPaletteResults(typed, signal),
    enabled: typed.length >= PALETTE_LIMITS.minChars && pastDue === null,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const anyQueue = can(user, "tickets:accessAny");
  const companyQueues = useQuery({
    queryKey: queueKeys.all,
    queryFn: ({ signal }) => fetchQueues(signal),
    enabled: anyQueue && pastDue === null,
  });
  const queues: QueueDTO[] = anyQueue ? (companyQueues.data ?? user.queues) : user.queues;

  const options = useMemo<PaletteOption[]>(() => {
    const go = (to: string, state?: unknown) => () => void navigate(to, { state });
    const actions: PaletteOption[] =
      pastDue === null
        ? [
            {
              group: "actions",
              key: "new-ticket",
              label: t("palette.actions.newTicket"),
              run: () => onStartTicket(),
            },
            ...queues.map<PaletteOption>((queue) => ({
              group: "actions",
              key: `queue-${queue.id}`,
              label: t("palette.actions.queue", { name: queue.name }),
              run: go("/tickets", { queueId: queue.id }),
            })),
          ]
        : [];
    actions.push(
      {
        group: "actions",
        key: "theme",
        label: mode === "dark" ? t("palette.actions.lightMode") : t("palette.actions.darkMode"),
        run: toggleMode,
      },
      { group: "actions", key: "reload", label: t("topBar.refresh"), run: () => window.location.reload() },
    );
    const pages: PaletteOption[] = menuGroups(user, {
      campaigns: hasCampaignFlag(),
      pastDue: pastDue !== null,
    })
      .flatMap((group) => group.entries)
      .map((entry) => ({
        group: "pages",
        key: `page-${entry.to}`,
        label: t(`pages.${entry.page}`),
        run: go(entry.to),
      }));
    const wanted = folded(text.trim());
    const local = [...actions, ...pages].filter((o) => !wanted || folded(o.label).includes(wanted));
    if (!wanted || typed !== text.trim() || !found.data) return local;
    return [
      ...found.data.tickets.map<PaletteOption>((ticket) => ({
        group: "tickets",
        key: `ticket-${ticket.id}`,
        label: ticket.contact.name || ticket.contact.number,
        ticket,
      })),
      ...found.data.contacts.map<PaletteOption>((contact) => ({
        group: "contacts",
        key: `contact-${contact.id}`,
        label: contact.name || contact.number,
        contact,
      })),
      ...local,
    ];
  }, [t, navigate, onStartTicket, queues, mode, toggleMode, user, pastDue, text, typed, found.data]);

  function choose(option: PaletteOption) {
    onClose();
    if (option.group === "tickets") void navigate(`/tickets/${option.ticket.uuid}`);
    else if (option.group === "contacts") onStartTicket(option.contact);
    else option.run();
  }

  const { getRootProps, getInputProps, getListboxProps, getOptionProps, groupedOptions } = useAutocomplete<
    PaletteOption,
    false,
    true,
    false
  >({
    id: `palette-${titleId}`,
    options,
    open: true,
    // The list stays open while the palette is; Escape (which the field keeps from the dialog) closes it.
    onClose: (_, reason) => {
      if (reason === "escape") onClose();
    },
    disableClearable: true,
    autoHighlight: true,
    clearOnBlur: false,
    // The server already matched tickets and contacts; actions and pages are matched above.
    filterOptions: (list) => list,
    groupBy: (option) => option.group,
    getOptionLabel: (option) => option.label,
    getOptionKey: (option) => option.key,
    isOptionEqualToValue: (a, b) => a.key === b.key,
    inputValue: text,
    onInputChange: (_, value, reason) => {
      if (reason !== "reset") setText(value);
    },
    onChange: (_, value) => choose(value),
  });

  const busy = typed !== text.trim() || found.isFetching;
  const groups = groupedOptions as unknown as {
    key: number;
    index: number;
    group: Group;
    options: PaletteOption[];
  }[];
  return (
    <Dialog
      open
      onClose={onClose}
      fullScreen={phone}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
      slotProps={{ paper: { sx: { alignSelf: phone ? "stretch" : "flex-start", mt: phone ? 0 : "10vh" } } }}
    >
      <Typography id={titleId} component="h2" sx={visuallyHidden}>
        {t("palette.title")}
      </Typography>
      <Box {...getRootProps()} sx={{ display: "flex", flexDirection: "column", minHeight: 0 }}>
        <Box
          sx={{
            display: "flex",
            alignItems: "center",
            gap: 1.5,
            px: 2,
            py: 1.5,
            borderBottom: 1,
            borderColor: "divider",
          }}
        >
          <SearchIcon color="action" />
          <InputBase
            autoFocus
            fullWidth
            placeholder={t("palette.input")}
            inputProps={{
              ...getInputProps(),
              "aria-label": t("palette.input"),
              "aria-describedby": `${titleId}-hint`,
            }}
            sx={{ fontSize: "1.05rem" }}
          />
          {/* A phone has no Escape key: the full-screen palette closes here. */}
          {phone && (
            <IconButton edge="end" aria-label={t("palette.close")} onClick={onClose}>
              <CloseIcon />
            </IconButton>
          )}
        </Box>
        <Paper
          component="ul"
          elevation={0}
          square
          {...getListboxProps()}
          aria-label={t("palette.title")}
          sx={{
            listStyle: "none",
            m: 0,
            p: 0,
            overflowY: "auto",
            maxHeight: phone ? "none" : "60vh",
            flex: 1,
          }}
        >
          {groups.map((group) => (
            <li key={group.key} role="presentation">
              <ListSubheader
                component="div"
                id={`${titleId}-${group.group}`}
                role="presentation"
                sx={{ lineHeight: "32px" }}
              >
                {t(`palette.groups.${group.group}`)}
              </ListSubheader>
              <Box
                component="ul"
                role="group"
                aria-labelledby={`${titleId}-${group.group}`}
                sx={{ listStyle: "none", m: 0, p: 0 }}
              >
                {group.options.map((option, i) => {
                  const { key, ...props } = getOptionProps({ option, index: group.index + i });
                  return (
                    <Box
                      component="li"
                      key={key}
                      {...props}
                      sx={{
                        display: "flex",
                        alignItems: "center",
                        gap: 1.5,
                        px: 2,
                        py: 1,
                        cursor: "pointer",
                        "&.Mui-focused": { bgcolor: "action.selected" },
                      }}
                    >
                      <OptionView option={option} />
                    </Box>
                  );
                })}
              </Box>
            </li>
          ))}
        </Paper>
        <Typography
          id={`${titleId}-hint`}
          role="status"
          variant="caption"
          color="text.secondary"
          sx={{ px: 2, py: 1, borderTop: 1, borderColor: "divider" }}
        >
          {busy && text.trim()
            ? t("palette.searching")
            : groups.length === 0
              ? t("palette.nothing")
              : t("palette.hint")}
        </Typography>
      </Box>
    </Dialog>
  );
}

function OptionView({ option }: { option: PaletteOption }): ReactNode {
  const { t } = useTranslation();
  if (option.group === "tickets") {
    const { ticket } = option;
    const status = t(`palette.status.${ticket.status}`);
    return (
      <>
        <ContactAvatar contact={ticket.contact} size={32} />
        <Box sx={{ minWidth: 0 }}>
          <Typography noWrap>
            {option.label}{" "}
            <Typography component="span" color="text.secondary">
              · {t("palette.ticket", { id: ticket.id })}
            </Typography>
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            {[status, ticket.queue?.name ?? t("palette.noQueue"), ticket.contact.number]
              .filter(Boolean)
              .join(" · ")}
          </Typography>
        </Box>
      </>
    );
  }
  if (option.group === "contacts") {
    return (
      <>
        <ContactAvatar contact={option.contact} size={32} />
        <Box sx={{ minWidth: 0 }}>
          <Typography noWrap>{option.label}</Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            {option.contact.number}
          </Typography>
        </Box>
      </>
    );
  }
  return <Typography noWrap>{option.label}</Typography>;
}
