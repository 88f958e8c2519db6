import type { FileListDTO, FileListEventPayload, FileListsPage } from "@atende/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { api } from "./http";
import { useCompanySuffixEvent } from "./SocketProvider";

export const fileListKeys = {
  all: ["fileLists"] as const,
  lists: () => [...fileListKeys.all, "pages"] as const,
  list: (search: string) => [...fileListKeys.lists(), search] as const,
};

export function fetchFileListsPage(search: string, pageNumber: number, signal?: AbortSignal) {
  return api.get<FileListsPage>("/files/", { query: { searchParam: search, pageNumber }, signal });
}

export interface FileListPayload {
  name: string;
  message: string;
  options: { id?: number; name: string }[];
}

export function saveFileList(id: number | null, payload: FileListPayload) {
  return id === null
    ? api.post<FileListDTO>("/files", payload)
    : api.put<FileListDTO>(`/files/${id}`, payload);
}

export function deleteFileList(id: number) {
  return api.delete(`/files/${id}`);
}

/** Sends the chosen files, each to its option (`id`), as the uploadList form takes them. */
export function uploadFileListFiles(id: number, files: { optionId: number; file: File }[]) {
  const form = new FormData();
  form.append("typeArch", "fileList");
  form.append("fileId", String(id));
  for (const { optionId, file } of files) {
    form.append("id", String(optionId));
    form.append("files", file);
  }
  return api.post<FileListDTO>(`/files/uploadList/${id}`, form);
}

/** Keeps the file lists page current: lists others add, edit or delete. */
export function useFileListsLive(): void {
  const queryClient = useQueryClient();
  useCompanySuffixEvent<FileListEventPayload>("file", () => {
    void queryClient.invalidateQueries({ queryKey: fileListKeys.lists() });
  });
}
