import type { CampaignShippingDTO } from "@atende/contracts";

export type RecipientState =
  | "pending"
  | "confirmation"
  | "sent"
  | "delivered"
  | "read"
  | "confirmed"
  | "unconfirmed"
  | "failed"
  | "skipped"
  | "optedOut";

/** What a recipient's row says, finer than its stored state: acks, the confirmation, an opt-out. */
export function recipientState(row: CampaignShippingDTO): RecipientState {
  switch (row.state) {
    case "pending":
      return "pending";
    case "awaiting_confirmation":
      return "confirmation";
    case "failed":
      return "failed";
    case "unconfirmed":
      return "unconfirmed";
    case "skipped":
      return row.error?.startsWith("ERR_CAMPAIGN_OPTED_OUT") ? "optedOut" : "skipped";
    case "sent":
      if ((row.ack ?? 0) >= 3) return "read";
      if ((row.ack ?? 0) >= 2) return "delivered";
      return row.confirmedAt ? "confirmed" : "sent";
  }
}

export const STATE_COLOR: Record<
  RecipientState,
  "default" | "info" | "success" | "warning" | "error" | "primary"
> = {
  pending: "default",
  confirmation: "info",
  sent: "success",
  delivered: "success",
  read: "success",
  confirmed: "primary",
  unconfirmed: "warning",
  failed: "error",
  skipped: "warning",
  optedOut: "warning",
};
