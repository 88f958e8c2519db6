import { PROFILES, type UserUpdateInput } from "@atende/contracts";
import { Box, Chip, FormControlLabel, MenuItem, Switch, TextField } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { Controller, type Control, type FieldErrors } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { fetchConnections, fetchQueues } from "../../api/users";
import { fieldErrorText } from "../formFields";
import type { EditRights, UserFormValues } from "./userForm";
import { queueKeys } from "../../api/queues";
import { whatsappKeys } from "../../api/whatsapps";

interface AdminUserFieldsProps {
  control: Control<UserFormValues, unknown, UserUpdateInput>;
  errors: FieldErrors<UserFormValues>;
  rights: EditRights;
}

function ColorDot({ color }: { color: string }) {
  return <Box component="span" sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: color, ml: 1 }} />;
}

/** Profile, queues, default connection and "see tickets without a queue": for admins only. */
export function AdminUserFields({ control, errors, rights }: AdminUserFieldsProps) {
  const { t } = useTranslation();
  const queues = useQuery({
    queryKey: queueKeys.all,
    queryFn: ({ signal }) => fetchQueues(signal),
    enabled: rights.queues,
  });
  // The connections route may be missing or refuse: the select then shows "no connection", disabled.
  const connections = useQuery({
    queryKey: whatsappKeys.options(),
    queryFn: ({ signal }) => fetchConnections(signal),
    enabled: rights.profile,
    meta: { silent: true },
    retry: false,
  });
  const connectionList = connections.data ?? [];
  const noConnections = connections.isError || (connections.isSuccess && connectionList.length === 0);

  return (
    <>
      {rights.profile && (
        <Controller
          control={control}
          name="profile"
          render={({ field: { ref, ...field } }) => (
            <TextField
              {...field}
              inputRef={ref}
              select
              id="user-profile"
              label={t("userModal.profile")}
              error={Boolean(errors.profile)}
              helperText={fieldErrorText(errors.profile)}
            >
              {PROFILES.map((profile) => (
                <MenuItem key={profile} value={profile}>
                  {t(`profiles.${profile}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      )}
      {rights.queues && (
        <Controller
          control={control}
          name="queueIds"
          render={({ field: { ref, ...field } }) => (
            <TextField
              {...field}
              inputRef={ref}
              select
              id="user-queues"
              label={t("userModal.queues")}
              error={Boolean(errors.queueIds)}
              helperText={fieldErrorText(errors.queueIds)}
              slotProps={{
                select: {
                  multiple: true,
                  renderValue: (selected) => (
                    <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
                      {(selected as number[]).map((id) => {
                        const queue = queues.data?.find((q) => q.id === id);
                        return (
                          <Chip
                            key={id}
                            size="small"
                            variant="outlined"
                            label={queue?.name ?? `#${id}`}
                            icon={<ColorDot color={queue?.color ?? "grey.500"} />}
                            sx={{ borderColor: queue?.color }}
                          />
                        );
                      })}
                    </Box>
                  ),
                },
              }}
            >
              {(queues.data ?? []).map((queue) => (
                <MenuItem key={queue.id} value={queue.id}>
                  <ColorDot color={queue.color} />
                  <Box component="span" sx={{ ml: 1 }}>
                    {queue.name}
                  </Box>
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      )}
      {rights.profile && (
        <Controller
          control={control}
          name="whatsappId"
          render={({ field: { ref, ...field } }) => (
            <TextField
              {...field}
              inputRef={ref}
              value={noConnections ? "" : (field.value ?? "")}
              onChange={(event) =>
                field.onChange(event.target.value === "" ? null : Number(event.target.value))
              }
              select
              id="user-whatsapp"
              label={t("userModal.whatsapp")}
              disabled={noConnections}
              error={Boolean(errors.whatsappId)}
              helperText={fieldErrorText(errors.whatsappId)}
              slotProps={{
                inputLabel: { shrink: true },
                select: {
                  displayEmpty: true,
                  renderValue: (value) =>
                    value === ""
                      ? t(noConnections ? "userModal.noWhatsapp" : "userModal.noneOption")
                      : (connectionList.find((c) => c.id === value)?.name ?? `#${String(value)}`),
                },
              }}
            >
              <MenuItem value="">{t("userModal.noneOption")}</MenuItem>
              {connectionList.map((connection) => (
                <MenuItem key={connection.id} value={connection.id}>
                  {connection.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      )}
      {rights.profile && (
        <Controller
          control={control}
          name="allTicket"
          render={({ field }) => (
            <FormControlLabel
              label={t("userModal.allTicket")}
              control={
                <Switch
                  checked={field.value === "enabled"}
                  onChange={(event) => field.onChange(event.target.checked ? "enabled" : "desabled")}
                  onBlur={field.onBlur}
                />
              }
            />
          )}
        />
      )}
    </>
  );
}
