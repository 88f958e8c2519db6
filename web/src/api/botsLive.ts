import { useQueryClient } from "@tanstack/react-query";
import { promptKeys, removePrompt, upsertPrompt } from "./prompts";
import { removeQueueIntegration, upsertQueueIntegration } from "./queueIntegrations";
import { useCompanyEvent } from "./SocketProvider";

/** Keeps the integration lists and choices current: integrations other admins add, edit or delete. */
export function useQueueIntegrationsLive(): void {
  const queryClient = useQueryClient();
  useCompanyEvent("queueIntegration", (payload) => {
    if (payload.action === "delete") removeQueueIntegration(queryClient, payload.integrationId);
    else upsertQueueIntegration(queryClient, payload.queueIntegration);
  });
}

/** Keeps the prompt lists, choices and token figures current. */
export function usePromptsLive(): void {
  const queryClient = useQueryClient();
  useCompanyEvent("prompt", (payload) => {
    if (payload.action === "delete") removePrompt(queryClient, payload.promptId);
    else upsertPrompt(queryClient, payload.prompt);
    void queryClient.invalidateQueries({ queryKey: promptKeys.usage() });
  });
}
