import type { ContactRow } from "../contacts/present.js";
import { presentContact } from "../contacts/present.js";
import {
  type ContactIdentity,
  identityIsSettled,
  isContactKeyClash,
  isReconcileRace,
  reconcileContact,
} from "../contacts/queries.js";
import { loadTicket } from "../tickets/queries.js";
import { inTransaction } from "../../events/bus.js";
import type { ChannelAddress, ChannelEvent, ConnectionInfo } from "../../channels/provider.js";
import { findContactByNumber, updateContactById } from "./queries.js";
import type { InboundDeps } from "./service.js";

// What the inbound pipeline keeps of a customer's contact besides their messages: one contact for a
// number and its LID, the profile picture (at most once a day), WhatsApp's name for them.

const PROFILE_PICTURE_MAX_AGE_MS = 24 * 3600_000;

/** Reconciling a LID with its number, then storing again: how many times before giving up. */
const IDENTITY_TRIES = 4;

/** The contact upkeep of one inbound pipeline (its deps: database, bus, clock, log, profile pictures). */
export function contactUpkeep(deps: InboundDeps) {
  const { db, bus, now, log } = deps;

  /** A person's address that names both their number and their LID. */
  function identityOf(connection: ConnectionInfo, address: ChannelAddress): ContactIdentity | null {
    if (address.isGroup || !address.number || !address.lid) return null;
    return { companyId: connection.companyId, number: address.number, lid: address.lid };
  }

  /**
   * Runs `store`; when it meets a contact holding the other half of the address (the LID-only contact
   * of a customer now seen with their number, or the other way round), the contacts are reconciled
   * into one and `store` runs again. The hot path pays nothing for it: only the clash does.
   */
  async function withIdentity<T>(identity: ContactIdentity | null, store: () => Promise<T>): Promise<T> {
    // Without both halves there is nothing to reconcile: `store`'s own answer.
    if (!identity) return store();
    for (let attempt = 1; ; attempt++) {
      try {
        return await store();
      } catch (err) {
        if (attempt >= IDENTITY_TRIES || !isContactKeyClash(err)) throw err;
        await reconcile(identity).catch((race: unknown) => {
          if (!isReconcileRace(race)) throw race;
        });
      }
    }
  }

  /** Makes one contact of a number and a LID (see reconcileContact), telling the agents' lists. */
  async function reconcile(identity: ContactIdentity): Promise<void> {
    const { companyId } = identity;
    await inTransaction(db, bus, async (tx, raise) => {
      const merged = await reconcileContact(tx, identity);
      if (!merged) return;
      if (merged.absorbedId !== null)
        raise({ type: "contact.deleted", companyId, contactId: merged.absorbedId });
      raise({ type: "contact.saved", companyId, action: "update", contact: presentContact(merged.contact) });
      for (const gone of merged.deletedTickets)
        raise({
          type: "ticket.deleted",
          companyId,
          ticketId: gone.id,
          queueId: gone.queueId,
          userId: gone.userId,
        });
      for (const id of new Set(merged.changedTicketIds)) {
        const ticket = await loadTicket(tx, companyId, id);
        if (ticket) raise({ type: "ticket.saved", companyId, ticket });
      }
    });
    log.info({ companyId, lid: identity.lid }, "contacts of one number and its LID reconciled");
  }

  /**
   * At most once a day per contact, never per message: decided at once (no promise for the messages
   * of a contact whose picture is fresh, nearly all), then asked of the session in the background.
   */
  function refreshProfilePicture(connection: ConnectionInfo, address: ChannelAddress, contact: ContactRow) {
    const ask = deps.profilePicture;
    if (!ask || !address.number) return;
    if (contact.profilePicAt && now().getTime() - contact.profilePicAt.getTime() < PROFILE_PICTURE_MAX_AGE_MS)
      return;
    void askProfilePicture(ask, connection, address, contact);
  }

  async function askProfilePicture(
    ask: NonNullable<InboundDeps["profilePicture"]>,
    connection: ConnectionInfo,
    address: ChannelAddress,
    contact: ContactRow,
  ) {
    try {
      const url = (await ask(connection, address)) ?? "";
      const updated = await updateContactById(db, contact.id, {
        profilePicUrl: url,
        profilePicAt: now(),
      });
      if (updated && url !== contact.profilePicUrl) {
        await bus.publish([
          {
            type: "contact.saved",
            companyId: connection.companyId,
            action: "update",
            contact: presentContact(updated),
          },
        ]);
      }
    } catch (err) {
      log.debug({ err }, "profile picture refresh failed");
    }
  }

  async function contactUpdate(
    connection: ConnectionInfo,
    event: Extract<ChannelEvent, { type: "contact" }>,
  ) {
    if (!event.address.number) return;
    // WhatsApp told which number a LID belongs to: a contact known by one half gets the other.
    const identity = identityOf(connection, event.address);
    if (identity && !(await identityIsSettled(db, identity)))
      await withIdentity(identity, () => reconcile(identity));
    const row = await findContactByNumber(db, connection.companyId, event.address.number);
    if (!row) return;
    const rename = event.name && event.name !== row.name && namedBy(event, row) ? event.name : undefined;
    const picture =
      event.profilePicUrl !== undefined && event.profilePicUrl !== row.profilePicUrl
        ? event.profilePicUrl
        : undefined;
    if (!rename && picture === undefined) return;
    const updated = await updateContactById(db, row.id, {
      name: rename,
      profilePicUrl: picture,
      profilePicAt: picture !== undefined ? now() : undefined,
      updatedAt: now(),
    });
    await bus.publish([
      {
        type: "contact.saved",
        companyId: connection.companyId,
        action: "update",
        contact: presentContact(updated!),
      },
    ]);
  }

  return { identityOf, withIdentity, refreshProfilePicture, contactUpdate };
}

/**
 * Whether WhatsApp's name for an address names its contact: a group is called by its subject, as
 * WhatsApp shows it, so a renamed group renames its contact; a person keeps the name the company
 * saved, and takes WhatsApp's (their profile name) only while still named by their number.
 */
function namedBy(event: Extract<ChannelEvent, { type: "contact" }>, row: ContactRow): boolean {
  return (event.address.isGroup && row.isGroup) || row.name === row.number;
}
