import { companySchedulesSchema, scheduleWeek, type CompanySchedulesInput } from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, Skeleton, Stack, Typography } from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Controller, useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { companyKeys, fetchCompany, saveCompanySchedules } from "../../api/settings";
import { toast } from "../../api/toast";
import { useSessionUser } from "../../auth/AuthContext";
import { applyServerErrors, fieldErrorText } from "../../components/formFields";
import { SchedulesEditor } from "../../components/SchedulesEditor";
import type { CompanyDTO, ScheduleEntry } from "@atende/contracts";

interface HoursFormValues {
  schedules: ScheduleEntry[];
}

const hoursResolver = zodResolver(companySchedulesSchema) as unknown as Resolver<
  HoursFormValues,
  unknown,
  CompanySchedulesInput
>;

/** The Horarios tab: the company's opening hours, saved with one button. */
export function CompanyHoursTab() {
  const user = useSessionUser();
  const company = useQuery({
    queryKey: companyKeys.detail(user.companyId),
    queryFn: ({ signal }) => fetchCompany(user.companyId, signal),
  });
  if (!company.data) return <Skeleton variant="rounded" height={320} />;
  return <HoursForm company={company.data} />;
}

function HoursForm({ company }: { company: CompanyDTO }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<HoursFormValues, unknown, CompanySchedulesInput>({
    defaultValues: { schedules: scheduleWeek(company.schedules) },
    resolver: hoursResolver,
  });

  async function submit(values: CompanySchedulesInput) {
    try {
      const saved = await saveCompanySchedules(company.id, values.schedules);
      queryClient.setQueryData<CompanyDTO>(companyKeys.detail(company.id), (current) =>
        current ? { ...current, schedules: saved.schedules } : current,
      );
      toast(t("settings.schedulesSaved"), "success");
    } catch (error) {
      applyServerErrors(error, setError, {
        fieldOf: (path) =>
          /^schedules\.\d+\.(startTime|endTime)$/.test(path)
            ? (path as `schedules.${number}.startTime`)
            : undefined,
      });
    }
  }

  return (
    <Box component="form" noValidate onSubmit={handleSubmit(submit)}>
      <Stack spacing={2.5} sx={{ maxWidth: 720 }}>
        <Typography variant="body2" color="text.secondary">
          {t("settings.schedulesHint")}
        </Typography>
        <Controller
          control={control}
          name="schedules"
          render={({ field }) => (
            <SchedulesEditor
              idPrefix="company-hours"
              value={field.value}
              onChange={field.onChange}
              errorOf={(index, part) => fieldErrorText(errors.schedules?.[index]?.[part])}
            />
          )}
        />
        <Box>
          <Button type="submit" variant="contained" loading={isSubmitting}>
            {t("settings.save")}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
