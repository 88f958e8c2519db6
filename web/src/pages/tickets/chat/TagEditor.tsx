import type { TicketDTO } from "@atende/contracts";
import LocalOfferIcon from "@mui/icons-material/LocalOfferOutlined";
import { Autocomplete, Box, TextField, useTheme } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useTagOptionsLive } from "../../../api/tagsLive";
import { fetchTagOptions, type TagOption, ticketKeys } from "../../../api/tickets";
import { toastError } from "../../../api/toast";
import { TagChip, textOn } from "../../../components/TagChip";
import { syncTicketTags } from "./chatApi";

/** The company's tags to choose from, kept current as tags are created, renamed, recoloured or deleted. */
function useTagOptions() {
  const query = useQuery({
    queryKey: ticketKeys.tagOptions(),
    queryFn: ({ signal }) => fetchTagOptions(signal),
    staleTime: 60_000,
  });
  useTagOptionsLive();
  return query;
}

interface TagEditorProps {
  ticket: TicketDTO;
  /** The ticket as the server answered the change. */
  onSaved(ticket: TicketDTO): void;
}

/**
 * The ticket's tags, chosen from the company's: each change is saved at once (POST /tags/sync).
 * Changes go to the server one after the other, so a quick add-then-remove lands in that order;
 * until the last one answers the editor shows what the agent chose, not the echoes of the earlier
 * ones. Another agent's change arrives with the ticket (useTicketLive) and shows here.
 */
export function TagEditor({ ticket, onSaved }: TagEditorProps) {
  const { t } = useTranslation();
  const dark = useTheme().palette.mode === "dark";
  const options = useTagOptions();
  const [pending, setPending] = useState<TagOption[] | null>(null);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const latest = useRef(0);
  const shown = pending ?? ticket.tags;

  function save(next: TagOption[]) {
    const change = ++latest.current;
    setPending(next);
    const ids = next.map((tag) => tag.id);
    queue.current = queue.current
      .then(() => syncTicketTags(ticket.id, ids))
      .then(
        (saved) => {
          if (change !== latest.current) return;
          onSaved(saved);
          setPending(null);
        },
        (error: unknown) => {
          if (change !== latest.current) return;
          toastError(error);
          // Back to what the server holds.
          setPending(null);
        },
      );
  }

  return (
    <Box
      role="group"
      aria-label={t("chat.header.tags")}
      sx={{
        display: "flex",
        alignItems: "center",
        gap: 1,
        px: { xs: 1.5, sm: 2 },
        py: 0.5,
        minHeight: 40,
        bgcolor: dark ? "#202c33" : "#f0f2f5",
        borderBottom: 1,
        borderColor: "divider",
      }}
    >
      <LocalOfferIcon fontSize="small" sx={{ color: "text.secondary" }} aria-hidden />
      <Autocomplete
        multiple
        size="small"
        options={options.data ?? []}
        loading={options.isPending}
        value={shown}
        onChange={(_, next) => save(next)}
        getOptionLabel={(tag) => tag.name}
        isOptionEqualToValue={(option, tag) => option.id === tag.id}
        filterSelectedOptions
        disableClearable
        noOptionsText={options.data?.length ? t("chat.tags.noMatch") : t("chat.tags.none")}
        loadingText={t("common.loading")}
        renderOption={({ key, ...optionProps }, tag) => (
          <Box component="li" key={key} {...optionProps}>
            <Box
              component="span"
              aria-hidden
              sx={{ width: 12, height: 12, borderRadius: "50%", bgcolor: tag.color, mr: 1.5, flexShrink: 0 }}
            />
            {tag.name}
          </Box>
        )}
        renderValue={(selected, getItemProps) =>
          selected.map((tag, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            return (
              <TagChip
                key={key}
                {...itemProps}
                name={tag.name}
                color={tag.color}
                sx={{ height: 22, "& .MuiChip-deleteIcon": { color: textOn(tag.color), opacity: 0.7 } }}
              />
            );
          })
        }
        renderInput={(params) => (
          <TextField
            {...params}
            variant="standard"
            placeholder={shown.length === 0 ? t("chat.tags.placeholder") : undefined}
            slotProps={{
              ...params.slotProps,
              input: { ...params.slotProps.input, disableUnderline: true },
              htmlInput: { ...params.slotProps.htmlInput, "aria-label": t("chat.tags.label") },
            }}
          />
        )}
        slotProps={{ popper: { sx: { minWidth: 240 } } }}
        sx={{ flex: 1, minWidth: 0 }}
      />
    </Box>
  );
}
