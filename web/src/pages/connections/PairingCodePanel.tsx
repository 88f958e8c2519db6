import { formatPairingCode, pairingCodeRequestSchema, type PairingCodeRequest } from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, Stack, TextField, Typography } from "@mui/material";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { requestPairingCode } from "../../api/whatsappPairing";
import { applyServerErrors, fieldBinder } from "../../components/formFields";

const resolver = zodResolver(pairingCodeRequestSchema);

/**
 * The QR code's alternative: the phone's number in, WhatsApp's 8-character code out, typed on the
 * phone under Linked devices → Link with phone number. The dialog still closes once paired.
 */
export function PairingCodePanel({ whatsappId }: { whatsappId: number }) {
  const { t } = useTranslation();
  const [code, setCode] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PairingCodeRequest>({ resolver, defaultValues: { number: "" } });
  const number = fieldBinder(register, errors)("number");

  const submit = handleSubmit(async (values) => {
    try {
      setCode((await requestPairingCode(whatsappId, values)).code);
    } catch (error) {
      applyServerErrors(error, setError, {
        fieldOf: (path) => (path === "number" ? "number" : undefined),
        codes: { ERR_WAPP_PAIRING_FAILED: "number" },
      });
    }
  });

  return (
    <Stack component="form" noValidate onSubmit={(e) => void submit(e)} spacing={2} sx={{ width: 272 }}>
      <TextField
        {...number}
        label={t("whatsappSession.pairing.number")}
        helperText={number.helperText ?? t("whatsappSession.pairing.numberHelp")}
        type="tel"
        autoComplete="tel"
        autoFocus
        fullWidth
      />
      <Button type="submit" variant={code ? "outlined" : "contained"} loading={isSubmitting}>
        {t(code ? "whatsappSession.pairing.again" : "whatsappSession.pairing.request")}
      </Button>
      {code && (
        <Box sx={{ textAlign: "center" }}>
          <Typography variant="caption" color="text.secondary" id="pairing-code-label">
            {t("whatsappSession.pairing.code")}
          </Typography>
          <Typography
            data-testid="pairing-code"
            aria-labelledby="pairing-code-label"
            aria-live="polite"
            sx={{ fontFamily: "monospace", fontSize: 32, fontWeight: 700, letterSpacing: 4 }}
          >
            {formatPairingCode(code)}
          </Typography>
        </Box>
      )}
    </Stack>
  );
}
