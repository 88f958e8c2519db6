import { CssBaseline, ThemeProvider, type PaletteMode } from "@mui/material";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { buildTheme, initialThemeMode, saveThemeMode } from "./theme";

interface ThemeModeValue {
  mode: PaletteMode;
  toggleMode(): void;
}

const ThemeModeContext = createContext<ThemeModeValue>({ mode: "light", toggleMode: () => undefined });

export function useThemeMode(): ThemeModeValue {
  return useContext(ThemeModeContext);
}

/** The MUI theme in the saved (or system) mode; CssBaseline paints the page background from it. */
export function ThemeModeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<PaletteMode>(initialThemeMode);
  const theme = useMemo(() => buildTheme(mode), [mode]);

  // public/theme-boot.js painted the root before the app loaded; keep it in step with the theme.
  useEffect(() => {
    const root = document.documentElement;
    root.style.colorScheme = mode;
    root.style.backgroundColor = theme.palette.background.default;
  }, [mode, theme]);

  const toggleMode = useCallback(() => {
    const next = mode === "dark" ? "light" : "dark";
    saveThemeMode(next);
    setMode(next);
  }, [mode]);

  const value = useMemo(() => ({ mode, toggleMode }), [mode, toggleMode]);
  return (
    <ThemeModeContext value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        {children}
      </ThemeProvider>
    </ThemeModeContext>
  );
}
