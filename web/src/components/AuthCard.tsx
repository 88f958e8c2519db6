import { Box, Paper } from "@mui/material";
import type { ReactNode } from "react";
import { LanguageSwitch } from "./LanguageSwitch";

/** The pages before a session (login, sign-up, password reset): one card in the middle, the language at the corner. */
export function AuthCard({ maxWidth = 400, children }: { maxWidth?: number; children: ReactNode }) {
  return (
    <Box sx={{ minHeight: "100vh", display: "grid", placeItems: "center", p: 2, position: "relative" }}>
      <Box sx={{ position: "absolute", top: 8, right: 8 }}>
        <LanguageSwitch color="default" />
      </Box>
      <Paper component="main" variant="outlined" sx={{ width: "100%", maxWidth, p: { xs: 3, sm: 4 } }}>
        {children}
      </Paper>
    </Box>
  );
}
