# syntax=docker/dockerfile:1
# Stacklens image: build the TypeScript once, run the compiled JavaScript as a non-root user
# with production dependencies only. Build: docker build -t stacklens .
# (Not built on the machine this was written on: it had no access to a registry.)

# ---- build: all dependencies, compile src/ to dist/ ----
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

# ---- production dependencies only ----
FROM node:20-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# ---- runtime ----
FROM node:20-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/var/lib/stacklens
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The technology catalog the detector reads (src/detect/catalog.ts: ../../catalog from dist/detect).
COPY catalog ./catalog
COPY package.json ./
# The image's own user; DATA_DIR (embedded database, demo-client.json) is the one place it writes.
RUN groupadd --system stacklens && useradd --system --gid stacklens --home-dir /var/lib/stacklens --shell /usr/sbin/nologin stacklens \
    && mkdir -p /var/lib/stacklens && chown stacklens:stacklens /var/lib/stacklens
USER stacklens
VOLUME ["/var/lib/stacklens"]
EXPOSE 8080
# Liveness: /healthz answers 200 while the process runs (no database work); Node 20 has fetch.
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM drains (README "Shutdown"); give `docker stop` more than SHUTDOWN_EXPORT_GRACE_SECONDS (30): stop_grace_period in compose.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "dist/main.js"]
CMD ["serve"]
