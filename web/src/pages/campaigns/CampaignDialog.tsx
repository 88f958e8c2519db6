import { type CampaignDTO, isCampaignEditable, readCampaignSettings } from "@atende/contracts";
import {
  Alert,
  Box,
  Divider,
  MenuItem,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { Controller, FormProvider, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import {
  campaignKeys,
  fetchCampaignSettings,
  fetchContactListOptions,
  fetchFileListOptions,
  removeCampaignMedia,
  saveCampaign,
  uploadCampaignMedia,
  upsertCampaignInLists,
} from "../../api/campaigns";
import { fetchTagOptions, ticketKeys } from "../../api/tickets";
import { toast } from "../../api/toast";
import { useWhatsapps } from "../../api/whatsapps";
import { DateTimeField } from "../../components/DateFields";
import { FormDialog } from "../../components/FormDialog";
import { applyServerErrors, fieldErrorText, textFieldRegister } from "../../components/formFields";
import { AudienceNote } from "./AudienceNote";
import { CampaignMediaField } from "./CampaignMediaField";
import { CampaignStatusChip } from "./CampaignStatusChip";
import {
  type CampaignFormOutput,
  type CampaignFormValues,
  CONFIRMATION_FIELDS,
  MESSAGE_FIELDS,
  campaignFormResolver,
  formFieldOf,
  initialCampaignValues,
  toCampaignPayload,
} from "./campaignForm";
import { VariantTabs } from "./VariantTabs";

/** Errors that belong to one field: shown under it rather than as a toast. */
const CODE_FIELDS = {
  ERR_CAMPAIGN_NO_MESSAGE: "message1",
  ERR_CAMPAIGN_NO_CONFIRMATION_MESSAGE: "confirmationMessage1",
  ERR_CAMPAIGN_NO_CONNECTION: "whatsappId",
  ERR_CAMPAIGN_CONTACT_LIST_NOT_FOUND: "contactListId",
  ERR_CAMPAIGN_FILE_LIST_NOT_FOUND: "fileListId",
} as const;

interface CampaignDialogProps {
  /** The campaign to edit or view; null to create one. */
  campaign: CampaignDTO | null;
  onClose(): void;
}

/**
 * Creates or edits a campaign: name, connection, audience (a contact list or a tag, with how many
 * of it opted out), schedule, file list, media, the five message variants and, with confirmation
 * on, the five confirmation variants. Read-only once it may no longer be edited (the spec's rule).
 */
export function CampaignDialog({ campaign, onClose }: CampaignDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const readOnly = campaign !== null && !isCampaignEditable(campaign);
  /** Once saved, a retry (the media refused) changes that one rather than creating another. */
  const savedId = useRef<number | null>(campaign?.id ?? null);
  const [media, setMedia] = useState<File | "remove" | null>(null);
  const whatsapps = useWhatsapps();
  const contactLists = useQuery({
    queryKey: campaignKeys.contactListOptions(),
    queryFn: ({ signal }) => fetchContactListOptions(signal),
  });
  const tags = useQuery({
    queryKey: ticketKeys.tagOptions(),
    queryFn: ({ signal }) => fetchTagOptions(signal),
  });
  const files = useQuery({
    queryKey: campaignKeys.fileListOptions(),
    queryFn: ({ signal }) => fetchFileListOptions(signal),
  });
  const settings = useQuery({
    queryKey: campaignKeys.settings(),
    queryFn: ({ signal }) => fetchCampaignSettings(signal),
  });
  const variables = settings.data ? readCampaignSettings(settings.data).variables : [];
  const defaultWhatsapp = whatsapps.data?.find((w) => w.isDefault)?.id ?? "";

  const form = useForm<CampaignFormValues, unknown, CampaignFormOutput>({
    defaultValues: initialCampaignValues(campaign, { whatsappId: defaultWhatsapp }),
    resolver: campaignFormResolver,
  });
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = form;
  const [confirmation, audience, contactListId, tagListId] = useWatch({
    control,
    name: ["confirmation", "audience", "contactListId", "tagListId"],
  });

  async function submit(values: CampaignFormOutput) {
    try {
      let saved = await saveCampaign(savedId.current, toCampaignPayload(values));
      savedId.current = saved.id;
      upsertCampaignInLists(queryClient, saved);
      if (media instanceof File) saved = await uploadCampaignMedia(saved.id, media);
      else if (media === "remove" && saved.mediaPath) saved = await removeCampaignMedia(saved.id);
      upsertCampaignInLists(queryClient, saved);
      toast(t("campaigns.saved"), "success");
      onClose();
    } catch (error) {
      const audienceField = values.audience === "tag" ? "tagListId" : "contactListId";
      applyServerErrors(error, setError, {
        codes: { ...CODE_FIELDS, ERR_CAMPAIGN_NO_AUDIENCE: audienceField },
        fieldOf: formFieldOf,
      });
    }
  }

  const selectProps = { select: true, fullWidth: true, disabled: readOnly } as const;
  const title = campaign === null ? "addTitle" : readOnly ? "viewTitle" : "editTitle";

  return (
    <FormDialog
      title={t(`campaigns.dialog.${title}`)}
      titleAdornment={campaign && <CampaignStatusChip campaign={campaign} />}
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      submitting={isSubmitting}
      readOnly={readOnly}
      closeButton
      maxWidth="md"
    >
      <FormProvider {...form}>
        <Stack spacing={2.5}>
          {readOnly && <Alert severity="info">{t("campaigns.dialog.readOnly")}</Alert>}
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <TextField
              {...textFieldRegister(register("name"))}
              id="campaign-name"
              label={t("campaigns.dialog.name")}
              autoFocus={!readOnly}
              required
              autoComplete="off"
              disabled={readOnly}
              error={Boolean(errors.name)}
              helperText={fieldErrorText(errors.name)}
              sx={{ flex: 2 }}
            />
            <Controller
              control={control}
              name="confirmation"
              render={({ field }) => (
                <TextField
                  {...selectProps}
                  id="campaign-confirmation"
                  label={t("campaigns.dialog.confirmation")}
                  value={field.value ? "on" : "off"}
                  onChange={(event) => field.onChange(event.target.value === "on")}
                  inputRef={field.ref}
                  sx={{ flex: 1 }}
                >
                  <MenuItem value="off">{t("campaigns.dialog.confirmationOff")}</MenuItem>
                  <MenuItem value="on">{t("campaigns.dialog.confirmationOn")}</MenuItem>
                </TextField>
              )}
            />
          </Stack>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <Controller
              control={control}
              name="whatsappId"
              render={({ field }) => (
                <TextField
                  {...selectProps}
                  id="campaign-whatsapp"
                  label={t("campaigns.dialog.whatsapp")}
                  value={field.value}
                  onChange={(event) =>
                    field.onChange(event.target.value === "" ? "" : Number(event.target.value))
                  }
                  inputRef={field.ref}
                  error={Boolean(errors.whatsappId)}
                  helperText={fieldErrorText(errors.whatsappId)}
                >
                  <MenuItem value="">{t("campaigns.dialog.none")}</MenuItem>
                  {(whatsapps.data ?? []).map((w) => (
                    <MenuItem key={w.id} value={w.id}>
                      {w.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <Controller
              control={control}
              name="scheduledAt"
              render={({ field }) => (
                <DateTimeField
                  id="campaign-scheduled-at"
                  label={t("campaigns.dialog.scheduledAt")}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                  fullWidth
                  disabled={readOnly}
                  error={Boolean(errors.scheduledAt)}
                  helperText={fieldErrorText(errors.scheduledAt) ?? t("campaigns.dialog.scheduledHelp")}
                />
              )}
            />
          </Stack>
          <Box>
            <Stack
              direction={{ xs: "column", sm: "row" }}
              spacing={2}
              sx={{ alignItems: { sm: "flex-start" } }}
            >
              <Controller
                control={control}
                name="audience"
                render={({ field }) => (
                  <ToggleButtonGroup
                    exclusive
                    size="small"
                    color="primary"
                    value={field.value}
                    disabled={readOnly}
                    aria-label={t("campaigns.dialog.audienceKind")}
                    onChange={(_, value: "list" | "tag" | null) => value && field.onChange(value)}
                    sx={{ flexShrink: 0, mt: { sm: 1 } }}
                  >
                    <ToggleButton value="list">{t("campaigns.dialog.fromList")}</ToggleButton>
                    <ToggleButton value="tag">{t("campaigns.dialog.fromTag")}</ToggleButton>
                  </ToggleButtonGroup>
                )}
              />
              {audience === "list" ? (
                <Controller
                  control={control}
                  name="contactListId"
                  render={({ field }) => (
                    <TextField
                      {...selectProps}
                      id="campaign-contact-list"
                      label={t("campaigns.dialog.contactList")}
                      value={field.value}
                      onChange={(event) =>
                        field.onChange(event.target.value === "" ? "" : Number(event.target.value))
                      }
                      inputRef={field.ref}
                      error={Boolean(errors.contactListId)}
                      helperText={fieldErrorText(errors.contactListId)}
                    >
                      <MenuItem value="">{t("campaigns.dialog.none")}</MenuItem>
                      {(contactLists.data ?? []).map((list) => (
                        <MenuItem key={list.id} value={list.id}>
                          {list.name}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
              ) : (
                <Controller
                  control={control}
                  name="tagListId"
                  render={({ field }) => (
                    <TextField
                      {...selectProps}
                      id="campaign-tag"
                      label={t("campaigns.dialog.tag")}
                      value={field.value}
                      onChange={(event) =>
                        field.onChange(event.target.value === "" ? "" : Number(event.target.value))
                      }
                      inputRef={field.ref}
                      error={Boolean(errors.tagListId)}
                      helperText={fieldErrorText(errors.tagListId)}
                    >
                      <MenuItem value="">{t("campaigns.dialog.none")}</MenuItem>
                      {(tags.data ?? []).map((tag) => (
                        <MenuItem key={tag.id} value={tag.id}>
                          {tag.name}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
              )}
            </Stack>
            <AudienceNote
              contactListId={audience === "list" && contactListId !== "" ? contactListId : null}
              tagListId={audience === "tag" && tagListId !== "" ? tagListId : null}
            />
          </Box>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
            <Controller
              control={control}
              name="fileListId"
              render={({ field }) => (
                <TextField
                  {...selectProps}
                  id="campaign-file-list"
                  label={t("campaigns.dialog.fileList")}
                  value={field.value}
                  onChange={(event) =>
                    field.onChange(event.target.value === "" ? "" : Number(event.target.value))
                  }
                  inputRef={field.ref}
                  error={Boolean(errors.fileListId)}
                  helperText={fieldErrorText(errors.fileListId)}
                >
                  <MenuItem value="">{t("campaigns.dialog.none")}</MenuItem>
                  {(files.data ?? []).map((file) => (
                    <MenuItem key={file.id} value={file.id}>
                      {file.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <CampaignMediaField
              currentName={campaign?.mediaName ?? null}
              media={media}
              onChange={setMedia}
              readOnly={readOnly}
            />
          </Stack>
          <Divider />
          <Box>
            <Typography variant="subtitle2">{t("campaigns.dialog.messagesTab")}</Typography>
            <Typography variant="caption" color="text.secondary">
              {t("campaigns.dialog.variantsHelp")}
            </Typography>
            <VariantTabs
              fields={MESSAGE_FIELDS}
              labelKey="message"
              variables={variables}
              readOnly={readOnly}
            />
          </Box>
          {confirmation && (
            <Box>
              <Typography variant="subtitle2">{t("campaigns.dialog.confirmationsTab")}</Typography>
              <Typography variant="caption" color="text.secondary">
                {t("campaigns.dialog.confirmationHelp")}
              </Typography>
              <VariantTabs
                fields={CONFIRMATION_FIELDS}
                labelKey="confirmationMessage"
                variables={variables}
                readOnly={readOnly}
              />
            </Box>
          )}
        </Stack>
      </FormProvider>
    </FormDialog>
  );
}
