import { CssBaseline, ThemeProvider, type PaletteMode } from "@mui/material";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { pickLang } from "@atende/contracts";
import { useTranslation } from "react-i18next";
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
  // MUI's texts follow the chosen language (pt-BR by default), as the app's own do.
  const { i18n } = useTranslation();
  const lang = pickLang(i18n.language);
  const theme = useMemo(() => buildTheme(mode, lang), [mode, lang]);

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
