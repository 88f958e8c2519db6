import type { WhatsappDTO } from "@atende/contracts";
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  Link,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from "@mui/material";
import { QRCodeSVG } from "qrcode.react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { scanWithSimulator } from "../../api/simulator";
import { toastError } from "../../api/toast";
import { PairingCodePanel } from "./PairingCodePanel";

interface QrCodeDialogProps {
  /** The connection as the live list has it (undefined once deleted). */
  whatsapp: WhatsappDTO | undefined;
  onClose(): void;
}

const STEPS = ["step1", "step2", "step3", "step4"] as const;

/**
 * The connection's current QR code, live, or (a link away) a pairing code for a phone number;
 * closes by itself once the QR code is gone (connected).
 */
export function QrCodeDialog({ whatsapp, onClose }: QrCodeDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const [scanning, setScanning] = useState(false);
  const [byCode, setByCode] = useState(false);
  const qrcode = whatsapp?.qrcode ?? "";
  // Close only once a code was shown and is then gone: a dialog opened a moment early waits for one.
  const shown = useRef(false);

  useEffect(() => {
    if (qrcode) shown.current = true;
    else if (shown.current || !whatsapp) onClose();
  }, [qrcode, whatsapp, onClose]);

  async function scan() {
    if (!whatsapp) return;
    setScanning(true);
    try {
      await scanWithSimulator(whatsapp.id);
    } catch (error) {
      toastError(error);
    } finally {
      setScanning(false);
    }
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="md">
      <DialogTitle id={titleId}>{t("qrDialog.title")}</DialogTitle>
      <DialogContent>
        <Stack direction={{ xs: "column", sm: "row" }} spacing={3} sx={{ alignItems: "center" }}>
          <Box sx={{ flex: 1, maxWidth: 340 }}>
            <Typography sx={{ fontWeight: 600, mb: 1 }}>
              {t(byCode ? "whatsappSession.pairing.intro" : "qrDialog.intro")}
            </Typography>
            <Box component="ol" sx={{ pl: 2.5, m: 0, "& li": { mb: 1 } }}>
              {STEPS.map((step) => (
                <Typography component="li" key={step} variant="body2">
                  {t(byCode ? `whatsappSession.pairing.${step}` : `qrDialog.${step}`)}
                </Typography>
              ))}
            </Box>
            {whatsapp && whatsapp.provider !== "cloud" && (
              <Link component="button" type="button" variant="body2" onClick={() => setByCode((on) => !on)}>
                {t(byCode ? "whatsappSession.pairing.useQr" : "whatsappSession.pairing.useCode")}
              </Link>
            )}
          </Box>
          {byCode && whatsapp ? (
            <PairingCodePanel whatsappId={whatsapp.id} />
          ) : (
            <Box
              sx={{
                width: 272,
                height: 272,
                display: "grid",
                placeItems: "center",
                bgcolor: "#fff",
                borderRadius: 2,
                p: 1,
              }}
            >
              {qrcode ? (
                <QRCodeSVG value={qrcode} size={256} role="img" aria-label={t("qrDialog.title")} />
              ) : (
                <CircularProgress aria-label={t("qrDialog.waiting")} />
              )}
            </Box>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        {whatsapp?.provider === "simulator" && (
          <Button onClick={() => void scan()} loading={scanning} disabled={!qrcode}>
            {t("qrDialog.scan")}
          </Button>
        )}
        <Button onClick={onClose}>{t("qrDialog.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
