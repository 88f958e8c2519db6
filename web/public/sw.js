/*
 * Atende's background worker (back-office section 2: "A background worker is registered on load").
 * It shows notifications (the page's, and Web Push ones that arrive with the app closed or the
 * phone locked) and brings the app forward on its ticket when one is clicked. It caches nothing and
 * has no fetch handler: every page and API call goes to the network as if it were not here, so an
 * update of the app is never hidden behind a stale copy. A new version takes over at once, and it
 * controls the app's pages from the start (what lets a browser offer to install the app).
 */

self.addEventListener("install", () => {
  self.skipWaiting();
});
self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

/** Where a notification leads: a path inside the app (a ticket: /tickets/{uuid}), else /tickets. */
function targetOf(notification) {
  const url = notification.data && notification.data.url;
  return typeof url === "string" && url.startsWith("/") && !url.startsWith("//") ? url : "/tickets";
}

async function appWindows() {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  return windows.filter((client) => new URL(client.url).origin === self.location.origin);
}

/**
 * A click focuses an open tab of the app and asks it to show the ticket (it navigates inside the
 * app, keeping its state); with no tab open, a new one opens on the ticket.
 */
async function openTarget(path) {
  const own = await appWindows();
  const client = own.find((c) => c.focused) || own.find((c) => c.visibilityState === "visible") || own[0];
  if (client) {
    client.postMessage({ type: "atende:open", path });
    return client.focus();
  }
  return self.clients.openWindow(path);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openTarget(targetOf(event.notification)));
});

/**
 * A Web Push from the server (server/src/modules/push): { title, body, url, tag, key, lang }, already
 * decided for this user and written in their language. While the app is on screen it rings and
 * notifies by itself, so the push stays quiet; a notice already showing the same thing (the page
 * showed it from a background tab) is not shown twice.
 */
async function showPush(event) {
  let push = null;
  try {
    push = event.data ? event.data.json() : null;
  } catch {
    push = null;
  }
  if (!push || typeof push.title !== "string" || typeof push.tag !== "string") return;
  const windows = await appWindows();
  if (windows.some((client) => client.visibilityState === "visible")) return;
  const showing = await self.registration.getNotifications({ tag: push.tag });
  if (showing.some((notice) => notice.title === push.title && notice.body === push.body)) return;
  await self.registration.showNotification(push.title, {
    body: push.body,
    tag: push.tag,
    renotify: true,
    lang: push.lang,
    icon: "/icons/icon-192.png",
    badge: "/icons/badge-96.png",
    data: { url: push.url },
  });
}

self.addEventListener("push", (event) => {
  event.waitUntil(showPush(event));
});

/** The browser renewed the subscription: an open app registers the new one with the server. */
self.addEventListener("pushsubscriptionchange", (event) => {
  event.waitUntil(
    appWindows().then((windows) =>
      windows.forEach((client) => client.postMessage({ type: "atende:push-renew" })),
    ),
  );
});
