import { useQueryClient } from "@tanstack/react-query";
import { phoneDigits, simulatorKeys, upsertPhoneMessage, type SimulatorPhone } from "./simulator";
import { useCompanyEvent } from "./SocketProvider";

/** `company-{id}-simulator`: a phone received a message or an ack changed. */
export function useSimulatorLive(): void {
  const queryClient = useQueryClient();
  useCompanyEvent("simulator", (payload) => {
    const number = phoneDigits(payload.number);
    upsertPhoneMessage(queryClient, payload.whatsappId, number, payload.message);
    const phonesKey = simulatorKeys.phones(payload.whatsappId);
    const phones = queryClient.getQueryData<SimulatorPhone[]>(phonesKey);
    if (!phones?.some((phone) => phone.number === number)) {
      void queryClient.invalidateQueries({ queryKey: phonesKey });
      return;
    }
    queryClient.setQueryData<SimulatorPhone[]>(phonesKey, (list) =>
      list?.map((phone) =>
        phone.number === number && (phone.lastMessageAt ?? "") < payload.message.createdAt
          ? { ...phone, lastMessageAt: payload.message.createdAt }
          : phone,
      ),
    );
  });
}
