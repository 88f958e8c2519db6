import type { PaletteResultsDTO } from "@atende/contracts";
import { api } from "./http";

export const paletteKeys = {
  all: ["palette"] as const,
  search: (text: string) => [...paletteKeys.all, text] as const,
};

/** GET /search: tickets and contacts matching what was typed, as the user may see them. */
export function fetchPaletteResults(text: string, signal?: AbortSignal): Promise<PaletteResultsDTO> {
  return api.get<PaletteResultsDTO>("/search", { query: { q: text }, signal });
}
