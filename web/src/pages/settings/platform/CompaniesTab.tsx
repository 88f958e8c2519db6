import {
  advanceDueDate,
  dueDateTone,
  todayInZone,
  type CompaniesPage,
  type CompanyDTO,
  type CompanyUpdateInput,
} from "@atende/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import EventRepeatIcon from "@mui/icons-material/EventRepeatOutlined";
import SearchIcon from "@mui/icons-material/Search";
import {
  Box,
  Button,
  Chip,
  IconButton,
  InputAdornment,
  Paper,
  Stack,
  TableCell,
  TableRow,
  TextField,
  Tooltip,
  Typography,
  alpha,
} from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import {
  companiesKeys,
  deleteCompany,
  fetchCompaniesPage,
  removeCompanyFromLists,
  updateCompany,
  upsertCompanyInLists,
} from "../../../api/companies";
import { toast, toastError } from "../../../api/toast";
import { ConfirmationDialog } from "../../../components/ConfirmationDialog";
import { InfiniteTable } from "../../../components/InfiniteTable";
import { useConfirmDelete } from "../../../hooks/useConfirmDelete";
import { useSearchableList } from "../../../hooks/useSearchableList";
import { formatDate } from "../../../i18n/format";
import {
  COMPANY_FIELDS,
  CompanyFields,
  companyFormValues,
  companyUpdateResolver,
  type CompanyFormValues,
} from "./companyForm";
import { COMPANY_ERROR_FIELDS } from "./NewCompanyTab";
import { FormPanel, showSaveError, withLoadError } from "./shared";

const loadCompaniesPage = withLoadError(fetchCompaniesPage);
const today = () => todayInZone(new Date());
/** The spec's yellow for a company due in 1 to 5 days (MUI's warning is orange). */
const DUE_SOON_YELLOW = "#fdd835";

/** The company picked in the table, in the form above it. */
function CompanyEditForm({
  company,
  onDone,
  onDelete,
}: {
  company: CompanyDTO;
  onDone(): void;
  onDelete(company: CompanyDTO): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CompanyFormValues, unknown, CompanyUpdateInput>({
    defaultValues: companyFormValues(company),
    resolver: companyUpdateResolver,
  });
  useEffect(() => reset(companyFormValues(company)), [company, reset]);

  async function submit(values: CompanyUpdateInput) {
    try {
      upsertCompanyInLists(queryClient, await updateCompany(company.id, values));
      toast(t("platform.saved"), "success");
      onDone();
    } catch (error) {
      showSaveError(error, setError, {
        codes: COMPANY_ERROR_FIELDS,
        fieldOf: (path) => COMPANY_FIELDS.find((f) => f === path),
      });
    }
  }

  return (
    <FormPanel
      title={t("platform.editing", { name: company.name })}
      aria-label={t("platform.companies.formTitle")}
      onSubmit={handleSubmit(submit)}
      actions={
        <>
          <Button color="error" onClick={() => onDelete(company)}>
            {t("platform.delete")}
          </Button>
          <Button onClick={onDone}>{t("platform.clear")}</Button>
          <Button type="submit" variant="contained" loading={isSubmitting}>
            {t("platform.save")}
          </Button>
        </>
      }
    >
      <CompanyFields
        register={register}
        control={control}
        errors={errors}
        idPrefix="company"
        emailLabel={t("platform.companies.email")}
      />
    </FormPanel>
  );
}

/** Super user: every company, searched and paged; a row due soon is yellow, one due or past red. */
export function CompaniesTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<CompanyDTO | null>(null);
  const [renewing, setRenewing] = useState<number | null>(null);
  const list = useSearchableList({
    queryKey: companiesKeys.list,
    fetchPage: loadCompaniesPage,
    itemsOf: (page: CompaniesPage) => page.companies,
  });
  const todayDate = today();

  const removal = useConfirmDelete<CompanyDTO>(async (company) => {
    await deleteCompany(company.id);
    removeCompanyFromLists(queryClient, company.id);
    if (editing?.id === company.id) setEditing(null);
  }, t("platform.saved"));

  /** 'Vencimento': the due date moved forward by the company's recurrence. */
  async function renew(company: CompanyDTO) {
    const dueDate = advanceDueDate(company.dueDate, company.recurrence, todayDate);
    setRenewing(company.id);
    try {
      const saved = await updateCompany(company.id, { dueDate });
      upsertCompanyInLists(queryClient, saved);
      if (editing?.id === company.id) setEditing(saved);
      toast(
        t("platform.companies.renewed", { name: saved.name, date: formatDate(saved.dueDate) }),
        "success",
      );
    } catch (error) {
      toastError(error);
    } finally {
      setRenewing(null);
    }
  }

  return (
    <Stack spacing={2.5}>
      {editing ? (
        <CompanyEditForm company={editing} onDone={() => setEditing(null)} onDelete={removal.ask} />
      ) : (
        <Typography color="text.secondary">{t("platform.companies.pick")}</Typography>
      )}
      <TextField
        size="small"
        type="search"
        placeholder={t("platform.companies.search")}
        value={list.searchText}
        onChange={(event) => list.setSearchText(event.target.value)}
        sx={{ maxWidth: 360 }}
        slotProps={{
          htmlInput: { "aria-label": t("platform.companies.search") },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      <Paper
        variant="outlined"
        sx={{ display: "flex", flexDirection: "column", maxHeight: 560, overflow: "hidden" }}
      >
        <InfiniteTable
          list={list}
          aria-label={t("platform.tabs.companies")}
          columns={[
            { label: t("platform.companies.name") },
            { label: t("platform.companies.email") },
            { label: t("platform.companies.plan") },
            { label: t("platform.companies.status") },
            { label: t("platform.companies.dueDate") },
            { label: t("platform.actions"), align: "center" },
          ]}
          empty={t(list.search !== "" ? "platform.companies.emptySearch" : "platform.companies.empty")}
          renderRow={(company) => {
            const tone = dueDateTone(company.dueDate, todayDate);
            const next = advanceDueDate(company.dueDate, company.recurrence, todayDate);
            return (
              <TableRow
                key={company.id}
                hover
                selected={editing?.id === company.id}
                data-testid={`company-row-${company.id}`}
                data-due={tone ?? "ok"}
                sx={
                  tone
                    ? {
                        bgcolor: (theme) =>
                          tone === "overdue"
                            ? alpha(theme.palette.error.main, 0.16)
                            : alpha(DUE_SOON_YELLOW, theme.palette.mode === "dark" ? 0.22 : 0.35),
                      }
                    : undefined
                }
              >
                <TableCell sx={{ fontWeight: 500 }}>{company.name}</TableCell>
                <TableCell sx={{ wordBreak: "break-word", minWidth: 160, maxWidth: 260 }}>
                  {company.email}
                </TableCell>
                <TableCell>{company.plan?.name ?? "—"}</TableCell>
                <TableCell>
                  {company.status ? t("platform.companies.active") : t("platform.companies.inactive")}
                </TableCell>
                <TableCell sx={{ whiteSpace: "nowrap" }}>
                  <Box>{formatDate(company.dueDate) || "—"}</Box>
                  <Typography variant="caption" color="text.secondary" component="div">
                    {t(`platform.companies.recurrences.${company.recurrence}`)}
                  </Typography>
                  {tone && (
                    <Chip
                      size="small"
                      color={tone === "overdue" ? "error" : "warning"}
                      label={t(
                        tone === "overdue" ? "platform.companies.overdue" : "platform.companies.dueSoon",
                      )}
                      sx={{ mt: 0.5 }}
                    />
                  )}
                  {company.trialExpiration && (
                    <Typography variant="caption" color="text.secondary" component="div">
                      {t("platform.companies.trialUntil", { date: formatDate(company.trialExpiration) })}
                    </Typography>
                  )}
                </TableCell>
                <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
                  <Tooltip
                    title={t("platform.companies.renewHint", {
                      recurrence: t(`platform.companies.recurrences.${company.recurrence}`),
                      from: formatDate(company.dueDate) || "—",
                      to: formatDate(next),
                    })}
                  >
                    <Button
                      size="small"
                      variant="outlined"
                      startIcon={<EventRepeatIcon />}
                      loading={renewing === company.id}
                      aria-label={`${t("platform.companies.renew")} ${company.name}`}
                      onClick={() => void renew(company)}
                    >
                      {t("platform.companies.renew")}
                    </Button>
                  </Tooltip>
                  <IconButton
                    size="small"
                    aria-label={`${t("platform.edit")} ${company.name}`}
                    onClick={() => setEditing(company)}
                  >
                    <EditIcon fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    aria-label={`${t("platform.delete")} ${company.name}`}
                    onClick={() => removal.ask(company)}
                  >
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </TableCell>
              </TableRow>
            );
          }}
        />
      </Paper>
      <ConfirmationDialog
        {...removal.dialog}
        title={t("platform.companies.deleteTitle", { name: removal.deleting?.name ?? "" })}
        message={t("platform.companies.deleteMessage", { name: removal.deleting?.name ?? "" })}
      />
    </Stack>
  );
}
