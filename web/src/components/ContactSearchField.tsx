import { LIMITS } from "@atende/contracts";
import { Autocomplete, Box, TextField, Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useState, type Ref } from "react";
import { useTranslation } from "react-i18next";
import { contactKeys } from "../api/contacts";
import { searchContacts, type ContactOption } from "../api/tickets";
import { useDebouncedValue } from "../hooks/useDebouncedValue";
import { ContactAvatar } from "./ContactAvatar";

interface ContactSearchFieldProps {
  value: ContactOption | null;
  onChange(value: ContactOption | null): void;
  /**
   * Where the field's texts are (`contact`, `contactHint`, `searching`, `noContacts` under it): each
   * dialog keeps its own wording.
   */
  texts: "tickets.newTicketDialog" | "schedules.dialog";
  autoFocus?: boolean;
  disabled?: boolean;
  /** A form's error for the field, shown instead of the hint. */
  error?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * A required contact field that searches the company's contacts by name or number as the user
 * types (from LIMITS.contactSearchMinChars characters, after the search debounce), showing each
 * match with its picture and number.
 */
export function ContactSearchField({
  value,
  onChange,
  texts,
  autoFocus,
  disabled = false,
  error,
  inputRef,
}: ContactSearchFieldProps) {
  const { t } = useTranslation();
  const [inputText, setInputText] = useState("");
  const search = useDebouncedValue(inputText.trim(), LIMITS.searchDebounceMs);
  const searchable = search.length >= LIMITS.contactSearchMinChars;
  const contacts = useQuery({
    queryKey: contactKeys.search(search),
    queryFn: ({ signal }) => searchContacts(search, signal),
    enabled: searchable && !disabled,
    staleTime: 10_000,
  });
  const typing = inputText.trim() !== search;
  const options = searchable && contacts.data ? contacts.data : [];
  // Keep the chosen contact among the options, so the field keeps showing it.
  const shown = value && !options.some((c) => c.id === value.id) ? [value, ...options] : options;

  let noOptionsText = t(`${texts}.contactHint`);
  if (searchable && (typing || contacts.isFetching)) noOptionsText = t(`${texts}.searching`);
  else if (searchable) noOptionsText = t(`${texts}.noContacts`);

  return (
    <Autocomplete
      value={value}
      onChange={(_, next) => onChange(next)}
      inputValue={inputText}
      onInputChange={(_, next) => setInputText(next)}
      options={shown}
      filterOptions={(list) => list}
      getOptionLabel={(option) => option.name || option.number}
      isOptionEqualToValue={(option, other) => option.id === other.id}
      loading={searchable && (typing || contacts.isFetching)}
      loadingText={t(`${texts}.searching`)}
      noOptionsText={noOptionsText}
      disabled={disabled}
      renderOption={({ key, ...props }, option) => (
        <Box component="li" key={key} {...props} sx={{ gap: 1.5 }}>
          <ContactAvatar contact={option} size={32} />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" noWrap>
              {option.name || option.number}
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap component="p">
              {option.number}
            </Typography>
          </Box>
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={inputRef}
          autoFocus={autoFocus}
          required
          label={t(`${texts}.contact`)}
          error={Boolean(error)}
          helperText={error ?? (value ? undefined : t(`${texts}.contactHint`))}
        />
      )}
    />
  );
}
