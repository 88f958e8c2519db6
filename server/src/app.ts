import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { appRoot } from "./paths.js";
import cookie from "@fastify/cookie";
import cors from "@fastify/cors";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { baileysProvider } from "./channels/baileys/provider.js";
import { protobufShapesInTime } from "./channels/baileys/protobufShapes.js";
import { waWebVersionSource } from "./channels/baileys/version.js";
import { createGraphClient, graphFetch } from "./channels/cloud/graph.js";
import { cloudProvider } from "./channels/cloud/provider.js";
import { ConnectionCache } from "./channels/connectionCache.js";
import { cloudWebhookRoutes } from "./modules/inbound/cloudWebhook.js";
import type { Inbound } from "./channels/sink.js";
import { registerInboundJobs } from "./modules/inbound/jobs.js";
import { registerServiceLevelJobs } from "./modules/serviceLevels/jobs.js";
import { createInbound } from "./modules/inbound/service.js";
import type { ProviderRegistry } from "./channels/registry.js";
import { SessionManager } from "./channels/sessions.js";
import { PhoneBook } from "./channels/simulator/phones.js";
import { simulatorProvider } from "./channels/simulator/provider.js";
import type { Deps } from "./deps.js";
import { registerListeners } from "./listeners.js";
import { JobRunner } from "./jobs/runner.js";
import { type Chatbot, createChatbot } from "./modules/bots/menu/index.js";
import { botMediaRoutes, createBotRunner } from "./modules/bots/runtime/index.js";
import { enqueueTyping } from "./modules/messages/actions.js";
import { registerMessageJobs } from "./modules/messages/jobs.js";
import { registerErrorHandler, sendError } from "./http/errors.js";
import { registerJsonParser } from "./http/json.js";
import { SecretRoutes, withRedactedUrls } from "./http/redact.js";
import { makeRequireAuth, trustSessionChecks } from "./http/auth.js";
import { checkAnswers } from "./http/answerCheck.js";
import { checkErrors } from "./http/errorCheck.js";
import { docsModule } from "./http/docs.js";
import { answerHeaders, cspReportModule } from "./http/securityHeaders.js";
import { limiterStore, makeRateLimitGuard } from "./http/rateLimit.js";
import { requirePlan } from "./http/plan.js";
import { type RegisteredRoute, collectRoutes, makeRouteGuard } from "./http/route.js";
import { authModule } from "./modules/auth/routes.js";
import type { createAuthService } from "./modules/auth/service.js";
import { companiesModule } from "./modules/companies/routes.js";
import { plansModule } from "./modules/plans/routes.js";
import { contactsModule } from "./modules/contacts/routes.js";
import { dashboardModule } from "./modules/dashboard/routes.js";
import { healthModule } from "./modules/health/routes.js";
import { helpsModule } from "./modules/helps/routes.js";
import { logosModule } from "./modules/logos/routes.js";
import { announcementsModule } from "./modules/announcements/routes.js";
import { contactListsModule } from "./modules/contactLists/routes.js";
import { fileListsModule } from "./modules/files/routes.js";
import { billingModule } from "./modules/billing/routes.js";
import { armBillingJobs, registerBillingJobs } from "./modules/billing/jobs.js";
import { mediaModule } from "./modules/media/routes.js";
import { messagesModule } from "./modules/messages/routes.js";
import { messagesApiModule } from "./modules/messagesApi/routes.js";
import type { createMessagesService } from "./modules/messages/service.js";
import { queuesModule } from "./modules/queues/routes.js";
import { quickMessagesModule } from "./modules/quickMessages/routes.js";
import { schedulesModule } from "./modules/schedules/routes.js";
import { campaignsModule } from "./modules/campaigns/routes.js";
import { settingsModule } from "./modules/settings/routes.js";
import { simulatorModule } from "./modules/simulator/routes.js";
import { tagsModule } from "./modules/tags/routes.js";
import { ticketNotesModule } from "./modules/ticketNotes/routes.js";
import { cloudTemplatesModule } from "./modules/cloudTemplates/routes.js";
import { chatsModule } from "./modules/chats/routes.js";
import { createChatsService } from "./modules/chats/service.js";
import { ticketsModule } from "./modules/tickets/routes.js";
import type { createTicketsService } from "./modules/tickets/service.js";
import { usersModule } from "./modules/users/routes.js";
import { type Mailer, createMailer } from "./modules/mail/mailer.js";
import { registerConnectionAlertJobs } from "./modules/whatsapps/alerts.js";
import { mailRoutes } from "./modules/mail/routes.js";
import { registerAccountMailJobs } from "./modules/passwordReset/codeMail.js";
import { passwordResetModule } from "./modules/passwordReset/routes.js";
import type { createUsersService } from "./modules/users/service.js";
import { whatsappsModule } from "./modules/whatsapps/routes.js";
import { SubscriptionCache } from "./modules/webhooks/dispatch.js";
import { registerWebhookJobs } from "./modules/webhooks/delivery.js";
import { webhooksModule } from "./modules/webhooks/routes.js";
import { type PushNotifier, createPushNotifier } from "./modules/push/notifier.js";
import { pushModule } from "./modules/push/routes.js";
import { searchModule } from "./modules/search/routes.js";
import { vapidFor } from "./modules/push/vapid.js";
import { createMetrics } from "./modules/metrics/registry.js";
import { metricsModule } from "./modules/metrics/routes.js";
import type { createWhatsappsService } from "./modules/whatsapps/service.js";
import { type Realtime, createRealtime } from "./realtime/index.js";
import { secretBoxFor } from "./lib/secretBox.js";
import { type Outbound, createOutbound } from "./lib/outbound.js";
import { Allowance } from "./lib/outboundAddress.js";
import { dialogflowClient } from "./modules/bots/integrations/dialogflow.js";
import { queueIntegrationsModule } from "./modules/bots/integrations/routes.js";
import { promptsModule } from "./modules/bots/prompts/routes.js";
import { assistModule } from "./modules/assist/routes.js";

const defaultWebDist = path.join(appRoot, "web/dist");

export interface Channels {
  inbound: Inbound;
  sessions: SessionManager;
  jobs: JobRunner;
  phones: PhoneBook;
  /** Connections' rows for the per-message hot paths (see ConnectionCache). */
  connections: ConnectionCache;
  chatbot: Chatbot;
}

export interface BuiltApp {
  app: FastifyInstance;
  realtime: Realtime;
  channels: Channels;
  services: {
    auth: ReturnType<typeof createAuthService>;
    users: ReturnType<typeof createUsersService>;
    whatsapps: ReturnType<typeof createWhatsappsService>;
    tickets: ReturnType<typeof createTicketsService>;
    messages: ReturnType<typeof createMessagesService>;
  };
  /** Every registered route with its declaration (the guard suite walks them). */
  routes: RegisteredRoute[];
  /** Web Push: `settled()` waits for the pushes started so far (the close does). */
  push: Pick<PushNotifier, "settled">;
  /** Starts what runs in the background: connection sessions and the job runner. */
  startBackground(): void;
}

/** Builds the whole HTTP + realtime app from its dependencies; opens no port and touches no disk. */
export async function buildApp(
  deps: Deps,
  opts: {
    logger?: FastifyServerOptions["logger"];
    authOptions?: Parameters<typeof createAuthService>[1];
    /** Providers besides the simulator (Baileys, Cloud); tests pass fakes of the network, not of our code. */
    providers?: ProviderRegistry;
  } = {},
): Promise<BuiltApp> {
  // URLs are logged redacted by the routes' own patterns (http/redact.ts), learnt as they register.
  const secretRoutes = new SecretRoutes();
  const app = Fastify({
    logger: withRedactedUrls(opts.logger ?? { level: deps.config.LOG_LEVEL }, secretRoutes),
    genReqId: (req) =>
      (req.headers["x-request-id"] as string | undefined)?.slice(0, 64) || crypto.randomUUID(),
    // The client's address comes from X-Forwarded-For only through the proxies TRUST_PROXY names.
    trustProxy: deps.config.trustProxy,
    bodyLimit: 2 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.addHook("onRoute", (route) => secretRoutes.watch(route.url));
  app.decorateRequest("auth", null);
  // Hooks on every request are written with `done` rather than async: each async one costs a promise.
  registerErrorHandler(app);
  registerJsonParser(app);

  await app.register(cookie);
  // X-Request-Id, and CSP, frame-ancestors, nosniff, Referrer-Policy, HSTS over https: on every
  // answer, so before any route.
  await answerHeaders(app);
  if (deps.config.corsOrigins.length) {
    await app.register(cors, {
      origin: deps.config.corsOrigins,
      credentials: true,
      // Every method the API answers; requested headers (Authorization, Content-Type) are reflected.
      methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
    });
  }

  deps.bus.logTo(app.log);
  const realtime = await createRealtime(app.server, deps, app.log);
  const mailer = createMailer({ config: deps.config, db: deps.db, log: app.log });
  app.addHook("onClose", async () => mailer.close());
  // The one way out (lib/outbound.ts), for every module: OUTBOUND_ALLOW_PRIVATE read once (config
  // validated it).
  const outbound = createOutbound(Allowance.parse(deps.config.OUTBOUND_ALLOW_PRIVATE));
  const channels = buildChannels(deps, app, opts.providers ?? {}, mailer, outbound);
  const sessionChecks = trustSessionChecks(deps.db);
  const chats = createChatsService(deps);
  const metrics = createMetrics({ db: deps.db, socketsConnected: () => realtime.io.of("/").sockets.size });
  const webhookCache = new SubscriptionCache();
  registerWebhookJobs(channels.jobs, {
    db: deps.db,
    now: deps.now,
    log: app.log,
    mailer,
    cache: webhookCache,
    outbound,
    retryBaseSeconds: deps.config.WEBHOOK_RETRY_BASE_SECONDS,
    secrets: secretBoxFor(deps.config),
    metrics,
  });
  const vapid = vapidFor(deps.config);
  const push = createPushNotifier({ db: deps.db, outbound, vapid, log: app.log, now: deps.now });
  const removeListeners = registerListeners(deps.bus, {
    webhookCache,
    push,
    chats,
    jobs: channels.jobs,
    chatbot: channels.chatbot,
    connections: channels.connections,
    sessionChecks,
    realtime,
    now: deps.now,
  });
  app.addHook("preClose", async () => {
    await channels.jobs.stop();
    await channels.sessions.stop();
    removeListeners();
    await push.settled();
    await realtime.close();
  });
  app.addHook("onClose", async () => sessionChecks.close());
  // Every route declares who may call it (http/route.ts); this one hook enforces it.
  const routes = collectRoutes(app);
  app.addHook(
    "preHandler",
    makeRouteGuard(makeRequireAuth(deps.db, deps.tokens, deps.now), (companyId, flag) =>
      requirePlan(deps.db, companyId, flag),
    ),
  );
  // Declared rate limits, after the guard so a per-user limit knows the caller.
  const limits = limiterStore(deps.config, deps.db, () => deps.now().getTime());
  app.addHook("preHandler", makeRateLimitGuard(limits));
  app.addHook("onClose", async () => limits.close());
  // In tests, every answer is checked against its route's declaration: a success against its schema
  // (http/answerCheck.ts), an error against the codes it may answer (http/errorCheck.ts).
  if (deps.config.NODE_ENV === "test") {
    checkAnswers(app);
    checkErrors(app, process.env.RECORD_UNDECLARED_ERRORS);
  }
  await docsModule(app);
  await cspReportModule(app);
  metricsModule(app, {
    metrics,
    token: deps.config.METRICS_TOKEN,
    bus: deps.bus,
    connections: channels.connections,
  });

  // Every domain registers its routes the same way: `await xxxModule(app, deps)`, answering its
  // service where another module or the caller needs it.
  const shared = {
    ...deps,
    ...channels,
    log: app.log,
    maxFileBytes: deps.config.MEDIA_MAX_BYTES,
    secrets: secretBoxFor(deps.config),
    outbound,
  };
  await healthModule(app, { ...shared, pingRedis: realtime.pingRedis });
  const auth = await authModule(app, { ...shared, authOptions: opts.authOptions });
  const users = await usersModule(app, shared);
  await settingsModule(app, shared);
  await companiesModule(app, shared);
  await plansModule(app, shared);
  const whatsapps = await whatsappsModule(app, shared);
  await simulatorModule(app, shared);
  const tickets = await ticketsModule(app, shared);
  const messages = await messagesModule(app, { ...shared, tickets });
  await messagesApiModule(app, shared);
  await mediaModule(app, { ...shared, tickets });
  await contactsModule(app, shared);
  await searchModule(app, { ...shared, tickets });
  await tagsModule(app, { ...shared, tickets });
  await ticketNotesModule(app, { ...shared, tickets });
  await queuesModule(app, shared);
  await quickMessagesModule(app, shared);
  await schedulesModule(app, shared);
  // Before campaigns: a Cloud API campaign's template is checked against the connection's.
  const cloudTemplates = await cloudTemplatesModule(app, {
    ...shared,
    tickets,
    graph: createGraphClient({ baseUrl: deps.config.GRAPH_API_URL, outbound }),
  });
  await campaignsModule(app, { ...shared, templates: cloudTemplates });
  await dashboardModule(app, shared);
  await helpsModule(app, shared);
  await passwordResetModule(app, shared);
  mailRoutes(app, { db: deps.db, mailer });
  await logosModule(app, shared);
  await chatsModule(app, shared, chats);
  await announcementsModule(app, shared);
  await contactListsModule(app, shared);
  await fileListsModule(app, shared);
  await billingModule(app, shared);
  await queueIntegrationsModule(app, { ...shared, dialogflow: dialogflowClient(deps.config, outbound) });
  await promptsModule(app, shared);
  await assistModule(app, { ...shared, tickets });
  await cloudWebhookRoutes(app, shared);
  await webhooksModule(app, { ...shared, webhookCache });
  await pushModule(app, {
    ...shared,
    vapid,
    notifier: push,
    httpsOnly: !deps.config.OUTBOUND_ALLOW_PRIVATE,
  });
  botMediaRoutes(app, deps);

  await serveWebApp(app, deps.config.WEB_DIST ?? defaultWebDist);
  return {
    app,
    realtime,
    channels,
    services: { auth, users, whatsapps, tickets, messages },
    routes,
    push,
    startBackground() {
      channels.sessions.start();
      channels.jobs.start();
      void channels.chatbot.start();
      armBillingJobs(deps.db, deps.now()).catch((err: unknown) =>
        app.log.error({ err }, "billing: could not arm the invoicing and reconciliation jobs"),
      );
    },
  };
}

/** The inbound pipeline, the sessions this instance runs, and the job runner, wired together. */
function buildChannels(
  deps: Deps,
  app: FastifyInstance,
  extraProviders: ProviderRegistry,
  mailer: Mailer,
  outbound: Outbound,
): Channels {
  const { db, bus, now, media, config, tokens } = deps;
  const phones = new PhoneBook(db, bus);
  const connections = new ConnectionCache(db);
  let sessions: SessionManager | null = null;
  const inbound = createInbound({
    db,
    bus,
    media,
    mediaMaxBytes: config.INBOUND_MEDIA_MAX_BYTES,
    now,
    log: app.log,
    profilePicture: async (connection, address) =>
      (await sessions?.session(connection.id)?.profilePicture(address)) ?? null,
    poke: () => jobs.poke(),
    checkQuietFollowers: config.NODE_ENV === "test",
  });
  if (!protobufShapesInTime)
    app.log.warn(
      "protobufjs' oneof getters were replaced after WhatsApp's protocol loaded: objects built from {} " +
        "get shapes of their own and run slower (import Baileys through channels/baileys/lib.ts)",
    );
  const providers: ProviderRegistry = {
    simulator: simulatorProvider({ phones, media, now }),
    beta: baileysProvider({
      logger: app.log.child({ provider: "baileys" }, { level: "warn" }) as never,
      version: config.WA_WEB_VERSION,
      // Read once for all sessions (then every hour), through the guarded client; logged at info.
      latestVersion:
        config.WA_WEB_VERSION || !config.WA_WEB_VERSION_URL
          ? undefined
          : waWebVersionSource({
              outbound,
              url: config.WA_WEB_VERSION_URL,
              logger: app.log.child({ provider: "baileys" }),
            }),
    }),
    cloud: cloudProvider({
      graphUrl: config.GRAPH_API_URL,
      fetch: graphFetch(outbound, config.GRAPH_API_URL),
    }),
    ...extraProviders,
  };
  sessions = new SessionManager({
    db,
    inbound,
    providers,
    now,
    log: app.log,
    leaseSeconds: config.SESSION_LEASE_SECONDS,
  });
  const owned = sessions;
  const jobs = new JobRunner({
    db,
    now,
    log: app.log,
    lanes: () => owned.lanes(),
    lockSeconds: config.JOB_LOCK_SECONDS,
  });
  // Every module's durable jobs are registered by its register<Domain>Jobs (see modules/README.md).
  registerMessageJobs(jobs, { db, bus, sessions: owned, media, now });
  const graph = createGraphClient({ baseUrl: config.GRAPH_API_URL, outbound });
  registerInboundJobs(jobs, {
    db,
    bus,
    media,
    maxBytes: config.INBOUND_MEDIA_MAX_BYTES,
    providers,
    now,
    log: app.log,
    sessions: owned,
    poke: () => jobs.poke(),
    inbound,
    graph,
  });
  registerAccountMailJobs(jobs, { db, tokens, config, now, mailer });
  registerServiceLevelJobs(jobs, { db, bus, now });
  registerConnectionAlertJobs(jobs, { db, mailer });
  const box = secretBoxFor(config);
  registerBillingJobs(jobs, { db, bus, now, log: app.log, asaasUrl: config.ASAAS_API_URL, secrets: box });
  const bots = createBotRunner({
    db,
    bus,
    now,
    media,
    tokens,
    config,
    outbound,
    openSecret: (purpose, sealed) => box.open(purpose, sealed),
    log: app.log,
    poke: () => jobs.poke(),
    typing: (target) => enqueueTyping(db, target).then(() => jobs.poke()),
  });
  const chatbot = createChatbot({
    db,
    bus,
    now,
    jobs,
    connections,
    log: app.log,
    bots,
  });
  return { inbound, sessions: owned, jobs, phones, connections, chatbot };
}

const NOT_PAGES = new Set(["/health", "/livez", "/readyz", "/version", "/docs", "/metrics"]);

/**
 * Serves the built web app. Page routes share paths with the API (/users, /settings, ...): a browser
 * navigation (GET, Accept text/html, no bearer token) gets the SPA's index.html; API calls get JSON.
 */
async function serveWebApp(app: FastifyInstance, dist: string) {
  if (!fs.existsSync(path.join(dist, "index.html"))) {
    app.setNotFoundHandler((req, reply) => sendError(reply, req, "ERR_ROUTE_NOT_FOUND"));
    return;
  }
  await app.register(fastifyStatic, {
    root: dist,
    index: false,
    // The page and the background worker are checked on every visit, so a new version of the app
    // takes over at once (the page's sendFile comes here too). Vite names what it writes under
    // assets/ by content: a new build writes new names, so a browser keeps those a year without
    // asking again (max-age=0 revalidated ~100 files at every navigation).
    setHeaders: (res, file) => {
      if (["sw.js", "index.html"].includes(path.basename(file))) res.header("cache-control", "no-cache");
      else if (path.relative(dist, file).startsWith(`assets${path.sep}`))
        res.header("cache-control", "public, max-age=31536000, immutable");
    },
  });
  app.addHook("onRequest", (req, reply, done) => {
    if (req.method !== "GET") return done();
    const pathname = req.url.split("?")[0] ?? "/";
    const isNavigation =
      (req.headers.accept ?? "").includes("text/html") &&
      !req.headers.authorization &&
      !pathname.startsWith("/socket.io") &&
      !pathname.startsWith("/webhooks/") &&
      !pathname.startsWith("/docs/") &&
      !NOT_PAGES.has(pathname) &&
      !path.extname(pathname);
    // Answered here: the request goes no further (done is not called).
    if (isNavigation) reply.type("text/html").sendFile("index.html");
    else done();
  });
  app.setNotFoundHandler((req, reply) => sendError(reply, req, "ERR_ROUTE_NOT_FOUND"));
}
