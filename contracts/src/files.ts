import { z } from "zod";
import { pageOf, rowId, timestamp } from "./answers.js";
import { idValue, noNul, pageNumber, searchText } from "./validation.js";

/**
 * File lists (back-office "File lists", sections 3, 5 and 7): a name, a message and several files,
 * each with a name and a media type. A campaign with a file list sends its files after the message.
 */

export const FILE_LIST_NAME = { min: 3, max: 100 } as const;
export const FILE_LIST_MESSAGE_MAX = 4096;
export const FILE_LIST_OPTIONS_MAX = 20;
export const FILE_LIST_OPTION_NAME_MAX = 200;
/** One file of a list: at most this many bytes. */
export const FILE_LIST_MAX_BYTES = 20 * 1024 * 1024;
export const FILES_PAGE_SIZE = 20;

/** One file of a list. `path` is empty until its file is uploaded. */
export const fileListOptionSchema = z
  .object({
    id: rowId,
    /** The list the file belongs to. */
    fileId: rowId,
    name: z.string(),
    path: z.string(),
    mediaType: z.string(),
  })
  .meta({ id: "FileListOption", description: "One file of a file list; path is empty until it is uploaded" });
export type FileListOptionDTO = z.infer<typeof fileListOptionSchema>;

export const fileListSchema = z
  .object({
    id: rowId,
    companyId: rowId,
    name: z.string(),
    message: z.string(),
    options: z.array(fileListOptionSchema),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "FileList", description: "A file list: a message and the files a campaign sends after it" });
export type FileListDTO = z.infer<typeof fileListSchema>;

/** GET /files/: the Whaticket shape. */
export const fileListsPageSchema = pageOf("files", fileListSchema).meta({
  id: "FileListsPage",
  description: "A page of file lists",
});
export type FileListsPage = z.infer<typeof fileListsPageSchema>;

/** Name: min 3 ('nome muito curto'). */
export const fileListNameField = z
  .string({ error: "validation.required" })
  .trim()
  .min(1, { error: "validation.required", abort: true })
  .min(FILE_LIST_NAME.min, "validation.nomeMuitoCurto")
  .max(FILE_LIST_NAME.max, "validation.tooLong")
  .refine(noNul, "validation.invalid");

/** Message: required. */
export const fileListMessageField = z
  .string({ error: "validation.required" })
  .trim()
  .min(1, "validation.required")
  .max(FILE_LIST_MESSAGE_MAX, "validation.tooLong")
  .refine(noNul, "validation.invalid");

/** An option as the dialog sends it: an existing one keeps its id (and its file). */
export const fileListOptionInput = z.object({
  id: idValue.optional(),
  name: z
    .string({ error: "validation.required" })
    .trim()
    .min(1, "validation.required")
    .max(FILE_LIST_OPTION_NAME_MAX, "validation.tooLong")
    .refine(noNul, "validation.invalid"),
  /** Ignored: the type comes from the uploaded file. */
  mediaType: z.string().optional(),
  path: z.string().optional(),
});

export const fileListCreateSchema = z.object({
  name: fileListNameField,
  message: fileListMessageField,
  options: z
    .array(fileListOptionInput)
    .max(FILE_LIST_OPTIONS_MAX, "validation.tooLong")
    .optional()
    .default([]),
});
export type FileListCreateInput = z.infer<typeof fileListCreateSchema>;

/** PUT /files/{id}: options, when sent, are the list's files from now on (missing ones removed). */
export const fileListUpdateSchema = z.object({
  name: fileListNameField.optional(),
  message: fileListMessageField.optional(),
  options: z.array(fileListOptionInput).max(FILE_LIST_OPTIONS_MAX, "validation.tooLong").optional(),
});
export type FileListUpdateInput = z.infer<typeof fileListUpdateSchema>;

export const fileListQuerySchema = z.object({
  searchParam: searchText(100),
  pageNumber,
  /** Sent by clients of this API family; ignored (the caller's company is used). */
  companyId: z.unknown().optional(),
});
export type FileListQuery = z.infer<typeof fileListQuerySchema>;

/**
 * `company-{id}-file`, as clients of this API family hear it: the list as `files` on create and
 * update; `fileId` on delete.
 */
export type FileListEventPayload =
  { action: "create" | "update"; files: FileListDTO } | { action: "delete"; fileId: number };

export interface FileListServerEvents {
  [name: `company-${number}-file`]: (payload: FileListEventPayload) => void;
}

export const fileListEvent = (companyId: number) => `company-${companyId}-file` as const;
