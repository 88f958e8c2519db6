import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
} from "@mui/material";
import { validationMessage } from "@atende/contracts";
import { useId, useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { currentLanguage } from "../../i18n";
import { phoneDigits } from "../../api/simulator";
import { isValidPhone } from "./conversation";

interface SmallFormDialogProps {
  title: string;
  onClose(): void;
  onSubmit(): void;
  children: ReactNode;
}

function SmallFormDialog({ title, onClose, onSubmit, children }: SmallFormDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <Box component="form" noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {children}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="contained">
            {t("simulator.send")}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

const invalid = () => validationMessage("validation.invalid", currentLanguage());
const required = () => validationMessage("validation.required", currentLanguage());

export interface LocationValue {
  latitude: number;
  longitude: number;
  name?: string;
}

export function LocationDialog({ onSend, onClose }: { onSend(value: LocationValue): void; onClose(): void }) {
  const { t } = useTranslation();
  const [latitude, setLatitude] = useState("-23.5505");
  const [longitude, setLongitude] = useState("-46.6333");
  const [name, setName] = useState("");
  const [checked, setChecked] = useState(false);
  const lat = Number(latitude.replace(",", "."));
  const lng = Number(longitude.replace(",", "."));
  const latOk = latitude.trim() !== "" && Number.isFinite(lat) && Math.abs(lat) <= 90;
  const lngOk = longitude.trim() !== "" && Number.isFinite(lng) && Math.abs(lng) <= 180;

  function submit() {
    setChecked(true);
    if (latOk && lngOk) onSend({ latitude: lat, longitude: lng, name: name.trim() || undefined });
  }

  return (
    <SmallFormDialog title={t("simulator.locationDialog.title")} onClose={onClose} onSubmit={submit}>
      <TextField
        label={t("simulator.locationDialog.latitude")}
        value={latitude}
        onChange={(event) => setLatitude(event.target.value)}
        error={checked && !latOk}
        helperText={checked && !latOk ? invalid() : undefined}
        slotProps={{ htmlInput: { inputMode: "decimal" } }}
        autoFocus
      />
      <TextField
        label={t("simulator.locationDialog.longitude")}
        value={longitude}
        onChange={(event) => setLongitude(event.target.value)}
        error={checked && !lngOk}
        helperText={checked && !lngOk ? invalid() : undefined}
        slotProps={{ htmlInput: { inputMode: "decimal" } }}
      />
      <TextField
        label={t("simulator.locationDialog.name")}
        value={name}
        onChange={(event) => setName(event.target.value)}
        slotProps={{ htmlInput: { maxLength: 255 } }}
      />
    </SmallFormDialog>
  );
}

export interface ContactCardValue {
  name: string;
  number: string;
}

export function ContactCardDialog({
  onSend,
  onClose,
}: {
  onSend(value: ContactCardValue): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [number, setNumber] = useState("");
  const [checked, setChecked] = useState(false);
  const nameOk = name.trim() !== "";
  const numberOk = isValidPhone(phoneDigits(number));

  function submit() {
    setChecked(true);
    if (nameOk && numberOk) onSend({ name: name.trim(), number: phoneDigits(number) });
  }

  return (
    <SmallFormDialog title={t("simulator.contactDialog.title")} onClose={onClose} onSubmit={submit}>
      <TextField
        label={t("simulator.contactDialog.name")}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={checked && !nameOk}
        helperText={checked && !nameOk ? required() : undefined}
        slotProps={{ htmlInput: { maxLength: 100 } }}
        autoFocus
      />
      <TextField
        label={t("simulator.contactDialog.number")}
        value={number}
        onChange={(event) => setNumber(event.target.value)}
        error={checked && !numberOk}
        helperText={checked && !numberOk ? t("simulator.invalidNumber") : undefined}
        placeholder="+5511987654321"
        slotProps={{ htmlInput: { inputMode: "tel" } }}
      />
    </SmallFormDialog>
  );
}
