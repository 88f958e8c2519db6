import { z } from "zod";
import { pageNumber, searchText } from "./validation.js";

/** What every searchable, paged list takes and answers. */
export const listQuerySchema = z.object({
  searchParam: searchText(100),
  pageNumber,
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export interface PageAnswer {
  count: number;
  hasMore: boolean;
}
