import UploadIcon from "@mui/icons-material/UploadFileOutlined";
import {
  Box,
  Button,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from "@mui/material";
import {
  LOGO_ACCEPT,
  LOGO_MAX_BYTES,
  LOGO_MIME_TYPES,
  LOGO_TARGETS,
  type LogoTarget,
  isLogoTarget,
} from "@atende/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { storeLogos, uploadLogo, useLogos } from "../../api/logos";
import { toast, toastError } from "../../api/toast";
import { useAuth } from "../../auth/AuthContext";

/** How long the warning shows before a user who is not the super user is sent to / (spec: 0.5 s). */
const NO_PERMISSION_REDIRECT_MS = 500;

/** A PNG, ICO or SVG by what the browser says, or by the name when it says nothing useful (the server checks the content). */
function looksLikeLogo(file: File): boolean {
  if ((LOGO_MIME_TYPES as readonly string[]).includes(file.type) || file.type === "image/vnd.microsoft.icon")
    return true;
  return (!file.type || file.type === "application/octet-stream") && /\.(png|ico|svg)$/i.test(file.name);
}

function LogoThumb({ url, label }: { url: string | null | undefined; label: string }) {
  const { t } = useTranslation();
  if (!url)
    return (
      <Typography variant="body2" color="text.secondary">
        {t("logos.none")}
      </Typography>
    );
  return (
    <Box
      component="img"
      src={url}
      alt={label}
      sx={{ display: "block", maxHeight: 48, maxWidth: 160, objectFit: "contain" }}
    />
  );
}

/**
 * Settings → Logo (super user): a target and a PNG, ICO or SVG file, previewed, then sent
 * (POST /settings/media-upload?ref={target}). The new logo shows at once on this page's shell and
 * for every visitor from their next page load. Anyone else who reaches it is warned and sent to /.
 */
export function LogoTab() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logos = useLogos();
  const inputId = useId();
  const [target, setTarget] = useState<LogoTarget | "">("");
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const allowed = Boolean(user?.super);

  useEffect(() => {
    if (allowed) return;
    toast(t("logos.noPermission"), "error");
    const timer = window.setTimeout(() => void navigate("/", { replace: true }), NO_PERMISSION_REDIRECT_MS);
    return () => window.clearTimeout(timer);
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  if (!allowed) return null;

  function choose(chosen: File | undefined) {
    if (!chosen) return;
    if (!looksLikeLogo(chosen)) {
      setFile(null);
      toast(t("logos.onlyTypes"), "error");
      return;
    }
    if (chosen.size > LOGO_MAX_BYTES) {
      setFile(null);
      toast(t("errors.ERR_MEDIA_TOO_LARGE"), "error");
      return;
    }
    setFile(chosen);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) return toast(t("logos.fileRequired"), "warning");
    if (!target) return toast(t("logos.targetRequired"), "warning");
    setSending(true);
    try {
      const answer = await uploadLogo(target, file);
      storeLogos(queryClient, answer.logos);
      toast(t("logos.sent"), "success");
      setFile(null);
    } catch (error) {
      toastError(error);
    } finally {
      setSending(false);
    }
  }

  return (
    <Stack spacing={3} sx={{ maxWidth: 720 }}>
      <Box>
        <Typography variant="h6" component="h2">
          {t("logos.heading")}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t("logos.hint")}
        </Typography>
      </Box>
      <Stack
        component="form"
        noValidate
        spacing={2}
        onSubmit={(e) => void submit(e)}
        aria-label={t("logos.heading")}
      >
        <TextField
          select
          id={`${inputId}-target`}
          label={t("logos.target")}
          value={target}
          onChange={(e) => setTarget(isLogoTarget(e.target.value) ? e.target.value : "")}
        >
          {LOGO_TARGETS.map((key) => (
            <MenuItem key={key} value={key}>
              {t(`logos.targets.${key}`)}
            </MenuItem>
          ))}
        </TextField>
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
          <Button component="label" variant="outlined" startIcon={<UploadIcon />} htmlFor={`${inputId}-file`}>
            {file ? file.name : t("logos.chooseFile")}
            <input
              id={`${inputId}-file`}
              data-testid="logo-file"
              type="file"
              accept={LOGO_ACCEPT}
              hidden
              onChange={(e) => {
                choose(e.target.files?.[0]);
                e.target.value = "";
              }}
            />
          </Button>
          {preview && (
            <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
              <Typography variant="body2" color="text.secondary">
                {t("logos.preview")}
              </Typography>
              <Box
                component="img"
                src={preview}
                alt={t("logos.preview")}
                sx={{
                  maxHeight: 64,
                  maxWidth: 200,
                  objectFit: "contain",
                  border: 1,
                  borderColor: "divider",
                  p: 0.5,
                }}
              />
            </Stack>
          )}
        </Stack>
        <Box>
          <Button type="submit" variant="contained" loading={sending}>
            {t("logos.send")}
          </Button>
        </Box>
      </Stack>
      <Table size="small" aria-label={t("logos.current")}>
        <TableBody>
          {LOGO_TARGETS.map((key) => (
            <TableRow key={key} selected={key === target}>
              <TableCell component="th" scope="row">
                {t(`logos.targets.${key}`)}
              </TableCell>
              <TableCell>
                <LogoThumb url={logos.data?.[key]} label={t(`logos.targets.${key}`)} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Stack>
  );
}
