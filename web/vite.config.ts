import type { IncomingMessage } from "node:http";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

const API_URL = process.env.ATENDE_API_URL ?? "http://localhost:8080";

/**
 * First path segments the API answers. Some of them are also page routes (/users, /tickets,
 * /settings ...), so a browser navigation asking for HTML is served the app instead.
 */
const API_PREFIXES = [
  "auth",
  "users",
  "queue",
  "queue-options",
  "queueIntegration",
  "settings",
  "version",
  "health",
  "livez",
  "readyz",
  "whatsapp",
  "whatsappsession",
  "whatsapp-restart",
  "tickets",
  "ticket",
  "ticket-tags",
  "ticket-notes",
  "messages",
  "message",
  "contacts",
  "tags",
  "quick-messages",
  "schedules",
  "announcements",
  "chats",
  "dashboard",
  "plans",
  "companies",
  "helps",
  "invoices",
  "subscription",
  "contact-lists",
  "contact-list-items",
  "campaigns",
  "campaign-settings",
  "files",
  "prompt",
  "forgetpassword",
  "resetpasswords",
  "public",
  "media",
  "simulator",
  "api",
  "push",
  "search",
  "manifest\\.webmanifest",
];

function servesAppShell(req: IncomingMessage): string | undefined {
  const wantsHtml = req.method === "GET" && (req.headers.accept ?? "").includes("text/html");
  return wantsHtml ? "/index.html" : undefined;
}

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      [`^/(${API_PREFIXES.join("|")})(/|\\?|$)`]: {
        target: API_URL,
        changeOrigin: true,
        bypass: servesAppShell,
      },
      "/socket.io": { target: API_URL, ws: true, changeOrigin: true },
    },
  },
  build: {
    rolldownOptions: {
      // The shared contracts run nothing on import: without this, their zod schemas (and zod)
      // would ride in the first chunk whenever a constant is imported.
      treeshake: { moduleSideEffects: [{ test: /\/contracts\/src\//, sideEffects: false }] },
    },
  },
});
