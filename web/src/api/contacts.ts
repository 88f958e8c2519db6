import type {
  ContactDTO,
  ContactImportEvent,
  ContactImportResult,
  ContactsPage,
  ContactUpdateInput,
} from "@atende/contracts";
import type { QueryClient } from "@tanstack/react-query";
import i18n from "../i18n";
import { saveBlob } from "./download";
import { ApiError, api, refreshSession } from "./http";
import { type PagedLists, removeFromLists, upsertInLists } from "./pagedLists";
import { readToken } from "./session";

export const contactKeys = {
  all: ["contacts"] as const,
  /** Every cached page list of contacts, whatever the search text (the key's last part). */
  lists: () => [...contactKeys.all, "pages"] as const,
  list: (search: string) => [...contactKeys.lists(), search] as const,
  detail: (id: number) => [...contactKeys.all, "id", id] as const,
  /** A contact picker's matches for a search text. */
  search: (text: string) => [...contactKeys.all, "search", text] as const,
};

export function fetchContactsPage(
  search: string,
  pageNumber: number,
  signal?: AbortSignal,
): Promise<ContactsPage> {
  return api.get<ContactsPage>("/contacts", { query: { searchParam: search, pageNumber }, signal });
}

export function fetchContact(id: number, signal?: AbortSignal): Promise<ContactDTO> {
  return api.get<ContactDTO>(`/contacts/${id}`, { signal });
}

/** What the contact dialog sends. */
export interface ContactPayload {
  name: string;
  number: string;
  email: string;
  extraInfo: { name: string; value: string }[];
}

export function saveContact(
  id: number | null,
  payload: ContactPayload | ContactUpdateInput,
): Promise<ContactDTO> {
  return id === null
    ? api.post<ContactDTO>("/contacts", payload)
    : api.put<ContactDTO>(`/contacts/${id}`, payload);
}

export function deleteContact(id: number): Promise<void> {
  return api.delete(`/contacts/${id}`);
}

function matchesSearch(contact: ContactDTO, search: string): boolean {
  const text = search.trim().toLowerCase();
  if (!text) return true;
  const digits = /^[\d\s()+\-.]+$/.test(text) ? text.replace(/\D/g, "") : "";
  return (
    contact.name.toLowerCase().includes(text) ||
    contact.email.toLowerCase().includes(text) ||
    (digits !== "" && contact.number.includes(digits))
  );
}

const contactLists: PagedLists<"contacts", ContactDTO> = {
  key: contactKeys.lists(),
  field: "contacts",
  matches: matchesSearch,
};

/** Create or update: replaces the contact where listed, else adds it first to the lists it matches. */
export function upsertContactInLists(queryClient: QueryClient, contact: ContactDTO): void {
  upsertInLists(queryClient, contactLists, contact);
}

export function removeContactFromLists(queryClient: QueryClient, contactId: number): void {
  removeFromLists(queryClient, contactLists, contactId);
}

// ---- Export and import: files, so plain fetch / XHR with the session's token ----

function authHeaders(): Record<string, string> {
  const token = readToken();
  return { ...(token ? { Authorization: `Bearer ${token}` } : {}), "Accept-Language": i18n.language };
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Runs `attempt` once more after a token refresh when the session had expired. */
async function withRefresh<T>(attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "ERR_SESSION_EXPIRED") throw error;
  }
  await refreshSession();
  return attempt();
}

/** Downloads the company's contacts as a CSV file (the browser saves it). */
export async function exportContacts(search = ""): Promise<void> {
  const response = await withRefresh(async () => {
    const query = search ? `?searchParam=${encodeURIComponent(search)}` : "";
    const res = await fetch(`/contacts/export${query}`, { headers: authHeaders(), credentials: "include" });
    if (!res.ok) throw new ApiError(res.status, parseBody(await res.text()));
    return res;
  });
  const blob = await response.blob();
  const disposition = response.headers.get("content-disposition") ?? "";
  saveBlob(blob, /filename="([^"]+)"/.exec(disposition)?.[1] ?? "contacts.csv");
}

/** Where an import is: sending the file (with its share sent), then the server's check and save. */
export type ImportStage =
  | { stage: "upload"; loaded: number; total: number }
  | { stage: "check" | "save"; done: number; total: number };

/** Parses complete JSON lines as they arrive; the rest waits for more text. */
function lineReader(onEvent: (event: ContactImportEvent) => void) {
  let seen = 0;
  return (text: string) => {
    let end = text.indexOf("\n", seen);
    while (end >= 0) {
      const line = text.slice(seen, end).trim();
      seen = end + 1;
      if (line) onEvent(JSON.parse(line) as ContactImportEvent);
      end = text.indexOf("\n", seen);
    }
  };
}

function uploadOnce(
  file: File,
  skipInvalid: boolean,
  onStage: (stage: ImportStage) => void,
  signal?: AbortSignal,
): Promise<ContactImportResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/contacts/import${skipInvalid ? "?skipInvalid=true" : ""}`);
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader("Content-Type", file.type || "application/octet-stream");
    xhr.withCredentials = true;
    let result: ContactImportResult | null = null;
    let failure: ApiError | null = null;
    const read = lineReader((event) => {
      if (event.type === "progress") onStage({ stage: event.phase, done: event.done, total: event.total });
      else if (event.type === "result") result = event;
      else failure = new ApiError(500, { error: event.error, message: event.message });
    });
    xhr.upload.onprogress = (event) =>
      onStage({
        stage: "upload",
        loaded: event.loaded,
        total: event.lengthComputable ? event.total : file.size,
      });
    xhr.onprogress = () => {
      if (xhr.status === 200) read(xhr.responseText);
    };
    xhr.onload = () => {
      if (xhr.status !== 200) return reject(new ApiError(xhr.status, parseBody(xhr.responseText)));
      read(xhr.responseText);
      if (result) resolve(result);
      else reject(failure ?? new ApiError(500, xhr.responseText));
    };
    xhr.onerror = () => reject(new TypeError("network error"));
    xhr.onabort = () => reject(new DOMException("aborted", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/**
 * Sends a CSV or XLSX file to POST /contacts/import, reporting the upload and the server's progress.
 * Resolves with the result (committed, counts and the per-row report).
 */
export function importContacts(
  file: File,
  options: { skipInvalid?: boolean; onStage(stage: ImportStage): void; signal?: AbortSignal },
): Promise<ContactImportResult> {
  return withRefresh(() => uploadOnce(file, options.skipInvalid ?? false, options.onStage, options.signal));
}
