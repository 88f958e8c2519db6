import { ALERT_STATUSES, LIMITS } from "@atende/contracts";
import { useWhatsapps } from "../api/whatsapps";
import { useDebouncedValue } from "../hooks/useDebouncedValue";

/**
 * True when a connection needs attention (qrcode, PAIRING, DISCONNECTED, TIMEOUT, OPENING), judged
 * 2 s after the list last changed. The list is loaded only for admins (`enabled`).
 */
export function useConnectionsAlert(enabled: boolean): boolean {
  const { data } = useWhatsapps(enabled);
  const settled = useDebouncedValue(data, LIMITS.connectionAlertDelayMs);
  return enabled && (settled ?? []).some((whatsapp) => ALERT_STATUSES.includes(whatsapp.status));
}
