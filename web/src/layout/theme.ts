import { enUS, esES, ptBR } from "@mui/material/locale";
import { createTheme, type PaletteMode } from "@mui/material/styles";
import { enUS as chartsEnUS, ptBR as chartsPtBR } from "@mui/x-charts/locales";
import type { Lang } from "@atende/contracts";

const THEME_KEY = "preferredTheme";

/** The saved choice, else the system's. Read synchronously so the first render is already right. */
export function initialThemeMode(): PaletteMode {
  try {
    const saved = localStorage.getItem(THEME_KEY);
    if (saved === "light" || saved === "dark") return saved;
    return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  } catch {
    return "light";
  }
}

export function saveThemeMode(mode: PaletteMode): void {
  localStorage.setItem(THEME_KEY, mode);
}

// Backgrounds are repeated in public/theme-boot.js, which paints them before the app loads.
// Every text/background pair below has a contrast ratio of at least 4.5:1 (WCAG AA).
const palettes = {
  light: {
    primary: { main: "#007a63", contrastText: "#ffffff" },
    secondary: { main: "#3b4a54" },
    background: { default: "#f0f2f5", paper: "#ffffff" },
    text: { primary: "#111b21", secondary: "#54656f" },
    success: { main: "#1b7f3b" },
    // MUI's #ed6c02 is 3.1:1 on white: a status chip or an outlined button in it could not be read.
    warning: { main: "#b45309", contrastText: "#ffffff" },
  },
  dark: {
    // `dark` is the contained button's hover: lighter here, as MUI's darker one leaves 3:1 under dark text.
    primary: { main: "#00a884", dark: "#06cf9c", contrastText: "#111b21" },
    secondary: { main: "#aebac1" },
    background: { default: "#111b21", paper: "#202c33" },
    text: { primary: "#e9edef", secondary: "#aebac1" },
    success: { main: "#25d366" },
    // MUI's #f44336 is 3.9:1 on the dark paper ("Desconectar" on /connections).
    error: { main: "#ff7961" },
  },
} as const;

/**
 * MUI's own texts (pagination, "No options", close buttons...) and the charts' in the chosen
 * language. The charts have no Spanish pack: their few texts are given where they are drawn.
 */
const MUI_LOCALES = { pt: [ptBR, chartsPtBR], en: [enUS, chartsEnUS], es: [esES] } as const;

export function buildTheme(mode: PaletteMode, lang: Lang = "pt") {
  return createTheme(
    {
      palette: { mode, ...palettes[mode] },
      shape: { borderRadius: 8 },
      typography: {
        fontFamily: '"Segoe UI", "Helvetica Neue", Helvetica, Roboto, Arial, sans-serif',
        button: { textTransform: "none", fontWeight: 600 },
      },
      components: {
        MuiAppBar: { defaultProps: { elevation: 0 } },
        MuiPaper: { styleOverrides: { root: { backgroundImage: "none" } } },
        MuiTableCell: { styleOverrides: { head: { fontWeight: 600 } } },
        MuiCssBaseline: {
          styleOverrides: {
            // Less motion for those who ask their system for it (WCAG 2.3.3): transitions, ripples,
            // spinners and skeletons end at once instead of moving.
            "@media (prefers-reduced-motion: reduce)": {
              "*, *::before, *::after": {
                animationDuration: "0.01ms !important",
                animationIterationCount: "1 !important",
                transitionDuration: "0.01ms !important",
                scrollBehavior: "auto !important",
              },
            },
          },
        },
      },
    },
    ...MUI_LOCALES[lang],
  );
}
