import type { WhatsappDTO } from "@atende/contracts";
import { Alert, Box, Button, MenuItem, Paper, Skeleton, Stack, TextField, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { phoneDigits, scanWithSimulator } from "../../api/simulator";
import { useSimulatorLive } from "../../api/simulatorLive";
import { toast, toastError } from "../../api/toast";
import { useWhatsapps } from "../../api/whatsapps";
import { isValidPhone } from "./conversation";
import { PhoneList } from "./PhoneList";
import { PhoneScreen } from "./PhoneScreen";

/** A customer's phone for trying the product without WhatsApp: talks to "simulator" connections. */
export function SimulatorPage() {
  const { t } = useTranslation();
  const list = useWhatsapps();
  const connections = (list.data ?? []).filter((w) => w.provider === "simulator");
  const [chosenId, setChosenId] = useState<number | null>(null);
  const whatsapp = connections.find((w) => w.id === chosenId) ?? connections[0];
  const [numberText, setNumberText] = useState("");
  const [name, setName] = useState("");
  const digits = phoneDigits(numberText);
  const number = isValidPhone(digits) ? digits : null;
  const numberError = numberText.trim() !== "" && number === null;
  useSimulatorLive();

  return (
    <Box
      sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2, flex: 1, minHeight: 0 }}
    >
      <Box>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
          {t("simulator.title")}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t("simulator.intro")}
        </Typography>
      </Box>
      {list.isPending && <Skeleton variant="rounded" height={120} />}
      {list.isSuccess && !whatsapp && (
        <Alert
          severity="info"
          action={
            <Button component={RouterLink} to="/connections" color="inherit" size="small">
              {t("simulator.goToConnections")}
            </Button>
          }
        >
          {t("simulator.noConnections")}
        </Alert>
      )}
      {whatsapp && (
        <Stack direction={{ xs: "column", md: "row" }} spacing={2} sx={{ flex: 1, minHeight: 0 }}>
          <Paper
            variant="outlined"
            sx={{
              width: { md: 320 },
              flexShrink: 0,
              p: 2,
              display: "flex",
              flexDirection: "column",
              gap: 2,
              minHeight: 0,
            }}
          >
            <TextField
              select
              id="simulator-connection"
              label={t("simulator.connection")}
              value={whatsapp.id}
              onChange={(event) => setChosenId(Number(event.target.value))}
            >
              {connections.map((connection) => (
                <MenuItem key={connection.id} value={connection.id}>
                  {connection.name}
                </MenuItem>
              ))}
            </TextField>
            <ConnectionState whatsapp={whatsapp} />
            <TextField
              id="simulator-number"
              label={t("simulator.number")}
              value={numberText}
              onChange={(event) => setNumberText(event.target.value)}
              placeholder="+5511987654321"
              error={numberError}
              helperText={numberError ? t("simulator.invalidNumber") : t("simulator.numberHint")}
              slotProps={{ htmlInput: { inputMode: "tel", autoComplete: "off" } }}
            />
            <TextField
              id="simulator-name"
              label={t("simulator.name")}
              value={name}
              onChange={(event) => setName(event.target.value)}
              slotProps={{ htmlInput: { maxLength: 100, autoComplete: "off" } }}
            />
            <PhoneList
              whatsappId={whatsapp.id}
              selected={number}
              onPick={(phone) => {
                setNumberText(`+${phone.number}`);
                setName(phone.name);
              }}
            />
          </Paper>
          <Box sx={{ flex: 1, minHeight: 0, display: "flex", justifyContent: "center" }}>
            <PhoneScreen
              key={`${whatsapp.id}:${number ?? ""}`}
              whatsapp={whatsapp}
              number={number}
              name={name}
            />
          </Box>
        </Stack>
      )}
    </Box>
  );
}

/** A connection that is not connected says so; one showing a QR code can be paired from here. */
function ConnectionState({ whatsapp }: { whatsapp: WhatsappDTO }) {
  const { t } = useTranslation();
  const [scanning, setScanning] = useState(false);
  if (whatsapp.status === "CONNECTED") return null;

  async function scan() {
    setScanning(true);
    try {
      await scanWithSimulator(whatsapp.id);
      toast(t("simulator.scanned"), "success");
    } catch (error) {
      toastError(error);
    } finally {
      setScanning(false);
    }
  }

  return (
    <Alert severity="warning">
      {t("simulator.notConnected", { status: t(`connections.status.${whatsapp.status}`) })}
      {whatsapp.status === "qrcode" && (
        <Box sx={{ mt: 1 }}>
          <Button
            variant="outlined"
            color="inherit"
            size="small"
            loading={scanning}
            onClick={() => void scan()}
          >
            {t("simulator.scan")}
          </Button>
        </Box>
      )}
    </Alert>
  );
}
