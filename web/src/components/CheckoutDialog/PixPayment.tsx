import type { PixChargeDTO } from "@atende/contracts";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import { Box, Button, CircularProgress, Stack, TextField, Typography } from "@mui/material";
import { QRCodeSVG } from "qrcode.react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../api/toast";
import { formatBRL, formatDate, formatTime } from "../../i18n/format";

/** When the charge stops being payable: as the gateway said, else its creation plus its validity. */
function expiryOf(charge: PixChargeDTO): Date | null {
  if (charge.expiresAt) return new Date(charge.expiresAt);
  const created = Date.parse(charge.calendario.criacao);
  return Number.isNaN(created) ? null : new Date(created + charge.calendario.expiracao * 1000);
}

/**
 * The Pix screen: the QR code (drawn here from the BR Code, so it is sharp at any size), the copy
 * and paste code with a copy button, the amount and the expiry. The payment's confirmation comes
 * over the live channel (PaymentWatcher): the toast, then / after 4 s.
 */
export function PixPayment({ charge }: { charge: PixChargeDTO }) {
  const { t, i18n } = useTranslation();
  const [copied, setCopied] = useState(false);
  const amount = formatBRL(charge.valor.original, i18n.language);
  const expiry = expiryOf(charge);
  const code = charge.qrcode.qrcode;

  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      toast(t("billing.checkout.pix.copied"), "success");
      window.setTimeout(() => setCopied(false), 2_000);
    } catch {
      toast(t("billing.checkout.pix.copyFailed"), "warning");
    }
  }

  return (
    <Stack
      direction={{ xs: "column", sm: "row" }}
      spacing={3}
      sx={{ alignItems: { xs: "center", sm: "flex-start" } }}
      data-testid="pix-payment"
    >
      {/* White around the code whatever the theme: banks' cameras read dark on light. */}
      <Box
        sx={{
          p: 2,
          bgcolor: "#fff",
          borderRadius: 1,
          lineHeight: 0,
          flexShrink: 0,
          border: 1,
          borderColor: "divider",
        }}
      >
        <QRCodeSVG
          value={code}
          size={220}
          level="M"
          role="img"
          aria-label={t("billing.checkout.pix.qrLabel", { value: amount })}
          data-testid="pix-qrcode"
        />
      </Box>
      <Stack spacing={2} sx={{ flex: 1, minWidth: 0, width: "100%" }}>
        <Box>
          <Typography variant="h6" component="h3">
            {t("billing.checkout.pix.title")}
          </Typography>
          <Typography color="text.secondary">{t("billing.checkout.pix.scan")}</Typography>
        </Box>
        <Stack direction="row" spacing={4}>
          <Box>
            <Typography variant="overline" color="text.secondary">
              {t("billing.checkout.pix.amount")}
            </Typography>
            <Typography variant="h5" component="p" sx={{ fontWeight: 700 }} data-testid="pix-amount">
              {amount}
            </Typography>
          </Box>
          {expiry && (
            <Box>
              <Typography variant="overline" color="text.secondary">
                {t("billing.checkout.pix.expires")}
              </Typography>
              <Typography variant="h6" component="p" data-testid="pix-expiry">
                {formatDate(expiry)} {formatTime(expiry)}
              </Typography>
            </Box>
          )}
        </Stack>
        <TextField
          id="pix-code"
          label={t("billing.checkout.pix.code")}
          value={code}
          fullWidth
          multiline
          maxRows={3}
          slotProps={{
            htmlInput: {
              readOnly: true,
              spellCheck: false,
              style: { fontFamily: "monospace", fontSize: 13 },
            },
          }}
          onFocus={(event) => event.target.select()}
        />
        <Stack direction="row" spacing={2} sx={{ alignItems: "center", flexWrap: "wrap", rowGap: 1 }}>
          <Button
            variant={copied ? "outlined" : "contained"}
            startIcon={<ContentCopyIcon />}
            onClick={() => void copy()}
          >
            {t(copied ? "billing.checkout.pix.copied" : "billing.checkout.pix.copy")}
          </Button>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: "center" }} role="status">
            <CircularProgress size={18} />
            <Typography color="text.secondary">{t("billing.checkout.pix.waiting")}</Typography>
          </Stack>
        </Stack>
      </Stack>
    </Stack>
  );
}
