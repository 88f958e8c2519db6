/**
 * The ERR_* catalogue: every error a user can cause, with its HTTP status and its text in the
 * three languages. The server answers `{ error, message }` with the message in the caller's
 * language; the web app translates the code again in the user's chosen language.
 */
import { API_ERRORS } from "./errorCodes/api.js";
import { ASSIST_ERRORS } from "./errorCodes/assist.js";
import type { ErrorDef } from "./errorCodes/def.js";
import { CLOUD_ERRORS } from "./errorCodes/cloud.js";
import { CONTACT_LIST_ERRORS } from "./errorCodes/contactLists.js";
import { BILLING_ERRORS } from "./errorCodes/billing.js";
import { BOT_ERRORS } from "./errorCodes/bots.js";
import { GENERAL_ERRORS } from "./errorCodes/general.js";
import { MEDIA_ERRORS } from "./errorCodes/media.js";
import { PLATFORM_ERRORS } from "./errorCodes/platform.js";
import { CAMPAIGN_ERRORS } from "./errorCodes/campaigns.js";
import { AGENT_WORKSPACE_SPEC_ERRORS } from "./errorCodes/spec.js";
import { WORKSPACE_ERRORS } from "./errorCodes/workspace.js";
import { WHATSAPP_SESSION_ERRORS } from "./errorCodes/whatsappSessions.js";
import { PUSH_ERRORS } from "./errorCodes/push.js";

export type Lang = "pt" | "en" | "es";
export const LANGS: readonly Lang[] = ["pt", "en", "es"];

/**
 * Each domain keeps its codes in its own file under errorCodes/; a new domain adds a file, lists
 * it in ERROR_CATALOGUES and spreads it into ERRORS. A code is in one file only (a spread would
 * silently keep the last): server/src/contracts/errors.test.ts checks it.
 */
export const ERROR_CATALOGUES: Readonly<Record<string, Readonly<Record<string, ErrorDef>>>> = {
  AGENT_WORKSPACE_SPEC_ERRORS,
  GENERAL_ERRORS,
  WORKSPACE_ERRORS,
  PLATFORM_ERRORS,
  CAMPAIGN_ERRORS,
  CONTACT_LIST_ERRORS,
  BILLING_ERRORS,
  API_ERRORS,
  BOT_ERRORS,
  MEDIA_ERRORS,
  WHATSAPP_SESSION_ERRORS,
  CLOUD_ERRORS,
  PUSH_ERRORS,
  ASSIST_ERRORS,
};

export const ERRORS = {
  ...AGENT_WORKSPACE_SPEC_ERRORS,
  ...GENERAL_ERRORS,
  ...WORKSPACE_ERRORS,
  ...PLATFORM_ERRORS,
  ...CAMPAIGN_ERRORS,
  ...CONTACT_LIST_ERRORS,
  ...BILLING_ERRORS,
  ...API_ERRORS,
  ...BOT_ERRORS,
  ...MEDIA_ERRORS,
  ...WHATSAPP_SESSION_ERRORS,
  ...CLOUD_ERRORS,
  ...PUSH_ERRORS,
  ...ASSIST_ERRORS,
} as const;

export type ErrorCode = keyof typeof ERRORS;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.prototype.hasOwnProperty.call(ERRORS, code);
}

export function errorMessage(code: ErrorCode, lang: Lang = "pt"): string {
  return ERRORS[code][lang];
}

/** The body of every error answer. `fields` maps a field path to its translated problem. */
export interface ErrorBody {
  error: ErrorCode;
  message: string;
  fields?: Record<string, string>;
  requestId?: string;
  /** ERR_SUBSCRIPTION_EXPIRED: the due date that passed (YYYY-MM-DD). */
  dueDate?: string;
  [extra: string]: unknown;
}

/** Picks pt, en or es from an Accept-Language header or a stored language tag. */
export function pickLang(tag: string | undefined | null): Lang {
  if (!tag) return "pt";
  for (const part of tag.split(",")) {
    const base = part.trim().slice(0, 2).toLowerCase();
    if (base === "pt" || base === "en" || base === "es") return base;
  }
  return "pt";
}
