import { useQuery } from "@tanstack/react-query";
import { assistKeys, fetchAssistStatus } from "../../../api/assist";
import { useSessionUser } from "../../../auth/AuthContext";
import { planAllows } from "../../../auth/plan";

/**
 * Whether the chat offers AI help: the plan has useOpenAi (else the server is not even asked) and the
 * company has an AI prompt with a key. Asked once per session and again after 5 minutes.
 */
export function useAssistAvailable(): boolean {
  const user = useSessionUser();
  const allowed = planAllows(user, "useOpenAi");
  const status = useQuery({
    queryKey: assistKeys.status(),
    queryFn: ({ signal }) => fetchAssistStatus(signal),
    enabled: allowed,
    staleTime: 5 * 60_000,
    retry: false,
  });
  return allowed && status.data?.available === true;
}
