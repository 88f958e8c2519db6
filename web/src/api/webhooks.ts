import type {
  WebhookDTO,
  WebhookDeliveryDTO,
  WebhookSaveInput,
  WebhookWithSecretDTO,
} from "@atende/contracts";
import { api } from "./http";

export const webhookKeys = {
  all: ["webhooks"] as const,
  list: () => [...webhookKeys.all, "list"] as const,
  deliveries: (id: number) => [...webhookKeys.all, "deliveries", id] as const,
};

export const fetchWebhooks = (signal?: AbortSignal) => api.get<WebhookDTO[]>("/webhooks", { signal });
export const fetchDeliveries = (id: number, signal?: AbortSignal) =>
  api.get<WebhookDeliveryDTO[]>(`/webhooks/${id}/deliveries`, { signal });
export const createWebhook = (input: WebhookSaveInput) => api.post<WebhookWithSecretDTO>("/webhooks", input);
export const updateWebhook = (id: number, input: WebhookSaveInput) =>
  api.put<WebhookDTO>(`/webhooks/${id}`, input);
export const deleteWebhook = (id: number) => api.delete(`/webhooks/${id}`);
export const rotateWebhookSecret = (id: number) => api.post<WebhookWithSecretDTO>(`/webhooks/${id}/secret`);
export const sendWebhookTest = (id: number) => api.post<void>(`/webhooks/${id}/test`);
export const resendDelivery = (id: number, deliveryRowId: number) =>
  api.post<WebhookDeliveryDTO>(`/webhooks/${id}/deliveries/${deliveryRowId}/resend`);
