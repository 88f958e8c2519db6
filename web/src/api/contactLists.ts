import type {
  ContactListDTO,
  ContactListEventPayload,
  ContactListImportDTO,
  ContactListImportEventPayload,
  ContactListItemDTO,
  ContactListItemEventPayload,
  ContactListItemsReloadPayload,
  ContactListItemsPage,
  ContactListsPage,
} from "@atende/contracts";
import { useQueryClient } from "@tanstack/react-query";
import i18n from "../i18n";
import { saveBlob } from "./download";
import { ApiError, api, refreshSession } from "./http";
import { readToken } from "./session";
import { useThrottledCallback } from "../hooks/useThrottledCallback";
import { useCompanySuffixEvent } from "./SocketProvider";

export const contactListKeys = {
  all: ["contactLists"] as const,
  lists: () => [...contactListKeys.all, "pages"] as const,
  list: (search: string) => [...contactListKeys.lists(), search] as const,
  one: (id: number) => [...contactListKeys.all, "one", id] as const,
  items: (listId: number) => [...contactListKeys.all, "items", listId] as const,
  itemsList: (listId: number) => (search: string) => [...contactListKeys.items(listId), search] as const,
  latestImport: (listId: number) => [...contactListKeys.all, "import", listId] as const,
};

export function fetchContactListsPage(search: string, pageNumber: number, signal?: AbortSignal) {
  return api.get<ContactListsPage>("/contact-lists/", { query: { searchParam: search, pageNumber }, signal });
}

export function fetchContactList(id: number, signal?: AbortSignal) {
  return api.get<ContactListDTO>(`/contact-lists/${id}`, { signal });
}

export function saveContactList(id: number | null, payload: { name: string; whatsappId: number | null }) {
  return id === null
    ? api.post<ContactListDTO>("/contact-lists", payload)
    : api.put<ContactListDTO>(`/contact-lists/${id}`, payload);
}

export function deleteContactList(id: number) {
  return api.delete(`/contact-lists/${id}`);
}

export function fetchItemsPage(listId: number) {
  return (search: string, pageNumber: number, signal?: AbortSignal) =>
    api.get<ContactListItemsPage>("/contact-list-items", {
      query: { searchParam: search, pageNumber, contactListId: listId },
      signal,
    });
}

export interface ItemPayload {
  name: string;
  number: string;
  email: string;
}

export function saveItem(id: number | null, listId: number, payload: ItemPayload) {
  return id === null
    ? api.post<ContactListItemDTO>("/contact-list-items", { ...payload, contactListId: listId })
    : api.put<ContactListItemDTO>(`/contact-list-items/${id}`, payload);
}

export function deleteItem(id: number) {
  return api.delete(`/contact-list-items/${id}`);
}

/** Sends a spreadsheet to a list; the server reads it in the background and answers its progress. */
export function uploadSpreadsheet(listId: number, file: File) {
  const form = new FormData();
  form.append("file", file);
  return api.post<ContactListImportDTO>(`/contact-lists/${listId}/upload`, form);
}

export function fetchLatestImport(listId: number, signal?: AbortSignal) {
  return api.get<ContactListImportDTO | null>(`/contact-lists/${listId}/import`, { signal });
}

/** A file the server makes (the example spreadsheet, an import's bad rows): fetched with the session. */
async function downloadFile(path: string, fallbackName: string): Promise<void> {
  const attempt = () =>
    fetch(path, {
      headers: {
        ...(readToken() ? { Authorization: `Bearer ${readToken()}` } : {}),
        "Accept-Language": i18n.language,
      },
      credentials: "include",
    });
  let res = await attempt();
  if (res.status === 401) {
    await refreshSession();
    res = await attempt();
  }
  if (!res.ok) {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    throw new ApiError(res.status, body);
  }
  const disposition = res.headers.get("content-disposition") ?? "";
  saveBlob(await res.blob(), /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName);
}

export function downloadExampleSpreadsheet() {
  return downloadFile("/contact-lists/example.xlsx", "planilha_exemplo.xlsx");
}

export function downloadImportErrors(listId: number, importId: number) {
  return downloadFile(`/contact-lists/${listId}/imports/${importId}/errors.csv`, "erros.csv");
}

/** Keeps the lists page current: lists others add, rename, fill or delete. */
export function useContactListsLive(): void {
  const queryClient = useQueryClient();
  useCompanySuffixEvent<ContactListEventPayload>("ContactList", (payload) => {
    void queryClient.invalidateQueries({ queryKey: contactListKeys.lists() });
    if (payload.action !== "delete")
      queryClient.setQueryData(contactListKeys.one(payload.record.id), payload.record);
  });
}

/**
 * Keeps one list's items page current: items added, edited or deleted, a batch imported, the
 * WhatsApp check's icons; and the import's progress.
 */
export function useContactListItemsLive(listId: number): void {
  const queryClient = useQueryClient();
  // An import announces every batch (many a second): the items are read again once a second at most.
  const reloadItems = useThrottledCallback(
    () => void queryClient.invalidateQueries({ queryKey: contactListKeys.items(listId) }),
    1000,
  );
  useCompanySuffixEvent<ContactListItemEventPayload>("ContactListItem", (payload) => {
    const of = "record" in payload ? payload.record.contactListId : payload.contactListId;
    if (of === listId) reloadItems();
  });
  // An import's batches come on the list's own channel.
  useCompanySuffixEvent<ContactListItemsReloadPayload>(`ContactListItem-${listId}`, reloadItems);
  useCompanySuffixEvent<ContactListEventPayload>("ContactList", (payload) => {
    // The lists page is not mounted here: its cached pages are read again when it is.
    void queryClient.invalidateQueries({ queryKey: contactListKeys.lists() });
    if (payload.action !== "delete" && payload.record.id === listId)
      queryClient.setQueryData(contactListKeys.one(listId), payload.record);
  });
  useCompanySuffixEvent<ContactListImportEventPayload>("ContactListImport", (payload) => {
    if (payload.record.contactListId === listId)
      queryClient.setQueryData(contactListKeys.latestImport(listId), payload.record);
  });
}
