import type { Profile } from "./constants.js";

/**
 * The spec's permission keys and who holds them: one table, read by the server's policies and by
 * the web app to show or hide controls. The server is the authority; the UI only mirrors it.
 */
export const PERMISSIONS = {
  /**
   * The spec's "access to any ticket": every queue's tickets (and those without one) are seen and
   * listed, a ticket is started in any queue or none, another agent's ticket in service is taken,
   * and a ticket is handed to an agent named. The new-ticket dialog and the queue filter offer
   * every queue of the company to its holders.
   */
  "tickets:accessAny": ["admin"],
  "tickets-manager:showall": ["admin"],
  "tickets-manager:closeAll": ["admin"],
  "ticket-options:deleteTicket": ["admin"],
  "ticket-options:spy": ["admin"],
  "ticket-search:userFilter": ["admin"],
  "user-modal:editProfile": ["admin"],
  "user-modal:editQueues": ["admin"],
  "users-page:manage": ["admin"],
  "contacts-page:deleteContact": ["admin"],
  "connections-page:addConnection": ["admin"],
  "connections-page:actionButtons": ["admin"],
  "connections-page:editOrDeleteConnection": ["admin"],
  "simulator:use": ["admin"],
  "drawer-admin-items:view": ["admin"],
  "dashboard:view": ["admin"],
  "settings:edit": ["admin"],
  "queues-page:manage": ["admin"],
  "tags:kanbanSwitch": ["admin", "supervisor"],
  "quick-messages:editAny": ["admin", "supervisor"],
  "quick-messages:global": ["admin"],
  "ticket-notes:deleteAny": ["admin", "supervisor"],
  "schedules:editAny": ["admin", "supervisor"],
  /** Billing: /financeiro, /subscription and the checkout (the super user also sees every company's invoices). */
  "invoices:view": ["admin"],
  /** The /queue-integration and /prompts pages (bots and AI). */
  "bots:manage": ["admin"],
} as const satisfies Record<string, readonly Profile[]>;

export type Permission = keyof typeof PERMISSIONS;

export interface Actor {
  profile: Profile;
  super?: boolean;
}

export function can(actor: Actor | null | undefined, permission: Permission): boolean {
  if (!actor) return false;
  return (PERMISSIONS[permission] as readonly Profile[]).includes(actor.profile);
}
