import type { WhatsappDetailDTO } from "@atende/contracts";
import AutorenewIcon from "@mui/icons-material/Autorenew";
import { IconButton, InputAdornment, TextField, Tooltip } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { rotateWhatsappToken } from "../../../api/whatsapps";
import { CopyButton } from "./CopyButton";

/**
 * The connection's API token: the server makes it and shows it once, so the field shows its last
 * characters, and a button makes a new one (the current one stops working), shown until the
 * dialog closes. A new connection gets its token when saved.
 */
export function ConnectionTokenField({ whatsapp }: { whatsapp: WhatsappDetailDTO | null }) {
  const { t } = useTranslation();
  const [fresh, setFresh] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const hint = whatsapp?.tokenHint ?? "";

  async function rotate(id: number) {
    setBusy(true);
    try {
      setFresh((await rotateWhatsappToken(id)).token);
    } catch {
      // The HTTP client toasted the error.
    } finally {
      setBusy(false);
    }
  }

  let helper = t("connectionModal.tokenAfterSave");
  if (fresh) helper = t("connectionModal.tokenShownOnce");
  else if (whatsapp) helper = t(hint ? "connectionModal.tokenHint" : "connectionModal.tokenNone");

  return (
    <TextField
      id="connection-token"
      label={t("connectionModal.token")}
      value={fresh ?? (hint ? `••••${hint}` : "")}
      disabled={!whatsapp}
      helperText={helper}
      slotProps={{
        htmlInput: { readOnly: true },
        input: whatsapp
          ? {
              endAdornment: (
                <InputAdornment position="end">
                  <Tooltip title={t("connectionModal.generateToken")} disableInteractive>
                    <span>
                      <IconButton
                        aria-label={t("connectionModal.generateToken")}
                        disabled={busy}
                        onClick={() => void rotate(whatsapp.id)}
                      >
                        <AutorenewIcon fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                  <CopyButton text={fresh ?? ""} label={t("connectionModal.copyToken")} />
                </InputAdornment>
              ),
            }
          : undefined,
      }}
    />
  );
}
