import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { fetchMediaBlob, mediaKeys } from "../api/media";

/**
 * An object URL for an authenticated media URL (a chat's files, an announcement's picture): the
 * file is read with the session, once, and the object URL revoked when the view goes.
 */
export function useMediaUrl(url: string | null) {
  const blob = useQuery({
    queryKey: mediaKeys.blob(url ?? ""),
    queryFn: ({ signal }) => fetchMediaBlob(url!, signal),
    enabled: Boolean(url),
    // A file never changes: never read again, not even after a reconnection (useRefetchWhenReady).
    staleTime: "static",
    gcTime: 10 * 60_000,
    retry: 1,
    meta: { silent: true },
  });
  const [objectUrl, setObjectUrl] = useState<string>();
  useEffect(() => {
    if (!blob.data) return;
    const created = URL.createObjectURL(blob.data);
    setObjectUrl(created);
    return () => {
      URL.revokeObjectURL(created);
      setObjectUrl(undefined);
    };
  }, [blob.data]);
  return { src: objectUrl, failed: blob.isError, size: blob.data?.size };
}
