import type { SettingDTO, SecretSettingKey } from "@atende/contracts";
import { Box, Button, TextField } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { settingHint } from "../../api/settings";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";

interface SecretSettingFieldProps {
  settingKey: SecretSettingKey;
  label: string;
  /** More help after the "saved" sentence (the webhook's address). */
  help?: string;
  settings: SettingDTO[] | undefined;
  busy: boolean;
  save(key: SecretSettingKey, value: string): void;
  remove(key: SecretSettingKey): Promise<void>;
}

/**
 * A secret setting (SECRET_SETTING_KEYS): the list answers only its hint, shown as the placeholder;
 * a field left blank keeps the stored value, and "Remover" (after a confirmation) removes it.
 */
export function SecretSettingField({
  settingKey: key,
  label,
  help,
  settings,
  busy,
  save,
  remove,
}: SecretSettingFieldProps) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const [removing, setRemoving] = useState(false);
  const hint = settingHint(settings, key);
  const helperText = [hint ? t("billing.settings.secretKeep", { hint: `••••${hint}` }) : "", help ?? ""]
    .filter(Boolean)
    .join(" ");

  async function confirmRemove() {
    setRemoving(true);
    try {
      await remove(key);
    } finally {
      setRemoving(false);
      setConfirming(false);
    }
  }

  return (
    <Box sx={{ display: "flex", gap: 1, alignItems: "flex-start" }}>
      <TextField
        // A new hint (saved, removed) starts the field blank again.
        key={`${key}-${hint}`}
        id={`setting-${key}`}
        label={label}
        type="password"
        autoComplete="off"
        fullWidth
        placeholder={hint ? `••••${hint}` : undefined}
        helperText={helperText || undefined}
        defaultValue=""
        disabled={busy}
        onBlur={(event) => {
          const value = event.target.value.trim();
          if (value) save(key, value);
        }}
        slotProps={{ htmlInput: { maxLength: 500 }, ...(hint ? { inputLabel: { shrink: true } } : {}) }}
      />
      {hint && (
        <Button
          color="error"
          disabled={busy}
          aria-label={t("settings.removeSecretLabel", { label })}
          onClick={() => setConfirming(true)}
          sx={{ mt: 1, flexShrink: 0 }}
        >
          {t("settings.removeSecret")}
        </Button>
      )}
      <ConfirmationDialog
        open={confirming}
        title={t("settings.removeSecretTitle", { label })}
        message={t("settings.removeSecretMessage")}
        busy={removing}
        onConfirm={() => void confirmRemove()}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}
