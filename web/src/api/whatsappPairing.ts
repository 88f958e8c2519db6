import type { PairingCodeDTO, PairingCodeRequest } from "@atende/contracts";
import { api } from "./http";

/** A code that pairs the connection's phone instead of the QR code (typed on the phone). */
export function requestPairingCode(whatsappId: number, body: PairingCodeRequest): Promise<PairingCodeDTO> {
  return api.post<PairingCodeDTO>(`/whatsappsession/${whatsappId}/pairing-code`, body);
}
