# The messenger's image (docs/deploy.md). Build: `docker build -t jobboard-messenger .`
# Where the public base image cannot be pulled, pass another Node 20 image on Debian bookworm:
# `--build-arg NODE_IMAGE=…` (scripts/container-check.sh builds and checks it that way).
ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: every dependency, the server (tsc → dist/server) and the client (Vite → dist/web),
# then the production dependencies only.
FROM ${NODE_IMAGE} AS build
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
RUN npm ci
COPY tsconfig.json tsconfig.build.json vite.config.ts ./
COPY src ./src
# Pruned to what the server needs at run time; a compiled better-sqlite3 leaves its objects and the
# SQLite sources behind (the addon itself is build/Release/better_sqlite3.node).
RUN npm run build \
 && npm prune --omit=dev \
 && npm cache clean --force \
 && rm -rf node_modules/better-sqlite3/build/Release/obj* node_modules/better-sqlite3/build/Release/*.a \
      node_modules/better-sqlite3/build/Release/test_extension.node node_modules/better-sqlite3/deps

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
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
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
