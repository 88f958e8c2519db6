import type { ErrorBody, LoginAnswer } from "@atende/contracts";
import i18n from "../i18n";
import { clearSession, readToken, storeSession } from "./session";

/** An answer outside 2xx. `code` is the server's ERR_* code when the body carries one. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  /** Set when this answer ended the session: the app is already on its way to /login. */
  sessionEnded = false;

  constructor(status: number, body: unknown) {
    super(typeof body === "string" && body ? body : `HTTP ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }

  get code(): string | undefined {
    const body = this.body as Partial<ErrorBody> | null;
    return typeof body?.error === "string" ? body.error : undefined;
  }

  get fields(): Record<string, string> | undefined {
    return (this.body as Partial<ErrorBody> | null)?.fields;
  }
}

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /** Login and refresh: no bearer token, and a 401/403 is an answer, not the end of a session. */
  anonymous?: boolean;
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  if (!(response.headers.get("content-type") ?? "").includes("json")) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function send<T>(method: string, path: string, options: RequestOptions): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", "Accept-Language": i18n.language };
  const token = options.anonymous ? null : readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  const response = await fetch(buildUrl(path, options.query), {
    method,
    headers,
    body,
    credentials: "include",
    signal: options.signal,
  });
  const payload = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, payload);
  return payload as T;
}

let sessionEndedHandler: () => void = () => {
  if (window.location.pathname !== "/login") window.location.assign("/login");
};

/** The session provider takes over what happens when the server ends the session. */
export function onSessionEnded(handler: () => void): void {
  sessionEndedHandler = handler;
}

function endSession(error: ApiError): ApiError {
  clearSession();
  error.sessionEnded = true;
  sessionEndedHandler();
  return error;
}

let subscriptionLockedHandler: (error: ApiError) => void = () => undefined;

/**
 * The session provider hears every ERR_SUBSCRIPTION_EXPIRED answer: the company went past its due
 * date while the app was open (an admin keeps the payment pages; anyone else is logged out).
 */
export function onSubscriptionLocked(handler: (error: ApiError) => void): void {
  subscriptionLockedHandler = handler;
}

function noticeLock(error: unknown): void {
  if (error instanceof ApiError && error.code === "ERR_SUBSCRIPTION_EXPIRED")
    subscriptionLockedHandler(error);
}

let refreshing: Promise<LoginAnswer> | null = null;

/** One refresh at a time: every caller that finds the token expired waits for the same answer. */
export function refreshSession(): Promise<LoginAnswer> {
  refreshing ??= send<LoginAnswer>("POST", "/auth/refresh_token", { anonymous: true })
    .then((answer) => {
      storeSession(answer);
      return answer;
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  try {
    return await answerOf<T>(method, path, options);
  } catch (error) {
    if (!options.anonymous) noticeLock(error);
    throw error;
  }
}

async function answerOf<T>(method: string, path: string, options: RequestOptions): Promise<T> {
  try {
    return await send<T>(method, path, options);
  } catch (error) {
    if (!(error instanceof ApiError) || options.anonymous) throw error;
    if (error.status === 401) throw endSession(error);
    if (error.status !== 403 || error.code !== "ERR_SESSION_EXPIRED") throw error;
  }
  try {
    await refreshSession();
  } catch (refreshError) {
    throw refreshError instanceof ApiError ? endSession(refreshError) : refreshError;
  }
  try {
    return await send<T>(method, path, options);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.code === "ERR_SESSION_EXPIRED")) {
      throw endSession(error);
    }
    throw error;
  }
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, "body">) => request<T>("GET", path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("POST", path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("PUT", path, { ...options, body }),
  /** A body only where the API reads one (the device to forget: its endpoint is no path segment). */
  delete: <T = void>(path: string, options?: RequestOptions) => request<T>("DELETE", path, options),
};
