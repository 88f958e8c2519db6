import type { WhatsappDetailDTO } from "@atende/contracts";
import AutorenewIcon from "@mui/icons-material/Autorenew";
import { IconButton, InputAdornment, TextField, Tooltip } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { rotateWhatsappToken, whatsappKeys } from "../../../api/whatsapps";
import { ConfirmationDialog } from "../../../components/ConfirmationDialog";
import { CopyButton } from "./CopyButton";

/**
 * The connection's API token: the server makes it only when asked here and shows it once, so the
 * field shows its last characters, and a button makes a new one, shown until the dialog closes.
 * Replacing a token that exists revokes it, so that asks first. A new connection has no token
 * until it is saved and one is generated.
 */
export function ConnectionTokenField({ whatsapp }: { whatsapp: WhatsappDetailDTO | null }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [fresh, setFresh] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const hint = whatsapp?.tokenHint ?? "";

  async function rotate(id: number) {
    setBusy(true);
    try {
      const { token, tokenHint } = await rotateWhatsappToken(id);
      setFresh(token);
      // The dialog's copy of the connection shows the new hint (the token itself stays here only).
      queryClient.setQueryData<WhatsappDetailDTO>(whatsappKeys.detail(id), (detail) =>
        detail ? { ...detail, tokenHint } : detail,
      );
    } catch {
      // The HTTP client toasted the error.
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  }

  function askToRotate(id: number) {
    if (fresh || hint) setConfirming(true);
    else void rotate(id);
  }

  let helper = t("connectionModal.tokenAfterSave");
  if (fresh) helper = t("connectionModal.tokenShownOnce");
  else if (whatsapp) helper = t(hint ? "connectionModal.tokenHint" : "connectionModal.tokenNone");

  return (
    <>
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
                        {/* Not `disabled` while busy: a focused button that turns disabled drops the
                            focus to the page, where the dialog no longer hears Escape or Tab. */}
                        <IconButton
                          aria-label={t("connectionModal.generateToken")}
                          aria-disabled={busy}
                          onClick={() => {
                            if (!busy) askToRotate(whatsapp.id);
                          }}
                        >
                          <AutorenewIcon fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                    {/* Only a token generated here can be copied: the hint is not one. */}
                    <CopyButton text={fresh ?? ""} label={t("connectionModal.copyToken")} />
                  </InputAdornment>
                ),
              }
            : undefined,
        }}
      />
      {whatsapp && (
        <ConfirmationDialog
          open={confirming}
          title={t("connectionModal.generateToken")}
          message={t("connectionModal.generateTokenConfirm")}
          busy={busy}
          onConfirm={() => void rotate(whatsapp.id)}
          onClose={() => setConfirming(false)}
        />
      )}
    </>
  );
}
