import {
  CONTACT_PAGE_SIZE,
  type ContactCreateInput,
  type ContactDTO,
  type ContactListQuery,
  type ContactUpdateInput,
  type ContactsPage,
} from "@atende/contracts";
import { normalizeNumber, numberVariants } from "../../channels/numbers.js";
import type { Executor } from "../../db/client.js";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import { dbErrorCode } from "../../db/errors.js";
import { contactPolicy } from "./policy.js";
import { companyTimeZone } from "../settings/queries.js";
import * as q from "./queries.js";
import type { WhatsappCheck } from "./whatsappCheck.js";

export interface ContactsServiceDeps extends Pick<Deps, "db" | "bus" | "now"> {
  checkOnWhatsapp: WhatsappCheck;
}

/** E.164 digits without "+": at least 8 (the shortest national numbers), at most 15 (E.164's limit). */
export function contactNumberOf(typed: string): string | null {
  const normalized = normalizeNumber(typed);
  return /^\d{8,15}$/.test(normalized) ? normalized : null;
}

function invalidNumber(): AppError {
  return new AppError("ERR_WAPP_INVALID_CONTACT", { invalido: true });
}

export function createContactsService(deps: ContactsServiceDeps) {
  const { db, bus, now, checkOnWhatsapp } = deps;

  /** 409 naming the contact that already has the number, as the spec's alreadyExists / existingContact. */
  async function duplicate(db: Executor, companyId: number, number: string, exceptId?: number) {
    const row = await q.findContactByNumbers(db, companyId, numberVariants(number), exceptId);
    if (!row) return null;
    const existingContact = (await q.presentContacts(db, companyId, [row]))[0]!;
    return new AppError("ERR_DUPLICATED_CONTACT", { alreadyExists: true, existingContact });
  }

  /** The unique index settles a race between two saves of one number; the loser hears who won. */
  async function uniqueNumber<T>(companyId: number, number: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (dbErrorCode(err) === "23505") throw (await duplicate(db, companyId, number)) ?? err;
      throw err;
    }
  }

  /** A number as the contact will hold it: normalized, not another contact's, and on WhatsApp. */
  async function acceptNumber(companyId: number, typed: string, exceptId?: number): Promise<string> {
    const number = contactNumberOf(typed);
    if (!number) throw invalidNumber();
    const taken = await duplicate(db, companyId, number, exceptId);
    if (taken) throw taken;
    await checkOnWhatsapp(companyId, number);
    return number;
  }

  async function filtersOf(
    actor: AuthContext,
    query: Pick<ContactListQuery, "searchParam" | "date" | "dateStart" | "dateEnd">,
  ) {
    return {
      searchParam: query.searchParam,
      date: query.date,
      dateStart: query.dateStart,
      dateEnd: query.dateEnd,
      timeZone: await companyTimeZone(db, actor.companyId),
    };
  }

  return {
    async page(actor: AuthContext, query: ContactListQuery): Promise<ContactsPage> {
      return q.pageContacts(db, actor.companyId, {
        ...(await filtersOf(actor, query)),
        pageNumber: query.pageNumber,
        pageSize: CONTACT_PAGE_SIZE,
      });
    },

    async list(actor: AuthContext, query: ContactListQuery): Promise<ContactDTO[]> {
      return q.allContacts(db, actor.companyId, await filtersOf(actor, query));
    },

    async get(actor: AuthContext, contactId: number): Promise<ContactDTO> {
      const contact = await q.findContact(db, actor.companyId, contactId);
      if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
      return contact;
    },

    async create(actor: AuthContext, input: ContactCreateInput): Promise<ContactDTO> {
      const number = await acceptNumber(actor.companyId, input.number);
      return uniqueNumber(actor.companyId, number, () =>
        inTransaction(db, bus, async (tx, raise) => {
          const row = await q.insertContact(tx, actor.companyId, {
            name: input.name,
            number,
            email: input.email,
            createdAt: now(),
            updatedAt: now(),
          });
          await q.setExtraInfo(tx, actor.companyId, row.id, input.extraInfo);
          const contact = (await q.presentContacts(tx, actor.companyId, [row]))[0]!;
          raise({ type: "contact.saved", companyId: actor.companyId, action: "create", contact });
          return contact;
        }),
      );
    },

    async update(actor: AuthContext, contactId: number, input: ContactUpdateInput): Promise<ContactDTO> {
      const current = await q.findContactRow(db, actor.companyId, contactId);
      if (!current) throw new AppError("ERR_NO_CONTACT_FOUND");
      // The number as stored (a group id, say) comes back unchanged and is not checked again.
      const changesNumber =
        input.number !== undefined &&
        input.number !== current.number &&
        contactNumberOf(input.number) !== current.number;
      const number = changesNumber
        ? await acceptNumber(actor.companyId, input.number!, contactId)
        : undefined;
      return uniqueNumber(actor.companyId, number ?? current.number, () =>
        inTransaction(db, bus, async (tx, raise) => {
          const row = await q.updateContact(tx, actor.companyId, contactId, {
            name: input.name,
            number,
            email: input.email,
            updatedAt: now(),
          });
          if (!row) throw new AppError("ERR_NO_CONTACT_FOUND");
          if (input.extraInfo) await q.setExtraInfo(tx, actor.companyId, contactId, input.extraInfo);
          const contact = (await q.presentContacts(tx, actor.companyId, [row]))[0]!;
          raise({ type: "contact.saved", companyId: actor.companyId, action: "update", contact });
          return contact;
        }),
      );
    },

    /** Deletes the contact with its tickets and messages (the database cascades). */
    async remove(actor: AuthContext, contactId: number): Promise<void> {
      contactPolicy.remove(actor);
      await inTransaction(db, bus, async (tx, raise) => {
        const ticketList = await q.ticketsOfContact(tx, actor.companyId, contactId);
        const gone = await q.deleteContact(tx, actor.companyId, contactId);
        if (!gone) throw new AppError("ERR_NO_CONTACT_FOUND");
        for (const t of ticketList)
          raise({
            type: "ticket.deleted",
            companyId: actor.companyId,
            ticketId: t.id,
            queueId: t.queueId,
            userId: t.userId,
          });
        raise({ type: "contact.deleted", companyId: actor.companyId, contactId });
      });
    },
  };
}

export type ContactsService = ReturnType<typeof createContactsService>;
