import { finished } from "node:stream/promises";
import * as XLSX from "@e965/xlsx";
import {
  CONTACT_LISTS_PAGE_SIZE,
  CONTACT_LIST_EXAMPLE_ROWS,
  CONTACT_LIST_IMPORT_REASONS,
  CONTACT_LIST_ITEMS_PAGE_SIZE,
  type ContactListCreateInput,
  type ContactListDTO,
  type ContactListImportDTO,
  type ContactListItemCreateInput,
  type ContactListItemDTO,
  type ContactListItemQuery,
  type ContactListItemUpdateInput,
  type ContactListItemsPage,
  type ContactListUpdateInput,
  type ContactListsPage,
  type ContactListsQuery,
  type Lang,
  validationMessage,
} from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError, uniqueOr } from "../../http/errors.js";
import type { ReceiveUpload } from "../../http/upload.js";
import { enqueueJob } from "../../jobs/runner.js";
import { toCsv } from "../contacts/csv.js";
import { CONTACT_LIST_IMPORT_JOB, enqueueListCheck } from "./jobs.js";
import { normalizeListNumber } from "./numbers.js";
import { contactListPolicy } from "./policy.js";
import { presentContactList, presentImport, presentItem } from "./present.js";
import { type ParkedReadings, type SheetReading, openSheetReading } from "./sheetReader.js";
import * as q from "./queries.js";

export type ContactListsDeps = Pick<Deps, "db" | "bus" | "now" | "media">;

/** A bad row's reason in the caller's language (an import reason, or a validation message). */
export function reasonText(reason: string, lang: Lang): string {
  const own = (CONTACT_LIST_IMPORT_REASONS as Record<string, Record<Lang, string>>)[reason];
  return own ? own[lang] : validationMessage(reason, lang);
}

/** Contact lists and their items: the audiences of campaigns, with spreadsheet import. */
export function createContactListsService({
  db,
  bus,
  now,
  media,
  readings,
}: ContactListsDeps & { readings: ParkedReadings }) {
  /** The caller's company's list, for one who may manage lists (another company's is 404 first). */
  async function existingList(actor: AuthContext, id: number) {
    const list = await q.findContactList(db, actor.companyId, id);
    if (!list) throw new AppError("ERR_NO_CONTACT_LIST_FOUND");
    contactListPolicy.manage(actor);
    return list;
  }

  async function existingItem(actor: AuthContext, id: number) {
    const item = await q.findItem(db, actor.companyId, id);
    if (!item) throw new AppError("ERR_NO_CONTACT_LIST_ITEM_FOUND");
    contactListPolicy.manage(actor);
    return item;
  }

  async function ownConnection(companyId: number, whatsappId: number | null | undefined) {
    if (whatsappId && !(await q.companyConnection(db, companyId, whatsappId)))
      throw new AppError("ERR_NO_WAPP_FOUND");
  }

  function numberOf(raw: string): string {
    const number = normalizeListNumber(raw);
    if (!number) throw new AppError("ERR_CONTACT_LIST_ITEM_INVALID_NUMBER");
    return number;
  }

  return {
    async page(actor: AuthContext, query: ContactListsQuery): Promise<ContactListsPage> {
      const { rows, count } = await q.pageContactLists(db, actor.companyId, {
        ...query,
        pageSize: CONTACT_LISTS_PAGE_SIZE,
      });
      return {
        records: rows.map(presentContactList),
        count,
        hasMore: query.pageNumber * CONTACT_LISTS_PAGE_SIZE < count,
      };
    },

    async list(actor: AuthContext): Promise<ContactListDTO[]> {
      return (await q.allContactLists(db, actor.companyId)).map(presentContactList);
    },

    async get(actor: AuthContext, id: number): Promise<ContactListDTO> {
      return presentContactList(await existingList(actor, id));
    },

    async create(actor: AuthContext, input: ContactListCreateInput): Promise<ContactListDTO> {
      await ownConnection(actor.companyId, input.whatsappId);
      return inTransaction(db, bus, async (tx, raise) => {
        const at = now();
        const row = await q.insertContactList(tx, {
          companyId: actor.companyId,
          name: input.name,
          whatsappId: input.whatsappId ?? null,
          createdAt: at,
          updatedAt: at,
        });
        const record = presentContactList({ ...row, contactsCount: 0 });
        raise({
          type: "contactList.changed",
          companyId: actor.companyId,
          payload: { action: "create", record },
        });
        return record;
      });
    },

    async update(actor: AuthContext, id: number, input: ContactListUpdateInput): Promise<ContactListDTO> {
      const before = await existingList(actor, id);
      await ownConnection(actor.companyId, input.whatsappId);
      return inTransaction(db, bus, async (tx, raise) => {
        const row = await q.updateContactList(tx, actor.companyId, id, {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.whatsappId !== undefined ? { whatsappId: input.whatsappId } : {}),
          updatedAt: now(),
        });
        if (!row) throw new AppError("ERR_NO_CONTACT_LIST_FOUND");
        const record = presentContactList({ ...row, contactsCount: before.contactsCount });
        raise({
          type: "contactList.changed",
          companyId: actor.companyId,
          payload: { action: "update", record },
        });
        return record;
      });
    },

    async remove(actor: AuthContext, id: number): Promise<void> {
      await existingList(actor, id);
      await inTransaction(db, bus, async (tx, raise) => {
        if (!(await q.deleteContactList(tx, actor.companyId, id)))
          throw new AppError("ERR_NO_CONTACT_LIST_FOUND");
        raise({ type: "contactList.changed", companyId: actor.companyId, payload: { action: "delete", id } });
      });
    },

    /**
     * POST /contact-lists/{id}/upload: the spreadsheet is checked to be readable (a header with a
     * number column), stored, and read into the list by a durable job; answers the import's progress.
     */
    async upload(actor: AuthContext, id: number, receive: ReceiveUpload): Promise<ContactListImportDTO> {
      const list = await existingList(actor, id);
      // Written to disk as it arrives and checked there in a worker: the server never holds the file.
      const { filename, saved: stored } = await receive(
        async (stream, name) => {
          const ext = /\.(xlsx?|csv)$/i.exec(name)?.[1]?.toLowerCase();
          if (!ext) {
            stream.resume();
            await finished(stream);
            throw new AppError("ERR_CONTACT_LIST_IMPORT_INVALID_FILE");
          }
          return media.saveStreamAs(actor.companyId, stream, ext);
        },
        (saved) => media.remove(actor.companyId, saved.path),
      );
      // Parsed once, in a worker thread: refused at once when it cannot be read, has no number
      // column or too many rows; else the same reading goes on to the import's job.
      let reading: SheetReading;
      try {
        // The worker reads the whole file as it starts: a copy fetched from a bucket can go after.
        const opened = await media.withLocalFile(actor.companyId, stored.path, (file) =>
          openSheetReading(file, filename),
        );
        if (!opened) throw new Error("the uploaded spreadsheet was not stored");
        reading = opened;
      } catch (err) {
        await media.remove(actor.companyId, stored.path);
        throw err;
      }
      let importId: number | undefined;
      try {
        return await inTransaction(db, bus, async (tx, raise) => {
          const row = await q.insertImport(tx, {
            companyId: actor.companyId,
            contactListId: list.id,
            userId: actor.userId,
            fileName: filename.slice(0, 200),
            path: stored.path,
            totalRows: reading.total,
            createdAt: now(),
          });
          await enqueueJob(tx, {
            type: CONTACT_LIST_IMPORT_JOB,
            payload: { importId: row.id },
            companyId: actor.companyId,
            orderKey: `contact-list-import:${row.id}`,
          });
          // Left for the job before it can start (it starts once this commits).
          importId = row.id;
          readings.park(row.id, reading);
          const record = presentImport(row);
          raise({
            type: "contactListImport.progress",
            companyId: actor.companyId,
            payload: { action: "progress", record },
          });
          return record;
        });
      } catch (err) {
        if (importId !== undefined) readings.drop(importId);
        reading.close();
        await media.remove(actor.companyId, stored.path);
        throw err;
      }
    },

    /** The list's latest import (null when none), so a reopened page shows it. */
    async latestImport(actor: AuthContext, id: number): Promise<ContactListImportDTO | null> {
      await existingList(actor, id);
      const row = await q.latestImport(db, actor.companyId, id);
      return row ? presentImport(row) : null;
    },

    /** The bad rows of an import as CSV: row, reason, value. */
    async importErrorsCsv(actor: AuthContext, listId: number, importId: number, lang: Lang): Promise<string> {
      await existingList(actor, listId);
      const row = await q.findImport(db, actor.companyId, importId);
      if (!row || row.contactListId !== listId) throw new AppError("ERR_NO_CONTACT_LIST_IMPORT_FOUND");
      const head = {
        pt: ["linha", "motivo", "valor"],
        en: ["row", "reason", "value"],
        es: ["fila", "motivo", "valor"],
      }[lang];
      return toCsv([
        head,
        ...row.errors.map((e) => [String(e.row), reasonText(e.reason, lang), e.value ?? ""]),
      ]);
    },

    /** The example spreadsheet: the columns the import reads and two rows. */
    example(): Buffer {
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(CONTACT_LIST_EXAMPLE_ROWS), "Contatos");
      return XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer;
    },

    // ---- Items ----

    async pageItems(actor: AuthContext, query: ContactListItemQuery): Promise<ContactListItemsPage> {
      await existingList(actor, query.contactListId);
      const { rows, count } = await q.pageItems(db, actor.companyId, {
        ...query,
        pageSize: CONTACT_LIST_ITEMS_PAGE_SIZE,
      });
      return {
        contacts: rows.map(presentItem),
        count,
        hasMore: query.pageNumber * CONTACT_LIST_ITEMS_PAGE_SIZE < count,
      };
    },

    async getItem(actor: AuthContext, id: number): Promise<ContactListItemDTO> {
      return presentItem(await existingItem(actor, id));
    },

    async createItem(actor: AuthContext, input: ContactListItemCreateInput): Promise<ContactListItemDTO> {
      const list = await existingList(actor, input.contactListId);
      const number = numberOf(input.number);
      return uniqueOr("ERR_CONTACT_LIST_ITEM_DUPLICATED", () =>
        inTransaction(db, bus, async (tx, raise) => {
          const at = now();
          const row = await q.insertItem(tx, {
            companyId: actor.companyId,
            contactListId: list.id,
            name: input.name,
            number,
            email: input.email,
            createdAt: at,
            updatedAt: at,
          });
          await enqueueListCheck(tx, actor.companyId, list);
          const record = presentItem(row);
          raise({
            type: "contactListItem.changed",
            companyId: actor.companyId,
            payload: { action: "create", record },
          });
          raise({
            type: "contactList.changed",
            companyId: actor.companyId,
            payload: {
              action: "update",
              record: presentContactList({ ...list, contactsCount: list.contactsCount + 1 }),
            },
          });
          return record;
        }),
      );
    },

    async updateItem(
      actor: AuthContext,
      id: number,
      input: ContactListItemUpdateInput,
    ): Promise<ContactListItemDTO> {
      const before = await existingItem(actor, id);
      const number = input.number !== undefined ? numberOf(input.number) : before.number;
      const list = await existingList(actor, before.contactListId);
      return uniqueOr("ERR_CONTACT_LIST_ITEM_DUPLICATED", () =>
        inTransaction(db, bus, async (tx, raise) => {
          const changedNumber = number !== before.number;
          const row = await q.updateItem(tx, actor.companyId, id, {
            ...(input.name !== undefined ? { name: input.name } : {}),
            ...(input.email !== undefined ? { email: input.email } : {}),
            number,
            // A new number is asked on WhatsApp again.
            ...(changedNumber ? { isWhatsappValid: null, whatsappCheckedAt: null } : {}),
            updatedAt: now(),
          });
          if (!row) throw new AppError("ERR_NO_CONTACT_LIST_ITEM_FOUND");
          if (changedNumber) await enqueueListCheck(tx, actor.companyId, list);
          const record = presentItem(row);
          raise({
            type: "contactListItem.changed",
            companyId: actor.companyId,
            payload: { action: "update", record },
          });
          return record;
        }),
      );
    },

    async removeItem(actor: AuthContext, id: number): Promise<void> {
      const item = await existingItem(actor, id);
      await inTransaction(db, bus, async (tx, raise) => {
        if (!(await q.deleteItem(tx, actor.companyId, id)))
          throw new AppError("ERR_NO_CONTACT_LIST_ITEM_FOUND");
        raise({
          type: "contactListItem.changed",
          companyId: actor.companyId,
          payload: { action: "delete", id, contactListId: item.contactListId },
        });
        const list = await q.findContactList(tx, actor.companyId, item.contactListId);
        if (list)
          raise({
            type: "contactList.changed",
            companyId: actor.companyId,
            payload: { action: "update", record: presentContactList(list) },
          });
      });
    },
  };
}

export type ContactListsService = ReturnType<typeof createContactListsService>;
