# The messenger's image (docs/deploy.md). Build: `docker build -t jobboard-messenger .`
# Where the public base image cannot be pulled, pass another Node 24 image on Debian bookworm:
# `--build-arg NODE_IMAGE=…` (scripts/container-check.sh builds and checks it that way).
ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: every dependency, without install scripts (building compiles nothing native), then
# the server (tsc → dist/server), the client (Vite → dist/web) and embed.js (esbuild → dist/web).
# Only dist/ leaves this stage.
FROM ${NODE_IMAGE} AS build
ENV npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json vite.config.ts ./
COPY scripts/build-embed.mjs ./scripts/
COPY src ./src
RUN npm run build

# ---- deps: the production dependencies alone, better-sqlite3 compiled for this stage's Node.
# Only node_modules leaves this stage, stripped of what the server never loads.
FROM ${NODE_IMAGE} AS deps
# better-sqlite3 fetches a prebuilt binary; where it cannot, it compiles one (python3, make, g++)
# against the headers the Node image ships under /usr/local/include/node.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local \
    npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false
WORKDIR /app
COPY package.json package-lock.json ./
# - npm keeps the lockfile's devOptional packages under --omit=dev: development packages that a
#   production one also names as an optional peer (typescript for i18next's types,
#   socket.io-client for laravel-echo). The server loads none of them: removed.
# - better-sqlite3: only its addon (build/Release/better_sqlite3.node) and lib/ are loaded; the
#   SQLite sources, its C++ and the compiler's objects go.
# - Type declarations, TypeScript sources, source maps and Markdown (licences stay).
RUN npm ci --omit=dev \
 && node -e 'const { rmSync } = require("node:fs"); \
      for (const [path, entry] of Object.entries(require("./package-lock.json").packages)) \
        if (entry.devOptional) rmSync(path, { recursive: true, force: true });' \
 && cd node_modules/better-sqlite3 \
 && mv build/Release/better_sqlite3.node . && rm -rf build deps src \
 && mkdir -p build/Release && mv better_sqlite3.node build/Release/ \
 && cd /app/node_modules \
 && find . -type f \( -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.map' \
      -o \( -iname '*.md' ! -iname 'licen[cs]e*' \) \) -delete

# ---- runtime: Node, the built server and client, production dependencies; nothing else.
FROM ${NODE_IMAGE} AS runtime
# Everything the server writes goes under /data (one volume): the SQLite database (when
# DATABASE_URL is not PostgreSQL), attachments (when STORAGE_URL is not S3), e-mails written
# without SMTP_URL, and uploads being received.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=sqlite:/data/messenger.db \
    STORAGE_URL=file:/data/uploads \
    MAIL_DIR=/data/mail \
    UPLOAD_TMP_DIR=/data/tmp/uploads
WORKDIR /app
# The application's files belong to root: the server (user node) reads them and writes only /data.
COPY package.json ./package.json
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The directories exist in the image, owned by node, so that a volume mounted on one of them
# (deploy/compose.yaml shares /data/uploads between instances) starts writable for the server.
RUN mkdir -p /data/uploads /data/mail /data/tmp && chown -R node:node /data
USER node
VOLUME /data
EXPOSE 3000
# Slim images have no curl: Node asks. PORT is the container's (3000 unless overridden).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# main.js migrates the database (the first instance to start does the work; the others find it
# done), then serves; it stops cleanly on SIGTERM (docs/deploy.md).
CMD ["node", "dist/server/main.js"]
