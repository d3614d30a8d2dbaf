# listing-sync image: one image for every role; the command picks it (worker, dashboard, sim, sync,
# schedule …). `listing-sync` is the entrypoint, so `docker run IMAGE sync --help` works.
#
# Base: Debian (glibc), not Alpine — msgpackr-extract (BullMQ's native msgpack) ships prebuilt
# glibc binaries as optional packages (@msgpackr-extract/msgpackr-extract-linux-x64/-arm64/-arm,
# pinned by the `overrides` entry in package.json); on musl it would need a compiler. Where no
# prebuilt binary fits, msgpackr falls back to plain JavaScript, so no build tools are installed.
ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: all dependencies; TypeScript to dist/, then the CLI bundle and its code cache ------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Why --ignore-scripts here: `npm ci` would run `prepare` (the tsc build) before the sources are
# copied; dependencies are installed first so this layer is cached until the lock file changes.
# Nothing from this stage's node_modules is shipped, so skipping install scripts costs nothing.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY jobs ./jobs
COPY bench ./bench
COPY scripts ./scripts
# Why the build runs here on the runtime's Node image: the V8 code cache it writes beside the
# bundle (dist/cli) is only accepted by the same Node version.
RUN npm run build

# ---- runtime: production dependencies and the compiled code only -----------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# Why --omit=dev --ignore-scripts: no TypeScript/vitest in the image, and `prepare` (tsc) must not
# run. The optional prebuilt msgpackr-extract package is still installed; it needs no script.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
    && npm cache clean --force
COPY --from=build /app/dist ./dist
# Sample feeds and mappings, so `sync --feed /app/fixtures/…` against the simulator works as-is.
COPY fixtures ./fixtures
COPY deploy/healthcheck.mjs ./deploy/healthcheck.mjs

# Files stay owned by root (read-only for the process); the process runs as the image's `node` user.
USER node

# Redis PING with the container's REDIS_URL: every role needs Redis, and a worker has no HTTP port.
# The dashboard service overrides this with its authenticated /healthz (see docker-compose.yml).
HEALTHCHECK --interval=30s --timeout=10s --start-period=20s --retries=3 \
    CMD ["node", "/app/deploy/healthcheck.mjs"]

ENTRYPOINT ["node", "/app/dist/cli/listing-sync.cjs"]
CMD ["worker"]
