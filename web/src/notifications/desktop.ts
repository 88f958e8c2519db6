import { backgroundRegistration } from "./backgroundWorker";
import { useEffect, useState } from "react";

/** The browser's answer for notifications, or "unsupported" where there is no Notification API. */
export type DesktopPermission = NotificationPermission | "unsupported";

/** The user's own switch (kept locally): notifications may be allowed by the browser yet muted here. */
const MUTED_KEY = "notifications.desktopMuted";

function supported(): boolean {
  return typeof window !== "undefined" && "Notification" in window;
}

export function desktopPermission(): DesktopPermission {
  return supported() ? Notification.permission : "unsupported";
}

/** Asks the browser; must run from a user gesture (a click), or browsers ignore or block it. */
export async function askDesktopPermission(): Promise<DesktopPermission> {
  if (!supported()) return "unsupported";
  return Notification.requestPermission();
}

export function desktopMuted(): boolean {
  return localStorage.getItem(MUTED_KEY) === "true";
}

export function setDesktopMuted(muted: boolean): void {
  localStorage.setItem(MUTED_KEY, String(muted));
}

/** The permission as it is now, following changes made in the browser's site settings too. */
export function useDesktopPermission(): [DesktopPermission, (value: DesktopPermission) => void] {
  const [permission, setPermission] = useState(desktopPermission);
  useEffect(() => {
    if (!supported() || !navigator.permissions) return;
    let status: PermissionStatus | null = null;
    let cancelled = false;
    const update = () => setPermission(desktopPermission());
    navigator.permissions
      .query({ name: "notifications" })
      .then((result) => {
        if (cancelled) return;
        status = result;
        status.addEventListener("change", update);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      status?.removeEventListener("change", update);
    };
  }, []);
  return [permission, setPermission];
}

interface DesktopNotice {
  title: string;
  body: string;
  icon?: string;
  /** One notice per tag: a newer one replaces it (and rings again). */
  tag: string;
  /** The app's path it leads to (a ticket: /tickets/{uuid}). */
  url: string;
  onClick(): void;
}

const shown = new Map<string, Notification>();

/**
 * Shows a system notification when the browser allows it and the user has not muted them here.
 * While the app is on screen the page shows it; in a background tab (or where pages may not, as on
 * mobile Chrome) the background worker does, so it stays until read and a click finds the app,
 * or opens it on the ticket when the tab is gone.
 */
export function showDesktopNotification(notice: DesktopNotice): void {
  if (desktopPermission() !== "granted" || desktopMuted()) return;
  if (document.visibilityState === "hidden" || !showFromPage(notice)) void showFromWorker(notice);
}

// `renotify` (Chromium) is not in TypeScript's DOM types yet.
type Options = NotificationOptions & { renotify: boolean };

function showFromPage({ title, body, icon, tag, onClick }: DesktopNotice): boolean {
  const options: Options = { body, icon, tag, renotify: true };
  let notice: Notification;
  try {
    notice = new Notification(title, options);
  } catch {
    return false; // Mobile Chrome only notifies through a service worker.
  }
  shown.set(tag, notice);
  notice.onclick = () => {
    window.focus();
    notice.close();
    onClick();
  };
  notice.onclose = () => {
    if (shown.get(tag) === notice) shown.delete(tag);
  };
  return true;
}

async function showFromWorker({ title, body, icon, tag, url }: DesktopNotice): Promise<void> {
  const registration = await backgroundRegistration();
  if (!registration) return;
  // A Web Push of the same message may have come first (notifications/push.ts): not shown twice.
  const showing = await registration.getNotifications({ tag }).catch(() => []);
  if (showing.some((notice) => notice.title === title && notice.body === body)) return;
  const options: Options = { body, icon, tag, renotify: true, data: { url } };
  await registration.showNotification(title, options).catch(() => undefined);
}

/** Takes a notice away, e.g. once its ticket is on screen (the worker's too). */
export function closeDesktopNotification(tag: string): void {
  shown.get(tag)?.close();
  shown.delete(tag);
  void backgroundRegistration().then(async (registration) => {
    for (const notice of (await registration?.getNotifications({ tag }).catch(() => [])) ?? [])
      notice.close();
  });
}
