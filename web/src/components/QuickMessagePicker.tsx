import { type QuickMessageDTO, quickMessagePreview, quickMessageSearchOf } from "@atende/contracts";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import {
  CircularProgress,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Paper,
  Popper,
  Typography,
} from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useEffectEvent, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { fetchChatQuickMessages, quickMessageFile, quickMessageKeys } from "../api/quickMessages";
import { useChatQuickMessagesLive } from "../api/quickMessagesLive";
import { toastError } from "../api/toast";

export interface QuickMessageChoice {
  quickMessage: QuickMessageDTO;
  /** The text to put in the message box. */
  message: string;
  /** The attachment, ready to send like any attached file; null when it has none. */
  file: File | null;
}

interface QuickMessagePickerProps {
  /** The message box's text: the list opens when it starts with '/' and has more than 1 character. */
  text: string;
  /** The message box. While the list is open its arrows, Enter, Tab and Esc drive the list. */
  inputElement: HTMLTextAreaElement | HTMLInputElement | null;
  onSelect(choice: QuickMessageChoice): void;
}

const optionId = (listId: string, index: number) => `${listId}-option-${index}`;

/** The user's own quick messages and the global ones whose shortcode matches what follows '/'. */
function matching(list: QuickMessageDTO[], search: string): QuickMessageDTO[] {
  const starts = list.filter((q) => q.shortcode.toLowerCase().startsWith(search));
  const inside = list.filter(
    (q) => !q.shortcode.toLowerCase().startsWith(search) && q.shortcode.toLowerCase().includes(search),
  );
  return [...starts, ...inside];
}

/**
 * The chat input's '/' list: typing '/' and a few letters lists the matching quick messages above the
 * box (previews cut at 35 characters); arrows move, Enter or Tab or a click picks one, Esc closes.
 * A quick message with an attachment hands the file over too.
 */
export function QuickMessagePicker({ text, inputElement, onSelect }: QuickMessagePickerProps) {
  const { t } = useTranslation();
  const listId = useId();
  const search = quickMessageSearchOf(text);
  const [highlighted, setHighlighted] = useState(0);
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const [loadingId, setLoadingId] = useState<number | null>(null);

  const all = useQuery({
    queryKey: quickMessageKeys.chat(),
    queryFn: ({ signal }) => fetchChatQuickMessages(signal),
    staleTime: 60_000,
    enabled: search !== null,
  });
  useChatQuickMessagesLive();

  const items = useMemo(() => (search === null ? [] : matching(all.data ?? [], search)), [all.data, search]);
  const open = search !== null && dismissedFor !== text && Boolean(inputElement);

  // A new search starts at the top of the list.
  useEffect(() => setHighlighted(0), [search]);

  async function pick(quickMessage: QuickMessageDTO) {
    setLoadingId(quickMessage.id);
    try {
      const file = await quickMessageFile(quickMessage);
      setDismissedFor(quickMessage.message);
      onSelect({ quickMessage, message: quickMessage.message, file });
    } catch (error) {
      toastError(error);
    } finally {
      setLoadingId(null);
    }
  }

  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (!open) return;
    if (event.key === "Escape") setDismissedFor(text);
    else if (items.length === 0) return;
    else if (event.key === "ArrowDown") setHighlighted((i) => (i + 1) % items.length);
    else if (event.key === "ArrowUp") setHighlighted((i) => (i - 1 + items.length) % items.length);
    else if ((event.key === "Enter" && !event.shiftKey) || event.key === "Tab") {
      const chosen = items[Math.min(highlighted, items.length - 1)];
      if (chosen) void pick(chosen);
    } else return;
    // Taken by the list: the box does not send, move the cursor or close the chat.
    event.preventDefault();
    event.stopPropagation();
  });

  // Listening on the box itself runs before React's handlers, which listen at the root.
  useEffect(() => {
    if (!inputElement) return;
    const listener = (event: Event) => onKey(event as KeyboardEvent);
    inputElement.addEventListener("keydown", listener);
    return () => inputElement.removeEventListener("keydown", listener);
  }, [inputElement]);

  // The box stays a textbox: it points at the list and at the highlighted option while the list shows.
  const shown = open && items.length > 0;
  const activeId = shown ? optionId(listId, Math.min(highlighted, items.length - 1)) : null;
  useEffect(() => {
    if (!inputElement) return;
    inputElement.setAttribute("aria-autocomplete", "list");
    if (shown) inputElement.setAttribute("aria-controls", listId);
    else inputElement.removeAttribute("aria-controls");
    if (activeId) inputElement.setAttribute("aria-activedescendant", activeId);
    else inputElement.removeAttribute("aria-activedescendant");
  }, [inputElement, shown, listId, activeId]);

  // The arrows may move past the list's visible part.
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: "nearest" });
  }, [activeId]);

  if (!open) return null;
  return (
    <Popper
      open
      anchorEl={inputElement}
      placement="top-start"
      style={{
        width: inputElement?.clientWidth ? Math.max(inputElement.clientWidth, 280) : 320,
        zIndex: 1300,
      }}
    >
      <Paper elevation={6} sx={{ maxHeight: 280, overflowY: "auto", mb: 1 }}>
        {items.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
            {all.isPending ? t("common.loading") : t("quickMessages.picker.empty")}
          </Typography>
        ) : (
          <List dense id={listId} role="listbox" aria-label={t("quickMessages.picker.label")}>
            {items.map((item, index) => (
              <ListItemButton
                key={item.id}
                id={optionId(listId, index)}
                role="option"
                aria-selected={index === highlighted}
                selected={index === highlighted}
                onMouseEnter={() => setHighlighted(index)}
                // Keep the focus in the message box.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => void pick(item)}
              >
                <ListItemText
                  primary={`/${item.shortcode}`}
                  secondary={quickMessagePreview(item.message)}
                  slotProps={{ primary: { sx: { fontWeight: 600 } }, secondary: { noWrap: true } }}
                />
                {(item.mediaUrl || loadingId === item.id) && (
                  <ListItemIcon sx={{ minWidth: 0, ml: 1 }} aria-label={t("quickMessages.picker.withMedia")}>
                    {loadingId === item.id ? (
                      <CircularProgress size={18} />
                    ) : (
                      <AttachFileIcon fontSize="small" />
                    )}
                  </ListItemIcon>
                )}
              </ListItemButton>
            ))}
          </List>
        )}
      </Paper>
    </Popper>
  );
}
