import AddIcon from "@mui/icons-material/Add";
import SearchIcon from "@mui/icons-material/Search";
import { Box, Button, InputAdornment, Paper, Stack, TextField, Typography } from "@mui/material";
import type { ReactNode } from "react";

interface ListPageProps {
  title: string;
  /** The list's total, shown beside the title once known. */
  count?: number;
  searchLabel: string;
  searchText: string;
  onSearchChange(text: string): void;
  addLabel: string;
  addIcon?: ReactNode;
  onAdd(): void;
  /** Buttons before the add button (a link to the page's settings). */
  extraActions?: ReactNode;
  /** The table, filling the framed area (it scrolls itself). */
  children: ReactNode;
  /** Dialogs the page opens. */
  dialogs?: ReactNode;
}

/** The back-office list pages' frame: title and count, search box, add button, the table below. */
export function ListPage(props: ListPageProps) {
  const { title, count, searchLabel, searchText, onSearchChange, addLabel, addIcon, onAdd } = props;
  return (
    <Box
      sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2, flex: 1, minHeight: 0 }}
    >
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5} sx={{ alignItems: { sm: "center" } }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1, fontWeight: 600 }}>
          {title}
          {count !== undefined && (
            <Typography component="span" color="text.secondary" sx={{ ml: 1, fontSize: "1rem" }}>
              ({count})
            </Typography>
          )}
        </Typography>
        <TextField
          size="small"
          type="search"
          placeholder={searchLabel}
          value={searchText}
          onChange={(event) => onSearchChange(event.target.value)}
          sx={{ minWidth: { sm: 280 } }}
          slotProps={{
            htmlInput: { "aria-label": searchLabel },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        {props.extraActions}
        <Button variant="contained" startIcon={addIcon ?? <AddIcon />} onClick={onAdd}>
          {addLabel}
        </Button>
      </Stack>
      <Paper
        variant="outlined"
        sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column", overflow: "hidden" }}
      >
        {props.children}
      </Paper>
      {props.dialogs}
    </Box>
  );
}
