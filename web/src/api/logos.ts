import type { LogoTarget, LogoUploadAnswer, LogosDTO } from "@atende/contracts";
import { useQuery, type QueryClient } from "@tanstack/react-query";
import { api } from "./http";

export const logoKeys = {
  /** The platform's current logos (GET /settings/logos): read by every page, logged in or not. */
  current: () => ["logos"] as const,
};

export function fetchLogos(signal?: AbortSignal): Promise<LogosDTO> {
  return api.get<LogosDTO>("/settings/logos", { signal, anonymous: true });
}

/** The current logos; each URL changes with every upload, so an image is never a stale copy. */
export function useLogos() {
  return useQuery({
    queryKey: logoKeys.current(),
    queryFn: ({ signal }) => fetchLogos(signal),
    meta: { silent: true },
    retry: false,
    staleTime: 60_000,
  });
}

/** POST /settings/media-upload?ref={target} (super user). */
export function uploadLogo(target: LogoTarget, file: File): Promise<LogoUploadAnswer> {
  const form = new FormData();
  form.append("file", file);
  return api.post<LogoUploadAnswer>(`/settings/media-upload?ref=${encodeURIComponent(target)}`, form);
}

/** The uploader's own pages show the new logos at once. */
export function storeLogos(queryClient: QueryClient, logos: LogosDTO): void {
  queryClient.setQueryData(logoKeys.current(), logos);
}
