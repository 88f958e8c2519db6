import {
  CONTACT_IMPORT_LIMITS,
  CONTACT_IMPORT_MESSAGES,
  type ContactDTO,
  type ContactImportEvent,
  type ContactImportResult,
  type ContactImportRowError,
  type Lang,
} from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { toCsv } from "./csv.js";
import { type ImportCandidate, type ImportPlan, rowMessage } from "./importFile.js";
import { readImportInWorker } from "./importReader.js";
import { presentContact } from "./present.js";
import * as q from "./queries.js";
import { contactNumberOf } from "./service.js";

const SAVE_BATCH = 500;

export type ImportProgress = (event: Extract<ContactImportEvent, { type: "progress" }>) => void;

/** CSV export and CSV / XLSX import of a company's contacts. */
export function createContactsImportExport({ db, bus, now }: Pick<Deps, "db" | "bus" | "now">) {
  return {
    /** name, number, email, then one column per extra-info name: the same layout the import reads. */
    toCsv(list: ContactDTO[]): string {
      const extraNames: string[] = [];
      for (const c of list)
        for (const x of c.extraInfo) if (!extraNames.includes(x.name)) extraNames.push(x.name);
      const rows = list.map((c) => [
        c.name,
        c.number,
        c.email,
        ...extraNames.map((n) => c.extraInfo.find((x) => x.name === n)?.value ?? ""),
      ]);
      return toCsv([["name", "number", "email", ...extraNames], ...rows]);
    },

    /**
     * Reads the file in a worker thread, refusing it whole (ERR_IMPORT_*) when it is not a contacts
     * table.
     */
    read(data: Buffer, lang: Lang): Promise<ImportPlan> {
      return readImportInWorker(data, lang);
    },

    /**
     * Checks every row, then saves them in one transaction: all or nothing. A row with a problem
     * stops the whole import unless `skipInvalid`, when the good rows go in and the bad are reported.
     * Numbers already in the company are left as they are (importing a file twice changes nothing).
     */
    async run(
      actor: AuthContext,
      plan: ImportPlan,
      opts: { skipInvalid: boolean; lang: Lang },
      progress: ImportProgress,
    ): Promise<ContactImportResult> {
      const errors: ContactImportRowError[] = [...plan.errors];
      const fresh: (ImportCandidate & { number: string })[] = [];
      const firstRowOf = new Map<string, number>();
      const total = plan.candidates.length;
      plan.candidates.forEach((c, i) => {
        const number = contactNumberOf(c.input.number);
        if (!number) {
          errors.push({
            row: c.row,
            field: "number",
            code: "ERR_WAPP_INVALID_CONTACT",
            message: rowMessage("ERR_WAPP_INVALID_CONTACT", opts.lang),
            value: c.input.number.slice(0, 100),
          });
        } else if (firstRowOf.has(number)) {
          errors.push({
            row: c.row,
            field: "number",
            code: "import.duplicateInFile",
            message: CONTACT_IMPORT_MESSAGES["import.duplicateInFile"][opts.lang].replace(
              "{row}",
              String(firstRowOf.get(number)),
            ),
            value: c.input.number.slice(0, 100),
          });
        } else {
          firstRowOf.set(number, c.row);
          fresh.push({ ...c, number });
        }
        if ((i + 1) % CONTACT_IMPORT_LIMITS.progressEvery === 0)
          progress({ type: "progress", phase: "check", done: i + 1, total });
      });
      progress({ type: "progress", phase: "check", done: total, total });
      errors.sort((a, b) => a.row - b.row);

      const known = await q.existingNumbers(
        db,
        actor.companyId,
        fresh.map((c) => c.number),
      );
      const toSave = fresh.filter((c) => !known.has(c.number));
      const badRows = new Set(errors.map((e) => e.row)).size;
      const result: ContactImportResult = {
        type: "result",
        committed: false,
        total: plan.total,
        imported: 0,
        existing: fresh.length - toSave.length,
        skipped: 0,
        errors,
      };
      if (badRows > 0 && !opts.skipInvalid) return result;

      const created = await inTransaction(db, bus, async (tx, raise) => {
        let saved = 0;
        const out: ContactDTO[] = [];
        for (let i = 0; i < toSave.length; i += SAVE_BATCH) {
          const batch = toSave.slice(i, i + SAVE_BATCH);
          const at = now();
          // A number saved meanwhile by someone else is skipped, not an error: it exists either way.
          const rows = await q.insertImportedContacts(
            tx,
            actor.companyId,
            batch.map((c) => ({
              name: c.input.name,
              number: c.number,
              email: c.input.email,
              createdAt: at,
              updatedAt: at,
            })),
          );
          const byNumber = new Map(batch.map((c) => [c.number, c]));
          const fields = rows.flatMap((row) =>
            (byNumber.get(row.number)?.input.extraInfo ?? []).map((x) => ({
              contactId: row.id,
              name: x.name,
              value: x.value,
            })),
          );
          const inserted = await q.insertCustomFields(tx, actor.companyId, fields);
          for (const row of rows) {
            const extraInfo = inserted
              .filter((f) => f.contactId === row.id)
              .map((f) => ({ id: f.id, name: f.name, value: f.value }));
            out.push(presentContact(row, extraInfo));
          }
          saved += batch.length;
          progress({ type: "progress", phase: "save", done: saved, total: toSave.length });
        }
        for (const contact of out)
          raise({ type: "contact.saved", companyId: actor.companyId, action: "create", contact });
        return out;
      });
      return {
        ...result,
        committed: true,
        imported: created.length,
        existing: result.existing + (toSave.length - created.length),
        skipped: badRows,
      };
    },
  };
}

export type ContactsImportExport = ReturnType<typeof createContactsImportExport>;
