import type { Lang } from "@atende/contracts";
import { useEffect, useSyncExternalStore } from "react";
import { fetchPushKey, forgetPushDevice, registerPushDevice } from "../api/push";

/**
 * Web Push on this device: with notifications allowed and not muted here, the browser subscribes
 * with its push service (the server's VAPID key as applicationServerKey) and the server is told,
 * for this session and in the chosen language. The server then sends what the in-app alerts would
 * say while the app is closed or the phone locked (public/sw.js shows it). Muting here, or logging
 * out (the server forgets a session's devices), stops it.
 */

export function pushSupported(): boolean {
  return (
    typeof window !== "undefined" &&
    "serviceWorker" in navigator &&
    "PushManager" in window &&
    "Notification" in window
  );
}

/** How long to wait for the background worker before giving push up (the page's alerts still work). */
const WORKER_WAIT_MS = 10_000;

let active = false;
const listeners = new Set<() => void>();
function setActive(value: boolean) {
  if (active === value) return;
  active = value;
  listeners.forEach((listener) => listener());
}

/** Whether this device is registered for push in this session. */
export function usePushActive(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => active,
  );
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, "="));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function sameKey(subscription: PushSubscription, key: Uint8Array): boolean {
  const current = subscription.options.applicationServerKey;
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === key.length && bytes.every((b, i) => b === key[i]);
}

async function workerRegistration(): Promise<ServiceWorkerRegistration | null> {
  const late = new Promise<null>((resolve) => window.setTimeout(() => resolve(null), WORKER_WAIT_MS));
  return Promise.race([navigator.serviceWorker.ready, late]);
}

/**
 * Subscribes this device (or keeps its subscription, unless the server's key changed) and registers
 * it for this session. Answers whether push is on; any failure leaves the page's own alerts.
 */
export async function turnPushOn(language: Lang): Promise<boolean> {
  try {
    if (!pushSupported() || Notification.permission !== "granted") return false;
    const registration = await workerRegistration();
    if (!registration) return false;
    const key = keyBytes((await fetchPushKey()).publicKey);
    let subscription = await registration.pushManager.getSubscription();
    if (subscription && !sameKey(subscription, key)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ??= await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: key,
    });
    await registerPushDevice(subscription.toJSON(), language);
    setActive(true);
    return true;
  } catch {
    setActive(false);
    return false;
  }
}

/** This device stops hearing the user's pushes: the server forgets it, the browser drops it. */
export async function turnPushOff(): Promise<void> {
  setActive(false);
  if (!pushSupported()) return;
  const registration = await navigator.serviceWorker.getRegistration("/").catch(() => undefined);
  const subscription = await registration?.pushManager.getSubscription().catch(() => null);
  if (!subscription) return;
  await forgetPushDevice(subscription.endpoint).catch(() => undefined);
  await subscription.unsubscribe().catch(() => undefined);
}

/**
 * Keeps this device registered while the user is signed in with notifications on here: at each
 * start (a new session), when the language changes (the pushes' language), and when the browser
 * renews the subscription (the worker says so).
 */
export function usePushDevice(on: boolean, language: Lang): void {
  useEffect(() => {
    if (!on || !pushSupported()) return;
    void turnPushOn(language);
    const onMessage = (event: MessageEvent<unknown>) => {
      if ((event.data as { type?: unknown } | null)?.type === "atende:push-renew") void turnPushOn(language);
    };
    navigator.serviceWorker.addEventListener("message", onMessage);
    return () => navigator.serviceWorker.removeEventListener("message", onMessage);
  }, [on, language]);
}
