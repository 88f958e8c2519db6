import { expect } from "vitest";
import { WEBHOOK_DELIVERY_EVENTS, webhookPayloadSchema } from "@atende/contracts";
import { undeclared } from "../http/answerCheck.js";

/**
 * A delivery's body is exactly what the API document's `webhooks` section says its event carries
 * (contracts' WEBHOOK_PAYLOADS): every field of the right type, none it does not name.
 */
export function expectAsDocumented(body: unknown) {
  const event = (body as { event?: string }).event as (typeof WEBHOOK_DELIVERY_EVENTS)[number];
  expect(WEBHOOK_DELIVERY_EVENTS).toContain(event);
  const parsed = webhookPayloadSchema(event).safeParse(body);
  const issues = parsed.success
    ? []
    : parsed.error.issues.map((i) => `${i.path.join(".") || "(the body)"}: ${i.message}`);
  expect(issues, `${event}'s body differs from the document`).toEqual([]);
  expect(undeclared(body, parsed.data), `${event}'s body has fields the document does not name`).toEqual([]);
}
