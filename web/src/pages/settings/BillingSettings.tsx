import {
  BILLING_GRACE_DAYS_DEFAULT,
  INVOICE_DAYS_BEFORE_DEFAULT,
  type SettingDTO,
  type SettingKey,
} from "@atende/contracts";
import { Box, MenuItem, TextField, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { settingHint, settingValue } from "../../api/settings";

/** The super user's billing settings (SUPER_SETTING_VALUES), shown in the Options tab. */
export const BILLING_SETTING_KEYS = [
  "paymentGateway",
  "asaasWebhookToken",
  "pixKey",
  "pixMerchantName",
  "pixMerchantCity",
  "invoiceDaysBefore",
  "billingGraceDays",
] as const satisfies readonly SettingKey[];
export type BillingSettingKey = (typeof BILLING_SETTING_KEYS)[number];

const GATEWAYS = ["", "pixKey", "asaas"] as const;
const TEXT_KEYS = ["asaasWebhookToken", "pixKey", "pixMerchantName", "pixMerchantCity"] as const;
const DAY_KEYS = {
  invoiceDaysBefore: INVOICE_DAYS_BEFORE_DEFAULT,
  billingGraceDays: BILLING_GRACE_DAYS_DEFAULT,
};

interface BillingSettingsProps {
  settings: SettingDTO[] | undefined;
  saving: ReadonlySet<string>;
  save(key: SettingKey, value: string): void;
}

/**
 * Payments: which gateway the checkout uses (none, a plain Pix key confirmed by hand, or Asaas,
 * whose API key is the `asaas` integration field above), the Pix key's receiver, the Asaas webhook
 * token, how many days before the due date invoices open and the grace days before the lock.
 * Saved as each field is left, as every setting.
 */
export function BillingSettings({ settings, saving, save }: BillingSettingsProps) {
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
        {TEXT_KEYS.map((key) => {
          // The webhook token is a secret: the list answers only its hint, shown as the placeholder;
          // a field left blank keeps the stored token.
          const secret = key === "asaasWebhookToken";
          const hint = secret ? settingHint(settings, key) : "";
          return (
            <TextField
              key={`${key}-${settingValue(settings, key) ?? ""}-${hint}`}
              id={`setting-${key}`}
              label={t(`billing.settings.${key}`)}
              type={secret ? "password" : "text"}
              placeholder={hint ? `••••${hint}` : undefined}
              helperText={
                secret
                  ? [
                      hint ? t("billing.settings.secretKeep", { hint: `••••${hint}` }) : "",
                      t("billing.settings.webhookUrl", { url: `${window.location.origin}/webhooks/asaas` }),
                    ]
                      .filter(Boolean)
                      .join(" ")
                  : undefined
              }
              autoComplete="off"
              defaultValue={secret ? "" : (settingValue(settings, key) ?? "")}
              disabled={saving.has(key)}
              onBlur={(event) => {
                const value = event.target.value.trim();
                if (secret && !value) return;
                save(key, value);
              }}
              slotProps={{ htmlInput: { maxLength: 500 }, ...(hint ? { inputLabel: { shrink: true } } : {}) }}
            />
          );
        })}
      </Box>
    </Box>
  );
}
