import {
  BILLING_GRACE_DAYS_DEFAULT,
  INVOICE_DAYS_BEFORE_DEFAULT,
  PIX_EXPIRATION_SECONDS,
  type PaymentGatewayName,
} from "@atende/contracts";
import type { Executor } from "../../../db/client.js";
import type { SecretBox } from "../../../lib/secretBox.js";
import { platformSetting } from "../../settings/queries.js";
import { openSetting } from "../../settings/sealing.js";
import { asaasGateway } from "./asaas.js";
import { pixKeyGateway } from "./pixKey.js";
import type { PaymentGateway } from "./types.js";

/** The super user's billing settings (kept on the platform company), with their defaults. */
export interface BillingSettings {
  /** The gateway chosen, or null when none is set up. */
  gateway: PaymentGatewayName | null;
  /** As stored: sealed (settings/sealing.ts); gatewayNamed opens them. "" when none is set. */
  asaasApiKeyEnc: string;
  asaasWebhookTokenEnc: string;
  pixKey: string;
  pixMerchantName: string;
  pixMerchantCity: string;
  invoiceDaysBefore: number;
  graceDays: number;
}

function days(value: string | undefined, fallback: number): number {
  const n = Number(value?.trim());
  return value !== undefined && value.trim() !== "" && Number.isInteger(n) && n >= 0 ? n : fallback;
}

export async function billingSettings(db: Executor): Promise<BillingSettings> {
  const keys = [
    "paymentGateway",
    "asaas",
    "asaasWebhookToken",
    "pixKey",
    "pixMerchantName",
    "pixMerchantCity",
    "invoiceDaysBefore",
    "billingGraceDays",
  ] as const;
  const values = await Promise.all(keys.map((k) => platformSetting(db, k)));
  const v = Object.fromEntries(keys.map((k, i) => [k, values[i]?.trim() ?? ""])) as Record<
    (typeof keys)[number],
    string
  >;
  const asaasReady = v.asaas !== "";
  const pixReady = v.pixKey !== "";
  // The chosen gateway, when it is set up; with no choice, the one that is.
  let gateway: PaymentGatewayName | null = null;
  if (v.paymentGateway === "asaas") gateway = asaasReady ? "asaas" : null;
  else if (v.paymentGateway === "pixKey") gateway = pixReady ? "pixKey" : null;
  else gateway = asaasReady ? "asaas" : pixReady ? "pixKey" : null;
  return {
    gateway,
    asaasApiKeyEnc: v.asaas,
    asaasWebhookTokenEnc: v.asaasWebhookToken,
    pixKey: v.pixKey,
    pixMerchantName: v.pixMerchantName,
    pixMerchantCity: v.pixMerchantCity,
    invoiceDaysBefore: days(values[6], INVOICE_DAYS_BEFORE_DEFAULT),
    graceDays: days(values[7], BILLING_GRACE_DAYS_DEFAULT),
  };
}

export interface GatewayEnv {
  /** ASAAS_API_URL. */
  asaasUrl: string;
  now: () => Date;
  /** Opens the gateway's sealed key and token. */
  secrets: SecretBox;
}

/** The gateway of that name as the settings set it up (also one no longer chosen: its webhooks and charges still count). */
export function gatewayNamed(
  name: PaymentGatewayName,
  settings: BillingSettings,
  env: GatewayEnv,
): PaymentGateway {
  if (name === "asaas")
    return asaasGateway({
      baseUrl: env.asaasUrl,
      apiKey: openSetting(env.secrets, "asaas", settings.asaasApiKeyEnc),
      webhookToken: openSetting(env.secrets, "asaasWebhookToken", settings.asaasWebhookTokenEnc),
    });
  return pixKeyGateway({
    pixKey: settings.pixKey,
    merchantName: settings.pixMerchantName,
    merchantCity: settings.pixMerchantCity,
    expirationSeconds: PIX_EXPIRATION_SECONDS,
    now: env.now,
  });
}

/** The gateway checkout uses now, or null when the super user set none up. */
export function currentGateway(settings: BillingSettings, env: GatewayEnv): PaymentGateway | null {
  return settings.gateway ? gatewayNamed(settings.gateway, settings, env) : null;
}
