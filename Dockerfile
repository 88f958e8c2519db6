# syntax=docker/dockerfile:1
# Atende's image: the release build made by scripts/build.mjs (the same script CI runs outside
# Docker, scripts/release-check.mjs), run by node as a non-root user. See docs/production.md.
ARG NODE_IMAGE=node:24-bookworm-slim

# Build: every dependency (Vite, esbuild, TypeScript), then the release folder.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
RUN node scripts/build.mjs --out /release

# Runtime: the release folder and the server's production dependencies only.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY --from=build /release ./
RUN npm ci --omit=dev -w server --no-audit --no-fund \
 && npm cache clean --force \
 && mkdir -p /data \
 && chown node:node /data
USER node
# The embedded database, the generated keys and the local media when no DATABASE_URL, SECRETS_KEY,
# JWT_SECRET or MEDIA_STORAGE=s3 take their place.
VOLUME ["/data"]
EXPOSE 8080
# Liveness only: /livez never touches the database, so an outage does not restart the container.
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node itself is PID 1 and stops gracefully on the SIGTERM of `docker stop`.
CMD ["node", "server/dist/main.js"]
