/*
 * Atende's background worker (back-office section 2: "A background worker is registered on load").
 * It only shows notifications and brings the app forward when one is clicked. It caches nothing
 * and has no fetch handler: every page and API call goes to the network as if it were not here, so
 * an update of the app is never hidden behind a stale copy. A new version takes over at once.
 */

self.addEventListener("install", () => {
  self.skipWaiting();
});
// No clients.claim(): nothing here needs to control the pages (their requests never pass through
// it); notices and their clicks reach every tab of the app, controlled or not.

/** Where a notification leads: a path inside the app (a ticket: /tickets/{uuid}), else /tickets. */
function targetOf(notification) {
  const url = notification.data && notification.data.url;
  return typeof url === "string" && url.startsWith("/") && !url.startsWith("//") ? url : "/tickets";
}

/**
 * A click focuses an open tab of the app and asks it to show the ticket (it navigates inside the
 * app, keeping its state); with no tab open, a new one opens on the ticket.
 */
async function openTarget(path) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const own = windows.filter((client) => new URL(client.url).origin === self.location.origin);
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
