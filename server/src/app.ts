import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import cookie from "@fastify/cookie";
import cors from "@fastify/cors";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { baileysProvider } from "./channels/baileys/provider.js";
import { createGraphClient } from "./channels/cloud/graph.js";
import { cloudProvider } from "./channels/cloud/provider.js";
import { ConnectionCache } from "./channels/connectionCache.js";
import { CLOUD_WEBHOOK_JOB, cloudWebhookJob, cloudWebhookRoutes } from "./channels/cloud/webhook.js";
import { type Inbound, createInbound } from "./channels/inbound.js";
import type { ProviderRegistry } from "./channels/registry.js";
import { SessionManager } from "./channels/sessions.js";
import { PhoneBook } from "./channels/simulator/phones.js";
import { simulatorProvider } from "./channels/simulator/provider.js";
import type { Deps } from "./deps.js";
import { registerListeners } from "./events/listeners.js";
import { JobRunner } from "./jobs/runner.js";
import { mediaRoutes } from "./modules/media/routes.js";
import { type Chatbot, createChatbot } from "./modules/chatbot/index.js";
import { CHANNEL_ACTION_JOB, channelActionJob } from "./modules/messages/actions.js";
import { SEND_MESSAGE_JOB, sendMessageJob } from "./modules/messages/outbound.js";
import { messagesRoutes } from "./modules/messages/routes.js";
import { createMessagesService } from "./modules/messages/service.js";
import { ticketsRoutes } from "./modules/tickets/routes.js";
import { contactsRoutes } from "./modules/contacts/routes.js";
import { tagsModule } from "./modules/tags/routes.js";
import { ticketNotesModule } from "./modules/ticketNotes/routes.js";
import { quickMessagesModule } from "./modules/quickMessages/routes.js";
import { schedulesModule } from "./modules/schedules/routes.js";
import { dashboardModule } from "./modules/dashboard/routes.js";
import { createTicketsService } from "./modules/tickets/service.js";
import { simulatorRoutes } from "./modules/simulator/routes.js";
import { createSimulatorService } from "./modules/simulator/service.js";
import { whatsappRoutes } from "./modules/whatsapps/routes.js";
import { createWhatsappsService } from "./modules/whatsapps/service.js";
import { makeRequireAuth, trustSessionChecks } from "./http/auth.js";
import { registerErrorHandler, sendError } from "./http/errors.js";
import { registerJsonParser } from "./http/json.js";
import { withRedactedUrls } from "./http/redact.js";
import { authRoutes } from "./modules/auth/routes.js";
import { createAuthService } from "./modules/auth/service.js";
import { healthRoutes } from "./modules/health/routes.js";
import { companiesRoutes } from "./modules/companies/routes.js";
import { createCompaniesService } from "./modules/companies/service.js";
import { queuesModule } from "./modules/queues/routes.js";
import { publicSettingsRoutes, settingsRoutes } from "./modules/settings/routes.js";
import { createSettingsService } from "./modules/settings/service.js";
import { usersRoutes } from "./modules/users/routes.js";
import { createUsersService } from "./modules/users/service.js";
import { type Realtime, createRealtime } from "./realtime/index.js";

const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web/dist");

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
  const app = Fastify({
    logger: withRedactedUrls(opts.logger ?? { level: deps.config.LOG_LEVEL }),
    genReqId: (req) =>
      (req.headers["x-request-id"] as string | undefined)?.slice(0, 64) || crypto.randomUUID(),
    // The client's address comes from X-Forwarded-For only through the proxies TRUST_PROXY names.
    trustProxy: deps.config.trustProxy,
    bodyLimit: 2 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.decorateRequest("auth", null);
  app.addHook("onSend", async (req, reply) => {
    reply.header("x-request-id", req.id);
  });
  registerErrorHandler(app);
  registerJsonParser(app);

  await app.register(cookie);
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
  const channels = buildChannels(deps, app, opts.providers ?? {});
  const sessionChecks = trustSessionChecks(deps.db);
  const removeListeners = registerListeners(deps.bus, {
    jobs: channels.jobs,
    chatbot: channels.chatbot,
    connections: channels.connections,
    sessionChecks,
    realtime,
  });
  app.addHook("preClose", async () => {
    await channels.jobs.stop();
    await channels.sessions.stop();
    removeListeners();
    await realtime.close();
  });
  app.addHook("onClose", async () => sessionChecks.close());
  const requireAuth = makeRequireAuth(deps.db, deps.tokens, deps.now);
  const auth = createAuthService(deps, opts.authOptions);
  app.addHook("onClose", async () => auth.close());
  const users = createUsersService(deps);
  const whatsapps = createWhatsappsService({ ...deps, sessions: channels.sessions });
  const simulator = createSimulatorService({
    ...deps,
    inbound: channels.inbound,
    phones: channels.phones,
    connections: channels.connections,
    log: app.log,
  });
  const tickets = createTicketsService({ ...deps, jobs: channels.jobs });
  const messages = createMessagesService({ ...deps, jobs: channels.jobs, tickets });

  healthRoutes(app, deps.database);
  publicSettingsRoutes(app, deps.db);
  authRoutes(app, { auth, config: deps.config, db: deps.db, tokens: deps.tokens, requireAuth });
  await cloudWebhookRoutes(app, {
    db: deps.db,
    inbound: channels.inbound,
    jobs: channels.jobs,
    now: deps.now,
  });

  await app.register(async (priv) => {
    priv.addHook("preHandler", requireAuth);
    usersRoutes(priv, users, deps.config);
    await queuesModule(priv, { ...deps, maxFileBytes: deps.config.MEDIA_MAX_BYTES });
    settingsRoutes(priv, createSettingsService(deps));
    companiesRoutes(priv, createCompaniesService(deps));
    whatsappRoutes(priv, whatsapps);
    simulatorRoutes(priv, simulator);
    mediaRoutes(priv, { ...deps, tickets });
    ticketsRoutes(priv, tickets);
    await contactsRoutes(priv, { ...deps, sessions: channels.sessions });
    tagsModule(priv, { ...deps, tickets });
    ticketNotesModule(priv, { ...deps, tickets });
    await quickMessagesModule(priv, { ...deps, maxFileBytes: deps.config.MEDIA_MAX_BYTES });
    await schedulesModule(priv, { ...deps, jobs: channels.jobs, maxFileBytes: deps.config.MEDIA_MAX_BYTES });
    await messagesRoutes(priv, messages, deps.config.MEDIA_MAX_BYTES);
    dashboardModule(priv, deps);
  });

  await serveWebApp(app, deps.config.WEB_DIST ?? defaultWebDist);
  return {
    app,
    realtime,
    channels,
    services: { auth, users, whatsapps, tickets, messages },
    startBackground() {
      channels.sessions.start();
      channels.jobs.start();
      void channels.chatbot.start();
    },
  };
}

/** The inbound pipeline, the sessions this instance runs, and the job runner, wired together. */
function buildChannels(deps: Deps, app: FastifyInstance, extraProviders: ProviderRegistry): Channels {
  const { db, bus, now, media, config } = deps;
  const phones = new PhoneBook(db, bus);
  const connections = new ConnectionCache(db);
  let sessions: SessionManager | null = null;
  const inbound = createInbound({
    db,
    bus,
    media,
    now,
    log: app.log,
    profilePicture: async (connection, address) =>
      (await sessions?.session(connection.id)?.profilePicture(address)) ?? null,
  });
  const providers: ProviderRegistry = {
    simulator: simulatorProvider({ phones, media, now }),
    beta: baileysProvider({ logger: app.log.child({ provider: "baileys" }, { level: "warn" }) as never }),
    cloud: cloudProvider({ graphUrl: config.GRAPH_API_URL }),
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
  const jobs = new JobRunner({ db, now, log: app.log, lanes: () => owned.lanes() });
  jobs.register(SEND_MESSAGE_JOB, sendMessageJob({ db, bus, sessions: owned, media, now }));
  jobs.register(CHANNEL_ACTION_JOB, channelActionJob({ db, sessions: owned }));
  const chatbot = createChatbot({
    db,
    bus,
    now,
    jobs,
    sessions: owned,
    connections,
    log: app.log,
  });
  jobs.register(
    CLOUD_WEBHOOK_JOB,
    cloudWebhookJob({ db, inbound, graph: createGraphClient({ baseUrl: config.GRAPH_API_URL }) }),
  );
  return { inbound, sessions: owned, jobs, phones, connections, chatbot };
}

const NOT_PAGES = new Set(["/health", "/version"]);

/**
 * Serves the built web app. Page routes share paths with the API (/users, /settings, ...): a browser
 * navigation (GET, Accept text/html, no bearer token) gets the SPA's index.html; API calls get JSON.
 */
async function serveWebApp(app: FastifyInstance, dist: string) {
  if (!fs.existsSync(path.join(dist, "index.html"))) {
    app.setNotFoundHandler((req, reply) => sendError(reply, req, "ERR_ROUTE_NOT_FOUND"));
    return;
  }
  await app.register(fastifyStatic, { root: dist, index: false });
  app.addHook("onRequest", async (req, reply) => {
    const pathname = req.url.split("?")[0] ?? "/";
    const isNavigation =
      req.method === "GET" &&
      (req.headers.accept ?? "").includes("text/html") &&
      !req.headers.authorization &&
      !pathname.startsWith("/socket.io") &&
      !pathname.startsWith("/webhooks/") &&
      !NOT_PAGES.has(pathname) &&
      !path.extname(pathname);
    if (isNavigation)
      return reply.header("cache-control", "no-cache").type("text/html").sendFile("index.html");
  });
  app.setNotFoundHandler((req, reply) => sendError(reply, req, "ERR_ROUTE_NOT_FOUND"));
}
