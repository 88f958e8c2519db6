import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";
import { z } from "zod";
import { routes } from "./route.js";

/** Where browsers send what the Content-Security-Policy refused (report-uri). */
export const CSP_REPORT_PATH = "/csp-report";

/**
 * The Content-Security-Policy of the web app (and of every other answer: JSON, files). The app is
 * Vite's build: scripts only from this origin, none inline (theme-boot.js is a file). MUI's emotion
 * writes <style> tags and style attributes, hence 'unsafe-inline' for styles alone. Images: our own,
 * the data: and blob: URLs of avatars, QR codes and previews, WhatsApp's profile pictures and the help
 * videos' stills; media: blob: (audio and video fetched with the session); frames: the help videos.
 * `connect-src 'self'` covers the socket's WebSocket on this origin (CSP 3).
 *
 * Answers that need less set their own and win: media, files and logos (`default-src 'none';
 * sandbox`), the API reference at /docs (see docs.ts).
 */
export const CSP_DIRECTIVES = {
  "default-src": ["'self'"],
  "base-uri": ["'self'"],
  "script-src": ["'self'"],
  "script-src-attr": ["'none'"],
  "style-src": ["'self'", "'unsafe-inline'"],
  "img-src": ["'self'", "data:", "blob:", "https://*.whatsapp.net", "https://img.youtube.com"],
  "media-src": ["'self'", "blob:", "data:"],
  "font-src": ["'self'", "data:"],
  "connect-src": ["'self'"],
  "frame-src": ["https://www.youtube.com"],
  "worker-src": ["'self'"],
  "manifest-src": ["'self'"],
  "object-src": ["'none'"],
  "form-action": ["'self'"],
  "frame-ancestors": ["'none'"],
  "report-uri": [CSP_REPORT_PATH],
};

/** HSTS, sent only on an answer to a request that came over https (directly, or through a trusted proxy). */
const HSTS = "max-age=31536000; includeSubDomains";

const HELMET: Readonly<HelmetOptions> = {
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  frameguard: { action: "deny" },
  referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  // Set per request, where it came over https.
  strictTransportSecurity: false,
};

/**
 * The headers helmet writes for `options`, worked out once. Every directive here is a fixed string,
 * so every answer gets the same ones; @fastify/helmet built helmet's middleware again for each request
 * (its CSP parsed anew every time: 5 % of the server thread's CPU in bench/inbound).
 */
export function helmetHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader() {},
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/**
 * The headers every answer carries (register before any route), set by one hook since each hook
 * costs every request a call: the request's id (X-Request-Id, as its log lines name it), then the
 * security headers: the CSP above, frame-ancestors 'none' and X-Frame-Options DENY, nosniff, a
 * strict Referrer-Policy (the origin only, and only over https; the help videos' player needs to
 * know the embedding site), helmet's other defaults, and HSTS where the request was https as
 * Fastify reads it (`trustProxy`: X-Forwarded-Proto only from the proxies TRUST_PROXY names). Plain
 * http on a LAN address keeps working: no upgrade-insecure-requests. A route may still set its own
 * (media and files keep their sandbox CSP): a later reply.header replaces these.
 */
export async function answerHeaders(app: FastifyInstance) {
  const headers = Object.entries(helmetHeaders(HELMET));
  app.addHook("onRequest", (req, reply, done) => {
    // Into Fastify's own headers, which Node then writes in one go (writeHead's fast path): set on
    // the raw answer instead, Node merged Fastify's into them header by header, 2 µs more a request
    // (measured on a bare Fastify answer, issue 40).
    reply.header("x-request-id", req.id);
    for (const [name, value] of headers) reply.header(name, value);
    if (req.protocol === "https") reply.header("strict-transport-security", HSTS);
    done();
  });
}

const REPORT_TYPES = ["application/csp-report", "application/reports+json"];

/** A report's fields as browsers name them: report-uri's `csp-report` object, or a Reporting API entry. */
const reportDoc = z.object({
  "csp-report": z
    .object({
      "document-uri": z.string(),
      "effective-directive": z.string(),
      "violated-directive": z.string(),
      "blocked-uri": z.string(),
      disposition: z.string(),
    })
    .partial(),
});

const text = (v: unknown) => (typeof v === "string" ? v.slice(0, 200) : undefined);

/** A URL as its origin alone (no path, no query), or a keyword as is ("inline", "eval", "data"). */
function originOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.origin !== "null" ? url.origin : url.protocol.replace(/:$/, "");
  } catch {
    return value.replace(/[?#].*$/, "");
  }
}

/** A page's path without its query or fragment. */
function pathOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value).pathname;
  } catch {
    return undefined;
  }
}

/**
 * POST /csp-report: what a browser refused under the policy, logged as one warning line per
 * report ("csp violation", up to 10 violations) with each directive, blocked origin and page path;
 * never a query string. Public (the browser sends no session), small, and limited per address.
 */
export async function cspReportModule(parent: FastifyInstance) {
  await parent.register(async (app) => {
    app.addContentTypeParser(REPORT_TYPES, { parseAs: "string" }, app.getDefaultJsonParser("error", "error"));
    routes(app).post(
      CSP_REPORT_PATH,
      {
        access: "public",
        bodyDoc: reportDoc,
        consumes: [...REPORT_TYPES, "application/json"],
        status: 204,
        bodyLimit: 16 * 1024,
        rateLimit: { max: 60, windowSeconds: 60 },
        summary: "A browser's report of what the Content-Security-Policy refused",
      },
      (_input, req) => {
        const body = req.body as Record<string, unknown> | unknown[] | null;
        // report-uri sends {"csp-report": {...}}; the Reporting API a list of {type, body}.
        const reports = Array.isArray(body)
          ? body.map((r) => (r as { body?: unknown } | null)?.body)
          : [(body as { "csp-report"?: unknown } | null)?.["csp-report"]];
        const violations = [];
        for (const report of reports.slice(0, 10)) {
          if (!report || typeof report !== "object") continue;
          const r = report as Record<string, unknown>;
          const directive = text(r["effective-directive"] ?? r.effectiveDirective ?? r["violated-directive"]);
          if (!directive) continue;
          violations.push({
            directive,
            blocked: originOf(text(r["blocked-uri"] ?? r.blockedURL)),
            page: pathOf(text(r["document-uri"] ?? r.documentURL)),
            disposition: text(r.disposition),
          });
        }
        // One line per report, however many violations it lists: a report cannot flood the log.
        if (violations.length > 0) req.log.warn({ violations }, "csp violation");
      },
    );
  });
}
