import {
  QUEUE_INTEGRATION_DEFAULTS,
  queueIntegrationBodySchema,
  type QueueIntegrationBody,
  type QueueIntegrationDTO,
  type QueueIntegrationType,
} from "@atende/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldPath, Resolver } from "react-hook-form";

/** The dialog's fields, as typed (numbers included); secrets start blank (blank keeps the stored ones). */
export interface IntegrationFormValues {
  type: QueueIntegrationType;
  name: string;
  projectName: string;
  jsonContent: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: string;
  typebotDelayMessage: string;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
  authToken: string;
  signingSecret: string;
}
export type IntegrationField = FieldPath<IntegrationFormValues>;

export function initialIntegrationValues(item: QueueIntegrationDTO | null): IntegrationFormValues {
  return {
    type: item?.type ?? QUEUE_INTEGRATION_DEFAULTS.type,
    name: item?.name ?? "",
    projectName: item?.projectName ?? "",
    jsonContent: "",
    language: item?.language || QUEUE_INTEGRATION_DEFAULTS.language,
    urlN8N: item?.urlN8N ?? "",
    typebotSlug: item?.typebotSlug ?? "",
    typebotExpires: String(item?.typebotExpires ?? QUEUE_INTEGRATION_DEFAULTS.typebotExpires),
    typebotDelayMessage: String(item?.typebotDelayMessage ?? QUEUE_INTEGRATION_DEFAULTS.typebotDelayMessage),
    typebotKeywordFinish: item?.typebotKeywordFinish ?? "",
    typebotKeywordRestart: item?.typebotKeywordRestart ?? "",
    typebotUnknownMessage: item?.typebotUnknownMessage ?? "",
    typebotRestartMessage: item?.typebotRestartMessage ?? "",
    authToken: "",
    signingSecret: "",
  };
}

/** The contracts' schema (required fields by type, projectName = name for n8n, webhook, typebot). */
export const integrationResolver = zodResolver(queueIntegrationBodySchema) as unknown as Resolver<
  IntegrationFormValues,
  unknown,
  QueueIntegrationBody
>;

const FIELDS = new Set(Object.keys(initialIntegrationValues(null)));
export const integrationFieldOf = (path: string): IntegrationField | undefined =>
  FIELDS.has(path) ? (path as IntegrationField) : undefined;

/** Which fields each type shows (the spec's list per type). */
export const TYPE_FIELDS: Record<QueueIntegrationType, IntegrationField[]> = {
  dialogflow: ["name", "language", "projectName", "jsonContent"],
  n8n: ["name", "urlN8N", "authToken", "signingSecret"],
  webhook: ["name", "urlN8N", "authToken", "signingSecret"],
  typebot: [
    "name",
    "urlN8N",
    "typebotSlug",
    "typebotExpires",
    "typebotDelayMessage",
    "typebotKeywordFinish",
    "typebotKeywordRestart",
    "typebotUnknownMessage",
    "typebotRestartMessage",
    "authToken",
  ],
};
