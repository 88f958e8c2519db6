import { matchPath } from "react-router-dom";

/**
 * The id the address bar names under `pattern` (a `:id` segment), read when an event comes rather
 * than from the last render: React Router renders a navigation in a transition, so for a moment after
 * a click (a lazy page loading, a busy machine) the address already names the ticket or chat while
 * the screen still shows the page before it, and a message from that very conversation would ring.
 */
export function idInAddress(pattern: `${string}/:id`): string | undefined {
  return matchPath(pattern, window.location.pathname)?.params.id;
}
