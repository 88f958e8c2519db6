import crypto from "node:crypto";
import { type HttpFake, type Recorded, startHttpFake } from "./httpFake.js";

/**
 * A local stand-in for Typebot's chat API (v1): `POST /api/v1/typebots/{publicId}/startChat` answers
 * `{sessionId, typebot, messages, input}`; `POST /api/v1/sessions/{sessionId}/continueChat` with
 * `{message: {type: "text", text}}` answers `{messages, input}`. Bubbles are in the markdown content
 * format when asked for it; an unknown session answers 404 in Typebot's error shape; a private bot
 * (`token` set) answers 401 without `Authorization: Bearer <token>`. The conversation itself is the
 * test's `flow`. `/media/*` serves a small PNG for image bubbles.
 */
export type Bubble = { id: string; type: string; content: Record<string, unknown> };
export interface Step {
  messages: Bubble[];
  input?: { id: string; type: string; items?: { id: string; content: string }[] } | null;
}
export interface FakeSession {
  id: string;
  slug: string;
  variables: Record<string, unknown>;
  /** What the customer's side sent, in order. */
  answers: string[];
}

const id = () => crypto.randomBytes(6).toString("hex");
export const text = (markdown: string): Bubble => ({
  id: id(),
  type: "text",
  content: { type: "markdown", markdown },
});
export const image = (url: string): Bubble => ({ id: id(), type: "image", content: { url } });
export const choice = (...items: string[]): Step["input"] => ({
  id: id(),
  type: "choice input",
  items: items.map((content) => ({ id: id(), content })),
});
export const textInput = (): Step["input"] => ({ id: id(), type: "text input" });

/** 1×1 transparent PNG. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

export interface TypebotFake extends HttpFake {
  sessions: Map<string, FakeSession>;
  /** Makes every answer wait this long (a slow bot). */
  delayMs: number;
}

export async function startTypebotFake(opts: {
  slug: string;
  token?: string;
  flow: (session: FakeSession, said: string | null) => Step;
}): Promise<TypebotFake> {
  const sessions = new Map<string, FakeSession>();
  const state = { delayMs: 0 };
  const fake = await startHttpFake((req: Recorded) => {
    const delayMs = state.delayMs;
    if (req.path.startsWith("/media/")) return { body: PNG, contentType: "image/png", delayMs };
    if (opts.token && req.headers.authorization !== `Bearer ${opts.token}`)
      return { status: 401, json: { message: "Unauthorized", code: "UNAUTHORIZED" }, delayMs };
    const body = (req.json ?? {}) as {
      message?: { type: string; text: string };
      prefilledVariables?: Record<string, unknown>;
      textBubbleContentFormat?: string;
    };
    const start = /^\/api\/v1\/typebots\/([^/]+)\/startChat$/.exec(req.path);
    if (req.method === "POST" && start) {
      if (decodeURIComponent(start[1]!) !== opts.slug)
        return { status: 404, json: { message: "Typebot not found", code: "NOT_FOUND" }, delayMs };
      const session: FakeSession = {
        id: `sess-${id()}`,
        slug: opts.slug,
        variables: body.prefilledVariables ?? {},
        answers: [],
      };
      sessions.set(session.id, session);
      if (body.message) session.answers.push(body.message.text);
      const step = opts.flow(session, body.message?.text ?? null);
      return {
        json: { sessionId: session.id, typebot: { id: opts.slug, version: "6" }, ...step },
        delayMs,
      };
    }
    const cont = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(req.path);
    if (req.method === "POST" && cont) {
      const session = sessions.get(decodeURIComponent(cont[1]!));
      if (!session)
        return { status: 404, json: { message: "Session not found.", code: "NOT_FOUND" }, delayMs };
      const said = body.message?.text ?? "";
      session.answers.push(said);
      return { json: opts.flow(session, said), delayMs };
    }
    return { status: 404, json: { message: "Not found", code: "NOT_FOUND" } };
  });
  return Object.defineProperty(Object.assign(fake, { sessions }), "delayMs", {
    get: () => state.delayMs,
    set: (v: number) => {
      state.delayMs = v;
    },
  }) as TypebotFake;
}
