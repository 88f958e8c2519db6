import {
  Avatar,
  List,
  ListItem,
  ListItemAvatar,
  ListItemButton,
  ListItemText,
  Skeleton,
  Typography,
} from "@mui/material";
import { useTranslation } from "react-i18next";
import { phoneForms, type SimulatorPhone } from "../../api/simulator";
import { formatDate, formatTime } from "../../i18n/format";
import { formatConnectionNumber } from "../connections/format";
import { usePhones } from "./useSimulator";

interface PhoneListProps {
  whatsappId: number;
  /** The number on screen (digits). */
  selected: string | null;
  onPick(phone: SimulatorPhone): void;
}

function lastAt(value: string | null): string {
  if (!value) return "";
  const today = formatDate(new Date());
  return formatDate(value) === today ? formatTime(value) : formatDate(value);
}

/** The phones that have talked to this connection, latest first. */
export function PhoneList({ whatsappId, selected, onPick }: PhoneListProps) {
  const { t } = useTranslation();
  const selectedForms = selected ? phoneForms(selected) : [];
  const phones = usePhones(whatsappId);
  const headingId = `simulator-phones-${whatsappId}`;

  return (
    <>
      <Typography id={headingId} variant="subtitle2" component="h2">
        {t("simulator.phones")}
      </Typography>
      {phones.isPending && <Skeleton variant="rounded" height={56} />}
      {phones.isSuccess && phones.data.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t("simulator.noPhones")}
        </Typography>
      )}
      {phones.isSuccess && phones.data.length > 0 && (
        <List dense aria-labelledby={headingId} sx={{ overflowY: "auto", minHeight: 0, flex: 1, mx: -1 }}>
          {/* Each row a list item (<li>) holding its button: a list holds items only. */}
          {phones.data.map((phone) => (
            <ListItem key={phone.number} disablePadding>
              <ListItemButton
                selected={selectedForms.includes(phone.number)}
                onClick={() => onPick(phone)}
                sx={{ borderRadius: 2 }}
              >
                <ListItemAvatar sx={{ minWidth: 48 }}>
                  <Avatar sx={{ width: 36, height: 36 }}>
                    {(phone.name || "#").slice(0, 1).toUpperCase()}
                  </Avatar>
                </ListItemAvatar>
                <ListItemText
                  primary={phone.name || `+${phone.number}`}
                  secondary={formatConnectionNumber(phone.number) || `+${phone.number}`}
                />
                <Typography variant="caption" color="text.secondary">
                  {lastAt(phone.lastMessageAt)}
                </Typography>
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
    </>
  );
}
