import { api } from "./http";

export const versionKeys = {
  all: ["version"] as const,
};

/** The product's version, shown under the side menu. */
export function fetchVersion(signal?: AbortSignal): Promise<{ version: string }> {
  return api.get<{ version: string }>("/version", { signal });
}
