import type { FastifyInstance, FastifyRequest } from "fastify";
import { validationMessage } from "@atende/contracts";
import { AppError, langOf } from "./errors.js";

/** A lone surrogate: with the u flag a proper pair reads as one code point, outside this category. */
const LONE_SURROGATE = /\p{Cs}/u;

/** A JSON escape of a UTF-16 surrogate (`\uD800` to `\uDFFF`), paired or not. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** Whether every string in a parsed JSON value, keys included, is well-formed UTF-16 (no lone surrogate). */
function wellFormed(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length) {
    const v = pending.pop();
    if (typeof v === "string") {
      if (LONE_SURROGATE.test(v)) return false;
    } else if (Array.isArray(v)) {
      pending.push(...v);
    } else if (v && typeof v === "object") {
      for (const [key, item] of Object.entries(v)) {
        if (LONE_SURROGATE.test(key)) return false;
        pending.push(item);
      }
    }
  }
  return true;
}

function invalidText(req: FastifyRequest) {
  return new AppError("ERR_VALIDATION", {
    fields: { _: validationMessage("validation.invalidText", langOf(req)) },
  });
}

/**
 * JSON bodies are valid Unicode or refused (400): invalid UTF-8 is caught on the raw bytes (a
 * lenient decoder would store it as U+FFFD), and lone surrogates ("\ud800", which JSON may
 * escape) after parsing. Otherwise Fastify's own parser, prototype poisoning refused as before.
 */
export function registerJsonParser(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser("error", "error");
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (req, raw: Buffer, done) => {
    let text: string;
    try {
      text = utf8.decode(raw);
    } catch {
      return done(invalidText(req));
    }
    parseJson(req, text, (err, body) => {
      if (err) return done(err);
      // The decoder refused raw surrogates, so a lone one can only come from an escape: most bodies
      // have none, and skip the walk.
      if (SURROGATE_ESCAPE.test(text) && !wellFormed(body)) return done(invalidText(req));
      done(null, body);
    });
  });
}
