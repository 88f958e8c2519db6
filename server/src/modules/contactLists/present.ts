import {
  CONTACT_LIST_IMPORT_ERRORS_MAX,
  type ContactListDTO,
  type ContactListImportDTO,
  type ContactListItemDTO,
} from "@atende/contracts";
import type { ContactListImportRow, ContactListItemRow, ContactListWithCount } from "./queries.js";

export function presentContactList(row: ContactListWithCount): ContactListDTO {
  return {
    id: row.id,
    name: row.name,
    companyId: row.companyId,
    whatsappId: row.whatsappId,
    contactsCount: row.contactsCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentItem(row: ContactListItemRow): ContactListItemDTO {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    isWhatsappValid: row.isWhatsappValid,
    companyId: row.companyId,
    contactListId: row.contactListId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentImport(row: ContactListImportRow): ContactListImportDTO {
  return {
    id: row.id,
    contactListId: row.contactListId,
    fileName: row.fileName,
    status: row.status,
    totalRows: row.totalRows,
    processedRows: row.processedRows,
    imported: row.imported,
    duplicates: row.duplicates,
    invalid: row.invalid,
    errors: row.errors.slice(0, CONTACT_LIST_IMPORT_ERRORS_MAX),
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}
