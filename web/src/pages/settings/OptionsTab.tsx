import {
  CHATBOT_TYPES,
  ENABLED_DISABLED,
  HISTORY_IMPORT_DAYS,
  SCHEDULE_TYPES,
  TRIAL_DAYS,
  type BillingSettingKey,
  type SecretSettingKey,
  type SettingDTO,
  type SettingKey,
  isSecretSettingKey,
} from "@atende/contracts";
import { Autocomplete, Box, Divider, MenuItem, Skeleton, Stack, TextField, Typography } from "@mui/material";
import { useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { clearSetting, settingValue, storeSetting, updateSetting } from "../../api/settings";
import { toast, toastError } from "../../api/toast";
import { useAuth, useSessionUser } from "../../auth/AuthContext";
import { BillingSettings } from "./BillingSettings";
import { SecretSettingField } from "./SecretSettingField";

type ChoiceKey = Exclude<
  SettingKey,
  | "timezone"
  | "ipixc"
  | "tokenixc"
  | "ipmkauth"
  | "clientidmkauth"
  | "clientsecretmkauth"
  | "asaas"
  | BillingSettingKey
>;

/** Each select's values, in the order shown. */
const CHOICES: Record<ChoiceKey, readonly string[]> = {
  userRating: ENABLED_DISABLED,
  scheduleType: SCHEDULE_TYPES,
  call: ENABLED_DISABLED,
  CheckMsgIsGroup: ENABLED_DISABLED,
  chatBotType: CHATBOT_TYPES,
  sendGreetingAccepted: ENABLED_DISABLED,
  sendMsgTransfTicket: ENABLED_DISABLED,
  sendGreetingMessageOneQueues: ENABLED_DISABLED,
  notificationPreview: ENABLED_DISABLED,
  historyImportDays: HISTORY_IMPORT_DAYS,
  allowregister: ENABLED_DISABLED,
  viewregister: ENABLED_DISABLED,
  trial: TRIAL_DAYS,
};

const SERVICE_KEYS: ChoiceKey[] = [
  "userRating",
  "scheduleType",
  "call",
  "CheckMsgIsGroup",
  "chatBotType",
  "sendGreetingAccepted",
  "sendMsgTransfTicket",
  "sendGreetingMessageOneQueues",
  "notificationPreview",
  "historyImportDays",
];
const PLATFORM_KEYS: ChoiceKey[] = ["allowregister", "viewregister", "trial"];
const INTEGRATION_KEYS = [
  "ipixc",
  "tokenixc",
  "ipmkauth",
  "clientidmkauth",
  "clientsecretmkauth",
  "asaas",
] as const satisfies readonly SettingKey[];

function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [...new Set(["America/Sao_Paulo", "UTC", ...zones])].sort();
}

interface OptionsTabProps {
  settings: UseQueryResult<SettingDTO[]>;
}

/** Every setting of the company as a select (the time zone searchable); each change is saved at once. */
export function OptionsTab({ settings }: OptionsTabProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useSessionUser();
  const { updateCompany } = useAuth();
  const [saving, setSaving] = useState<ReadonlySet<string>>(new Set());
  const zones = useMemo(timeZones, []);

  /** Runs one setting's call with its field marked busy; a failure shows as a toast. */
  async function busy(key: SettingKey, call: () => Promise<void>) {
    setSaving((keys) => new Set(keys).add(key));
    try {
      await call();
    } catch (error) {
      toastError(error);
    } finally {
      setSaving((keys) => {
        const next = new Set(keys);
        next.delete(key);
        return next;
      });
    }
  }

  async function save(key: SettingKey, value: string) {
    if (settingValue(settings.data, key) === value) return;
    await busy(key, async () => {
      const saved = await updateSetting(key, value);
      storeSetting(queryClient, saved);
      // The session's company follows at once (the time zone dates show in, notification previews).
      if (!saved.hint)
        updateCompany({
          settings: [...user.company.settings.filter((s) => s.key !== key), { key, value: saved.value }],
        });
      toast(t("settings.saved"), "success");
    });
  }

  /** Removes a stored secret; the list keeps the key with no hint, so the field shows none. */
  async function remove(key: SecretSettingKey) {
    await busy(key, async () => {
      await clearSetting(key);
      storeSetting(queryClient, { key, value: "", hint: "" });
      toast(t("settings.secretRemoved"), "success");
    });
  }

  function valueLabel(key: ChoiceKey, value: string): string {
    if (key === "trial") return t("settings.trialDays", { count: Number(value) });
    if (key === "historyImportDays")
      return value === "0"
        ? t("settings.historyDaysNone")
        : t("settings.historyDays", { count: Number(value) });
    const special = `settings.values.${key}.${value}`;
    return t(special, { defaultValue: t(`settings.${value}`, { defaultValue: value }) });
  }

  function choice(key: ChoiceKey) {
    const current = settingValue(settings.data, key) ?? "";
    const options =
      CHOICES[key].includes(current) || current === "" ? CHOICES[key] : [current, ...CHOICES[key]];
    return (
      <TextField
        key={key}
        select
        id={`setting-${key}`}
        label={t(`settings.keys.${key}.label`)}
        helperText={t(`settings.keys.${key}.help`)}
        value={current}
        disabled={saving.has(key)}
        onChange={(event) => void save(key, event.target.value)}
      >
        {options.map((value) => (
          <MenuItem key={value} value={value}>
            {valueLabel(key, value)}
          </MenuItem>
        ))}
      </TextField>
    );
  }

  if (settings.isPending) {
    return (
      <Stack spacing={2}>
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} variant="rounded" height={56} />
        ))}
      </Stack>
    );
  }

  const grid = { display: "grid", gap: 2.5, gridTemplateColumns: { xs: "1fr", md: "1fr 1fr" } } as const;
  const timezone = settingValue(settings.data, "timezone") ?? "";
  return (
    <Stack spacing={3}>
      <Box>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 2 }}>
          {t("settings.sections.service")}
        </Typography>
        <Box sx={grid}>
          {SERVICE_KEYS.map(choice)}
          <Autocomplete
            id="setting-timezone"
            options={zones}
            value={timezone}
            disableClearable
            disabled={saving.has("timezone")}
            noOptionsText={t("settings.noTimezone")}
            onChange={(_, value: string) => void save("timezone", value)}
            renderInput={(params) => (
              <TextField
                {...params}
                label={t("settings.keys.timezone.label")}
                helperText={t("settings.keys.timezone.help")}
              />
            )}
          />
        </Box>
      </Box>
      {user.super && (
        <>
          <Divider />
          <Box>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 2 }}>
              {t("settings.sections.platform")}
            </Typography>
            <Box sx={grid}>{PLATFORM_KEYS.map(choice)}</Box>
          </Box>
          <Divider />
          <Box>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 2 }}>
              {t("settings.sections.integrations")}
            </Typography>
            <Box sx={grid}>
              {INTEGRATION_KEYS.map((key) =>
                isSecretSettingKey(key) ? (
                  <SecretSettingField
                    key={key}
                    settingKey={key}
                    label={t(`settings.keys.${key}.label`)}
                    settings={settings.data}
                    busy={saving.has(key)}
                    save={(k, value) => void save(k, value)}
                    remove={remove}
                  />
                ) : (
                  <TextField
                    key={`${key}-${settingValue(settings.data, key) ?? ""}`}
                    id={`setting-${key}`}
                    label={t(`settings.keys.${key}.label`)}
                    autoComplete="off"
                    defaultValue={settingValue(settings.data, key) ?? ""}
                    disabled={saving.has(key)}
                    onBlur={(event) => void save(key, event.target.value.trim())}
                    slotProps={{ htmlInput: { maxLength: 500 } }}
                  />
                ),
              )}
            </Box>
          </Box>
          <Divider />
          <BillingSettings
            settings={settings.data}
            saving={saving}
            save={(key, value) => void save(key, value)}
            remove={remove}
          />
        </>
      )}
    </Stack>
  );
}
