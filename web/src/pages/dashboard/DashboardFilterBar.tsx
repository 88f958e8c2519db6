import FilterListIcon from "@mui/icons-material/FilterList";
import { Button, Stack } from "@mui/material";
import { useTranslation } from "react-i18next";
import { PeriodFields, type PeriodFieldsProps } from "../../components/PeriodFields";

interface DashboardFilterBarProps extends PeriodFieldsProps {
  onApply(): void;
}

/** The period fields and the Filter button (which says 'Parametrize o filtro' when nothing is set). */
export function DashboardFilterBar({ value, onChange, onApply }: DashboardFilterBarProps) {
  const { t } = useTranslation();
  return (
    <Stack
      component="form"
      direction={{ xs: "column", sm: "row" }}
      spacing={1.5}
      sx={{ alignItems: { sm: "flex-start" } }}
      onSubmit={(event) => {
        event.preventDefault();
        onApply();
      }}
    >
      <PeriodFields value={value} onChange={onChange} />
      <Button type="submit" variant="contained" startIcon={<FilterListIcon />} sx={{ height: 40 }}>
        {t("dashboard.filter.apply")}
      </Button>
    </Stack>
  );
}
