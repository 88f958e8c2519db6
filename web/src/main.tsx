import "./zodJitless";
import "./i18n";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { registerBackgroundWorker } from "./notifications/backgroundWorker";

const container = document.getElementById("root");
if (!container) throw new Error("index.html lacks #root");
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

registerBackgroundWorker();
