import SearchIcon from "@mui/icons-material/Search";
import { Autocomplete, Box, Chip, InputAdornment, Stack, TextField } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { fetchTagOptions, fetchUserOptions, type TagOption, ticketKeys } from "../../api/tickets";

export interface SearchState {
  text: string;
  tags: TagOption[];
  users: { id: number; name: string }[];
}

interface SearchFiltersProps {
  value: SearchState;
  onChange(value: SearchState): void;
  /** The admin's user filter (ticket-search:userFilter). */
  withUserFilter: boolean;
  /** Tags seen on listed tickets: the choices while the server has no tags list. */
  knownTags: TagOption[];
}

/** The search tab's text box (debounced by the caller), tag filter and, for admins, user filter. */
export function SearchFilters({ value, onChange, withUserFilter, knownTags }: SearchFiltersProps) {
  const { t } = useTranslation();
  const tags = useQuery({
    queryKey: ticketKeys.tagOptions(),
    queryFn: ({ signal }) => fetchTagOptions(signal),
    staleTime: 60_000,
  });
  const users = useQuery({
    queryKey: ticketKeys.userOptions(),
    queryFn: ({ signal }) => fetchUserOptions(signal),
    enabled: withUserFilter,
    staleTime: 60_000,
  });
  const tagOptions = tags.data ?? knownTags;

  return (
    <Stack spacing={1} sx={{ px: 1.5, pb: 1.5, pt: 1 }}>
      <TextField
        size="small"
        type="search"
        autoFocus
        placeholder={t("tickets.search.placeholder")}
        value={value.text}
        onChange={(event) => onChange({ ...value, text: event.target.value })}
        slotProps={{
          htmlInput: { "aria-label": t("tickets.search.placeholder") },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      <Stack direction="row" spacing={1}>
        <Autocomplete
          multiple
          size="small"
          limitTags={1}
          options={tagOptions}
          value={value.tags}
          onChange={(_, tags) => onChange({ ...value, tags })}
          getOptionLabel={(tag) => tag.name}
          isOptionEqualToValue={(option, tag) => option.id === tag.id}
          noOptionsText={t("tickets.search.noOptions")}
          renderOption={({ key, ...props }, tag) => (
            <Box component="li" key={key} {...props}>
              <Box
                component="span"
                sx={{ width: 10, height: 10, borderRadius: 0.5, bgcolor: tag.color, mr: 1.5, flexShrink: 0 }}
              />
              {tag.name}
            </Box>
          )}
          renderValue={(selected, getItemProps) =>
            selected.map((tag, index) => {
              const { key, ...itemProps } = getItemProps({ index });
              return (
                <Chip
                  key={key}
                  {...itemProps}
                  size="small"
                  label={tag.name}
                  sx={{ bgcolor: tag.color, color: "#fff", "& .MuiChip-deleteIcon": { color: "#fff" } }}
                />
              );
            })
          }
          renderInput={(params) => <TextField {...params} placeholder={t("tickets.search.tags")} />}
          slotProps={{ popper: { sx: { minWidth: 220 } } }}
          sx={{ flex: 1, minWidth: 0 }}
        />
        {withUserFilter && (
          <Autocomplete
            multiple
            size="small"
            limitTags={1}
            options={users.data ?? []}
            value={value.users}
            onChange={(_, picked) => onChange({ ...value, users: picked })}
            getOptionLabel={(user) => user.name}
            isOptionEqualToValue={(option, user) => option.id === user.id}
            noOptionsText={t("tickets.search.noOptions")}
            renderInput={(params) => <TextField {...params} placeholder={t("tickets.search.users")} />}
            slotProps={{ popper: { sx: { minWidth: 220 } } }}
            sx={{ flex: 1, minWidth: 0 }}
          />
        )}
      </Stack>
    </Stack>
  );
}
