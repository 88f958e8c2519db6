import { useEffect } from "react";
import { useNavigate } from "react-router-dom";

/**
 * The background worker (public/sw.js, scope /): it shows notifications the browser keeps after the
 * tab goes to the background (or is closed), and a click on one brings the app up on its ticket.
 * It caches nothing (no fetch handler), so it never serves a stale app after an update.
 */
const SCRIPT = "/sw.js";

function available(): boolean {
  return typeof navigator !== "undefined" && "serviceWorker" in navigator;
}

/** Registered once the page has loaded, so it never competes with the app's first requests. */
export function registerBackgroundWorker(): void {
  if (!available()) return;
  const register = () => {
    // updateViaCache "none": the browser always asks the server for sw.js, so a new one takes over.
    navigator.serviceWorker.register(SCRIPT, { scope: "/", updateViaCache: "none" }).catch(() => undefined); // notifications then come from the page alone
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

/** The active worker's registration, or null (none yet, or no service workers in this browser). */
export async function backgroundRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (!available()) return null;
  const registration = await navigator.serviceWorker.getRegistration("/").catch(() => undefined);
  return registration?.active ? registration : null;
}

/** A notification the worker showed was clicked: the app goes to its ticket (inside the SPA). */
export function useBackgroundWorkerNavigation(): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (!available()) return;
    const onMessage = (event: MessageEvent<unknown>) => {
      const data = event.data as { type?: unknown; path?: unknown } | null;
      if (data?.type !== "atende:open" || typeof data.path !== "string") return;
      if (!data.path.startsWith("/") || data.path.startsWith("//")) return;
      void navigate(data.path);
    };
    navigator.serviceWorker.addEventListener("message", onMessage);
    return () => navigator.serviceWorker.removeEventListener("message", onMessage);
  }, [navigate]);
}
