import { expect } from "vitest";
import type { LoggedIn } from "./factories.js";
import type { AnyTestContext as TestContext } from "./harness.js";

/** Who makes a call: anyone with an auth header (a login), or null for no token at all. */
export type Caller = Pick<LoggedIn, "auth"> | null;

/** A JSON call through the app as `who`, without opening a port. */
export type Method = "GET" | "POST" | "PUT" | "DELETE";
export function caller(ctx: () => TestContext) {
  return (
    method: Method,
    url: string,
    who: Caller,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    ctx().app.inject({
      method,
      url,
      payload: payload as object,
      headers: { ...(who?.auth ?? {}), ...headers },
    });
}

/** The answer is this status and ERR_* code. */
export function expectError(res: { statusCode: number; body: string }, status: number, error: string) {
  let code: unknown;
  try {
    code = (JSON.parse(res.body) as { error?: string }).error;
  } catch {
    code = res.body;
  }
  expect({ status: res.statusCode, error: code }, res.body).toEqual({ status, error });
}

/** The answer is this status; its parsed body. */
export function expectOk<T>(res: { statusCode: number; body: string }, status = 200): T {
  expect(res.statusCode, res.body).toBe(status);
  return (res.body ? JSON.parse(res.body) : undefined) as T;
}

/** The field messages of a 400 ERR_VALIDATION answer. */
export function fieldsOf(res: { statusCode: number; body: string }): Record<string, string> {
  expectError(res, 400, "ERR_VALIDATION");
  return (JSON.parse(res.body) as { fields: Record<string, string> }).fields;
}

/** A multipart body with one file under "file", as the media-upload calls take it. */
export function fileForm(data: Buffer, filename: string, mimetype: string) {
  const boundary = `----atende${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${mimetype}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/** A 1×1 PNG image. */
export const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
