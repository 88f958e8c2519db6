import type {
  CompaniesPage,
  CompanyCreateInput,
  CompanyDTO,
  CompanySignupAnswer,
  CompanySignupInput,
  CompanyUpdateInput,
} from "@atende/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { api } from "./http";
import { type PagedLists, removeFromLists, upsertInLists } from "./pagedLists";

/** The super user's companies (the Empresas tab). One's own company is `companyKeys` in settings.ts. */
export const companiesKeys = {
  all: ["companies"] as const,
  /** Every cached page list of companies, whatever the search text (the key's last part). */
  lists: () => [...companiesKeys.all, "pages"] as const,
  list: (search: string) => [...companiesKeys.lists(), search] as const,
  /** GET /companies/list: every company at once (the announcement dialog's picker). */
  everyOne: () => [...companiesKeys.all, "every"] as const,
};

export function fetchAllCompanies(signal?: AbortSignal): Promise<CompanyDTO[]> {
  return api.get<CompanyDTO[]>("/companies/list", { signal });
}

export function fetchCompaniesPage(
  search: string,
  pageNumber: number,
  signal?: AbortSignal,
): Promise<CompaniesPage> {
  return api.get<CompaniesPage>("/companies", { query: { searchParam: search, pageNumber }, signal });
}

export function createCompany(payload: CompanyCreateInput): Promise<CompanyDTO> {
  return api.post<CompanyDTO>("/companies", payload);
}

export function updateCompany(id: number, payload: Partial<CompanyUpdateInput>): Promise<CompanyDTO> {
  return api.put<CompanyDTO>(`/companies/${id}`, payload);
}

export function deleteCompany(id: number): Promise<void> {
  return api.delete(`/companies/${id}`);
}

/** Public sign-up (/signup). */
export function signUpCompany(payload: CompanySignupInput): Promise<CompanySignupAnswer> {
  return api.post<CompanySignupAnswer>("/companies/cadastro", payload, { anonymous: true });
}

function matchesSearch(company: CompanyDTO, search: string): boolean {
  const text = search.trim().toLowerCase();
  return (
    !text || company.name.toLowerCase().includes(text) || (company.email ?? "").toLowerCase().includes(text)
  );
}

const companyLists: PagedLists<"companies", CompanyDTO> = {
  key: companiesKeys.lists(),
  field: "companies",
  matches: matchesSearch,
};

export function upsertCompanyInLists(queryClient: QueryClient, company: CompanyDTO): void {
  upsertInLists(queryClient, companyLists, company);
}

export function removeCompanyFromLists(queryClient: QueryClient, id: number): void {
  removeFromLists(queryClient, companyLists, id);
}

export function refreshCompanyLists(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: companiesKeys.lists() });
}
