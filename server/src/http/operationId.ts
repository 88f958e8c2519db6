/**
 * The operationId of a declared route in the API document, derived from its method and path so that
 * a generated client's names stay the same from one release to the next:
 *
 * - the resource is the path's first segment, camel-cased (`/contact-lists` → `contactLists`);
 * - the path's other literal segments name a sub-resource or an action (`/campaigns/:id/cancel` →
 *   `cancel`, `/dashboard/ticketsDay` → `ticketsDay`); parameters are left out;
 * - without one, the method says what is done: GET `list`, or `get` when the path ends in a
 *   parameter; POST `create`; PUT `update`; DELETE `delete`;
 * - with one, a GET or a POST is named by it (`campaigns.report`, `campaigns.cancel`), a PUT or a
 *   DELETE by the method and it (`campaigns.deleteMediaUpload`).
 *
 * So `PUT /tickets/:id` is `tickets.update` and `GET /webhooks/:id/deliveries` `webhooks.deliveries`.
 * A route whose derived name reads poorly or clashes with another's declares its own
 * (`operationId: "messages.send"`); the docs test refuses a document with two operations of one name.
 */
export function operationIdOf(method: string, url: string): string {
  const segments = url.split("/").filter(Boolean);
  const literals = segments.filter((s) => !s.startsWith(":"));
  const resource = camel(literals[0] ?? "root");
  const sub = camel(literals.slice(1).join("-"));
  const endsInParam = segments.at(-1)?.startsWith(":") ?? false;
  const verb = method.toUpperCase();
  if (!sub) {
    const plain: Record<string, string> = {
      GET: endsInParam ? "get" : "list",
      POST: "create",
      PUT: "update",
      DELETE: "delete",
    };
    return `${resource}.${plain[verb] ?? verb.toLowerCase()}`;
  }
  if (verb === "GET" || verb === "POST") return `${resource}.${sub}`;
  const prefix = verb === "PUT" ? "update" : verb.toLowerCase();
  return `${resource}.${prefix}${sub[0]!.toUpperCase()}${sub.slice(1)}`;
}

/** `contact-lists` → `contactLists`, `refresh_token` → `refreshToken`, `openapi.json` → `openapiJson`. */
function camel(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words
    .map((w, i) => (i === 0 ? w[0]!.toLowerCase() + w.slice(1) : w[0]!.toUpperCase() + w.slice(1)))
    .join("");
}
