import path from "node:path";
import { z } from "zod";
import { Allowance } from "./lib/outboundAddress.js";

/** Every environment variable the server reads, parsed once. The README's table mirrors this. */
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  /** Names this deployment's keys and channels in Redis; by default derived from the database. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/, "letters, digits and _ : . - only (at most 64)")
    .optional(),
  /**
   * Which proxies in front of the server are believed about the client's address (X-Forwarded-For):
   * none by default; a hop count ("1"), or a comma-separated list of proxy addresses or CIDR ranges.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(
      /^(|false|\d{1,2}|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/,
      "a hop count or a list of addresses",
    )
    .default(""),
  JWT_SECRET: z.string().min(32).optional(),
  /**
   * Seals secrets kept at rest (AI keys, bot tokens, webhook and payment secrets) and keys the
   * connection tokens' hashes (lib/secretBox.ts). Unset: a key generated in
   * DATA_DIR. Required in production with DATABASE_URL (every instance must open what another sealed).
   */
  SECRETS_KEY: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL: z.string().default("15m"),
  REFRESH_TOKEN_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  FRONTEND_URL: z.string().default(""),
  COOKIE_SECURE: z.enum(["auto", "true", "false"]).default("auto"),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  SEED_DEMO: z.enum(["auto", "true", "false"]).default("auto"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  LOGIN_MAX_PER_IP: z.coerce.number().int().min(1).default(30),
  LOGIN_MAX_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(300),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  WEB_DIST: z.string().optional(),
  /** Meta's Graph API base, with version; tests point it at a local fake. */
  GRAPH_API_URL: z.string().default("https://graph.facebook.com/v21.0"),
  /** Asaas' API base, with version (sandbox: https://api-sandbox.asaas.com/v3); tests point it at a local fake. */
  ASAAS_API_URL: z.string().default("https://api.asaas.com/v3"),
  /** Google's OAuth token endpoint and Dialogflow's API (bot integrations); tests point them at fakes. */
  GOOGLE_TOKEN_URL: z.string().default("https://oauth2.googleapis.com/token"),
  DIALOGFLOW_API_URL: z.string().default("https://dialogflow.googleapis.com"),
  /** The public URL of this server, to show the Cloud API webhook address. */
  PUBLIC_URL: z.string().default(""),
  MEDIA_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024 * 1024),
  /** Where media files live: `local` (DATA_DIR/media, one machine) or `s3` (a bucket every instance shares). */
  MEDIA_STORAGE: z.enum(["local", "s3"]).default("local"),
  /** The bucket of MEDIA_STORAGE=s3, and the S3-compatible server holding it (unset: AWS, by S3_REGION). */
  S3_BUCKET: z.string().trim().optional(),
  S3_ENDPOINT: z
    .string()
    .trim()
    .regex(/^(https?:\/\/.+)?$/, "an http:// or https:// URL")
    .optional()
    .transform((v) => v || undefined),
  S3_REGION: z.string().trim().default("us-east-1"),
  /** Unset: the AWS SDK's own chain (AWS_ACCESS_KEY_ID..., an instance role). */
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** The bucket in the URL's path (what MinIO and most self-hosted servers need) rather than in its host. */
  S3_FORCE_PATH_STYLE: z.enum(["true", "false"]).default("false"),
  /** Every key under this prefix, for a bucket shared with other data ("atende/"). */
  S3_PREFIX: z
    .string()
    .trim()
    .regex(/^([\w.-]+\/)*$/, 'folder names ending in "/", e.g. atende/')
    .default(""),
  /**
   * The largest file a customer's message brings in (bytes): a bigger one is not downloaded and the
   * message says so. Checked on the size WhatsApp announces, and again while the file streams in.
   */
  INBOUND_MEDIA_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024 * 1024),
  /**
   * Where mail goes: smtp://user:pass@host:port (STARTTLS when offered) or smtps://... (TLS). Unset
   * outside production: mails go to the log (subject and recipient) and the dev outbox the super user
   * reads at /mail-outbox. Unset in production: a warning at start, and every mail fails for good.
   */
  SMTP_URL: z
    .string()
    .trim()
    .regex(/^(smtps?:\/\/.+)?$/, "an smtp:// or smtps:// URL")
    .optional()
    .transform((v) => v || undefined),
  /** The sender of every mail. */
  MAIL_FROM: z.string().trim().min(3).default("Atende <no-reply@localhost>"),
  /**
   * Outbound calls to addresses a company typed (bots, a bot's files, webhooks) reach only public
   * unicast addresses (lib/outbound.ts). Tests, whose fakes listen on loopback, allow some anyway: a
   * comma-separated list of addresses or CIDR ranges, each with an optional port (`127.0.0.1:4000`,
   * `[::1]:4000`, `127.0.0.0/8`), or `*` for every address. Empty by default; refused in production.
   */
  OUTBOUND_ALLOW_PRIVATE: z
    .string()
    .trim()
    .default("")
    .superRefine((spec, ctx) => {
      try {
        Allowance.parse(spec);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
      }
    }),
  /** The former name of OUTBOUND_ALLOW_PRIVATE=*: "true" allows every address. */
  WEBHOOKS_ALLOW_PRIVATE: z.enum(["true", "false"]).default("false"),
  /** The first retry of a failed webhook delivery waits this long; each next one twice as long (capped at 3 h). */
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().positive().default(30),
  /** /metrics answers only `Authorization: Bearer <this>`; unset, /metrics is off (404). */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** How long a bot (Typebot, N8N, webhook, Dialogflow, AI) may take to answer before people take over. */
  BOT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** The OpenAI-compatible API the AI prompts call (chat completions, audio transcriptions). */
  OPENAI_BASE_URL: z.string().default("https://api.openai.com/v1"),
  /** The chat model of the AI prompts, and the transcription model. */
  OPENAI_MODEL: z.string().default("gpt-4o-mini"),
  OPENAI_TRANSCRIPTION_MODEL: z.string().default("whisper-1"),
  /** How long the composer's AI help (suggest, rephrase, summarize) waits for the provider. */
  AI_ASSIST_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(30_000),
  /** Azure Speech text-to-speech endpoint; `{region}` is replaced by the prompt's voiceRegion. */
  AZURE_TTS_URL: z.string().default("https://{region}.tts.speech.microsoft.com/cognitiveservices/v1"),
  /** How long a connection's session lease lasts without renewal before another instance takes over. */
  SESSION_LEASE_SECONDS: z.coerce.number().int().min(3).max(600).default(15),
  /**
   * The WhatsApp Web version the Baileys sessions announce, e.g. "2.3000.1023223821". Unset: the
   * one bundled with Baileys. When WhatsApp refuses an outdated one (closes with 405), this is the fix.
   */
  WA_WEB_VERSION: z
    .string()
    .trim()
    .regex(/^(\d{1,4}\.\d{1,6}\.\d{1,12})?$/, 'three numbers "major.minor.build", e.g. 2.3000.1023223821')
    .optional()
    .transform((v) => (v ? (v.split(".").map(Number) as [number, number, number]) : undefined)),
  /**
   * Where the Baileys sessions read the current WhatsApp Web version at connect (what Baileys'
   * fetchLatestWaWebVersion reads), unless WA_WEB_VERSION pins one; an answer that does not come
   * within 5 s or names no version falls back to Baileys' bundled one. Empty: never read.
   */
  WA_WEB_VERSION_URL: z
    .string()
    .trim()
    .default("https://web.whatsapp.com/sw.js")
    .refine((v) => v === "" || /^https?:\/\//.test(v), "an http(s) URL, or empty to never read it"),
  /** How long a claimed job stays locked to its instance: a killed instance's jobs run again after it. */
  JOB_LOCK_SECONDS: z.coerce.number().int().min(3).max(3600).default(120),
  /**
   * Web Push (VAPID, RFC 8292): the server's key pair, base64url as `npx web-push generate-vapid-keys`
   * prints it (both or neither). Unset: a pair generated into DATA_DIR at the first start. Several
   * instances must share one pair: a device subscribed with one key hears nothing signed by another.
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{87}$/, "an uncompressed P-256 public key in base64url (87 characters)")
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{43}$/, "a P-256 private key in base64url (43 characters)")
    .optional(),
  /**
   * Who push services may contact about this server's pushes: a mailto: or https: URL. Default:
   * PUBLIC_URL when it is https, else a mailto: of MAIL_FROM's address.
   */
  VAPID_SUBJECT: z
    .string()
    .trim()
    .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, "a mailto: or https: URL")
    .optional(),
});

export type Env = z.infer<typeof envSchema>;

/** Every variable the server reads (compose.yaml is checked against this list). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export interface Config extends Env {
  dataDir: string;
  corsOrigins: string[];
  demo: boolean;
  /** Fastify's `trustProxy`: nobody, the nearest `hops` proxies, or the proxies at these addresses. */
  trustProxy: false | string[] | ((address: string, hop: number) => boolean);
}

function trustProxyOf(value: string): Config["trustProxy"] {
  if (value === "" || value === "false") return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops > 0 ? (_address, hop) => hop < hops : false;
  }
  return value.split(",").map((s) => s.trim());
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const allowPrivate = e.OUTBOUND_ALLOW_PRIVATE || (e.WEBHOOKS_ALLOW_PRIVATE === "true" ? "*" : "");
  if (allowPrivate && e.NODE_ENV === "production")
    throw new Error(
      "Invalid configuration: OUTBOUND_ALLOW_PRIVATE (or WEBHOOKS_ALLOW_PRIVATE): private addresses are for tests, never allowed with NODE_ENV=production",
    );
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY))
    throw new Error("Invalid configuration: set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither");
  if (e.MEDIA_STORAGE === "s3" && !e.S3_BUCKET)
    throw new Error(
      "Invalid configuration: MEDIA_STORAGE=s3 needs S3_BUCKET (and S3_ENDPOINT unless it is AWS).",
    );
  if (e.MEDIA_STORAGE === "local" && (e.S3_BUCKET || e.S3_ENDPOINT))
    throw new Error(
      "Invalid configuration: S3_BUCKET or S3_ENDPOINT is set but MEDIA_STORAGE is local: set MEDIA_STORAGE=s3 to keep media in the bucket.",
    );
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY)
    throw new Error("Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together.");
  // Demo users (with their printed passwords) only where nobody could mistake them for a service:
  // never in production, nor on a PostgreSQL server, unless SEED_DEMO=true says so.
  const demo =
    e.SEED_DEMO === "auto" ? e.NODE_ENV !== "production" && !e.DATABASE_URL : e.SEED_DEMO === "true";
  return {
    ...e,
    OUTBOUND_ALLOW_PRIVATE: allowPrivate,
    dataDir: path.resolve(e.DATA_DIR),
    corsOrigins: e.FRONTEND_URL.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    demo,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
  };
}
