import type { AssistAnswerDTO, AssistStatusDTO, AssistStyle } from "@atende/contracts";
import { api } from "./http";

/** The composer's AI help (issue 39, item 4): texts for the agent to edit; nothing is sent or saved. */
export const assistKeys = {
  all: ["assist"] as const,
  /** Whether the company's AI provider can help (a prompt with a key). */
  status: () => [...assistKeys.all, "status"] as const,
};

export function fetchAssistStatus(signal?: AbortSignal): Promise<AssistStatusDTO> {
  return api.get<AssistStatusDTO>("/assist", { signal });
}

export function suggestReply(ticketId: number): Promise<AssistAnswerDTO> {
  return api.post<AssistAnswerDTO>(`/tickets/${ticketId}/assist/suggest`);
}

export function rephraseText(ticketId: number, text: string, style: AssistStyle): Promise<AssistAnswerDTO> {
  return api.post<AssistAnswerDTO>(`/tickets/${ticketId}/assist/rephrase`, { text, style });
}

/** In the agent's language (the request's Accept-Language). */
export function summarizeTicket(ticketId: number): Promise<AssistAnswerDTO> {
  return api.post<AssistAnswerDTO>(`/tickets/${ticketId}/assist/summarize`);
}
