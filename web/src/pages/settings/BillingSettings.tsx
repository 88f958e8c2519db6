import {
  BILLING_GRACE_DAYS_DEFAULT,
  INVOICE_DAYS_BEFORE_DEFAULT,
  type SecretSettingKey,
  type SettingDTO,
  type SettingKey,
} from "@atende/contracts";
import { Box, MenuItem, TextField, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { settingValue } from "../../api/settings";
import { SecretSettingField } from "./SecretSettingField";

const GATEWAYS = ["", "pixKey", "asaas"] as const;
const TEXT_KEYS = ["pixKey", "pixMerchantName", "pixMerchantCity"] as const;
const DAY_KEYS = {
  invoiceDaysBefore: INVOICE_DAYS_BEFORE_DEFAULT,
  billingGraceDays: BILLING_GRACE_DAYS_DEFAULT,
};

interface BillingSettingsProps {
  settings: SettingDTO[] | undefined;
  saving: ReadonlySet<string>;
  save(key: SettingKey, value: string): void;
  remove(key: SecretSettingKey): Promise<void>;
}

/**
 * Payments: which gateway the checkout uses (none, a plain Pix key confirmed by hand, or Asaas,
 * whose API key is the `asaas` integration field above), the Pix key's receiver, the Asaas webhook
 * token, how many days before the due date invoices open and the grace days before the lock.
 * Saved as each field is left, as every setting.
 */
export function BillingSettings({ settings, saving, save, remove }: BillingSettingsProps) {
  const { t } = useTranslation();
  const gateway = settingValue(settings, "paymentGateway") ?? "";
  const grid = { display: "grid", gap: 2.5, gridTemplateColumns: { xs: "1fr", md: "1fr 1fr" } } as const;

  return (
    <Box>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 2 }}>
        {t("billing.settings.heading")}
      </Typography>
      <Box sx={grid}>
        <TextField
          select
          id="setting-paymentGateway"
          label={t("billing.settings.paymentGateway")}
          helperText={t("billing.settings.paymentGatewayHelp")}
          value={gateway}
          disabled={saving.has("paymentGateway")}
          onChange={(event) => save("paymentGateway", event.target.value)}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          {GATEWAYS.map((value) => (
            <MenuItem key={value} value={value}>
              {t(`billing.settings.gateways.${value || "none"}`)}
            </MenuItem>
          ))}
        </TextField>
        {(Object.keys(DAY_KEYS) as (keyof typeof DAY_KEYS)[]).map((key) => (
          <TextField
            key={`${key}-${settingValue(settings, key) ?? ""}`}
            id={`setting-${key}`}
            label={t(`billing.settings.${key}`)}
            helperText={t(`billing.settings.${key}Help`)}
            type="number"
            defaultValue={settingValue(settings, key) ?? String(DAY_KEYS[key])}
            disabled={saving.has(key)}
            onBlur={(event) => save(key, event.target.value.trim())}
            slotProps={{ htmlInput: { min: 0, max: 999 } }}
          />
        ))}
        <SecretSettingField
          settingKey="asaasWebhookToken"
          label={t("billing.settings.asaasWebhookToken")}
          help={t("billing.settings.webhookUrl", { url: `${window.location.origin}/webhooks/asaas` })}
          settings={settings}
          busy={saving.has("asaasWebhookToken")}
          save={save}
          remove={remove}
        />
        {TEXT_KEYS.map((key) => (
          <TextField
            key={`${key}-${settingValue(settings, key) ?? ""}`}
            id={`setting-${key}`}
            label={t(`billing.settings.${key}`)}
            autoComplete="off"
            defaultValue={settingValue(settings, key) ?? ""}
            disabled={saving.has(key)}
            onBlur={(event) => save(key, event.target.value.trim())}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
        ))}
      </Box>
    </Box>
  );
}
