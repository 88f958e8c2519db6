/* global matchMedia, document */
// Runs before the first paint so a dark-mode user never sees a white page while the app loads.
// The two background colours repeat the ones in src/layout/theme.ts.
(function () {
  try {
    var saved = localStorage.getItem("preferredTheme");
    var dark = saved ? saved === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
    var root = document.documentElement;
    root.style.colorScheme = dark ? "dark" : "light";
    root.style.backgroundColor = dark ? "#111b21" : "#f0f2f5";
  } catch {
    // Storage may be blocked; the app applies the theme once it starts.
  }
})();
