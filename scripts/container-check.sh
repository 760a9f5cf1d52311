#!/usr/bin/env bash
# Builds the image from ./Dockerfile with podman and checks that its server starts and answers.
#
# These machines cannot pull the public base image (node:24-bookworm-slim) and refuse `podman run`,
# so the script
#   1. builds a stand-in base image once (debootstrap a minimal Debian bookworm, trimmed as
#      debian:bookworm-slim is (no documentation, manuals, translations), copy a Node of the
#      major in .node-version - the one on PATH, else /opt/node-<version>, which
#      scripts/install-node.sh fetches when missing - with its headers and this machine's npm into it
#      where the official image has them, add its `node` user, and this machine's CA bundle for
#      Node) and reuses it afterwards;
#   2. builds the image: podman build --isolation=chroot --format docker --build-arg NODE_IMAGE=…;
#   3. mounts the image (podman image mount) and starts its CMD by chroot, in a mount namespace of
#      its own (/data a fresh directory, /proc, /dev, /tmp), with the image's environment, user and
#      working directory, on a free localhost port;
#   4. checks CHECK_PATH answers 200 (default /healthz, and then {"status":"ok"}), that the image's
#      own HEALTHCHECK command passes, that the server runs as the image's non-root user and keeps
#      its database under /data, that an online SQLite backup (docs/deploy.md) works beside it,
#      and that SIGTERM stops it with exit status 0;
#   5. stops the server, unmounts the image and removes its temporary files, whatever happened.
#
# Needs root, podman and debootstrap (`apt-get install podman debootstrap`). Idempotent; bounded by
# CONTAINER_CHECK_TIMEOUT seconds (default 1200). Settings (environment):
#   IMAGE (localhost/jobboard-messenger), STANDIN_IMAGE (localhost/node-standin:24, the major of
#   .node-version), STANDIN_ROOTFS (/var/cache/jobboard-messenger/node-standin-24),
#   DEBIAN_MIRROR (from apt's sources),
#   NODE_IMAGE (a base of your own instead of the stand-in), CHECK_PATH (/healthz),
#   SKIP_BUILD=1 (check the image already built), REMOVE_IMAGE=1 (remove IMAGE's tag at the end;
#   the layers stay cached for the next build).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NODE_PINNED=$(tr -d ' \t\r\nv' <"$ROOT/.node-version")
NODE_MAJOR=${NODE_PINNED%%.*}
IMAGE=${IMAGE:-localhost/jobboard-messenger}
STANDIN_IMAGE=${STANDIN_IMAGE:-localhost/node-standin:$NODE_MAJOR}
STANDIN_ROOTFS=${STANDIN_ROOTFS:-/var/cache/jobboard-messenger/node-standin-$NODE_MAJOR}
CHECK_PATH=${CHECK_PATH:-/healthz}
TIMEOUT=${CONTAINER_CHECK_TIMEOUT:-1200}

log() { printf '[container-check %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
fail() {
  log "FAILED: $*"
  exit 1
}

# Bounded in time: run the rest under timeout(1), which signals this script's whole process group.
if [ -z "${CONTAINER_CHECK_BOUNDED:-}" ]; then
  export CONTAINER_CHECK_BOUNDED=1
  exec timeout --kill-after=20 "$TIMEOUT" "$0" "$@"
fi

[ "$(id -u)" = 0 ] || fail "needs root (podman image mount, chroot)"
for tool in podman debootstrap unshare chroot node; do
  command -v "$tool" >/dev/null || fail "$tool is missing (apt-get install podman debootstrap)"
done

WORK=$(mktemp -d /tmp/container-check.XXXXXX)
SERVER_PID=''
MOUNTED=''
cleanup() {
  local status=$?
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [ -n "$MOUNTED" ]; then podman image unmount "$IMAGE" >/dev/null 2>&1 || true; fi
  if [ "${REMOVE_IMAGE:-}" = 1 ]; then podman rmi "$IMAGE" >/dev/null 2>&1 || true; fi
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

started=$SECONDS

# ---- 1. the stand-in base image -------------------------------------------------------------
debian_mirror() {
  local uri
  uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -n1 || true)
  [ -n "$uri" ] || uri=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' | grep -v security | head -n1 || true)
  echo "${uri:-http://deb.debian.org/debian}"
}

# A Node of the pinned major: the one on PATH, else /opt/node-<version> (fetched when missing).
standin_node() {
  local node
  node=$(readlink -f "$(command -v node)")
  if ! "$node" -e "process.exit(process.versions.node.split('.')[0] === '$NODE_MAJOR' ? 0 : 1)"; then
    log "the Node on PATH is $("$node" -v), not $NODE_MAJOR: using Node $NODE_PINNED (scripts/install-node.sh)"
    node=$("$ROOT/scripts/install-node.sh")/bin/node || fail "scripts/install-node.sh"
  fi
  echo "$node"
}

build_standin() {
  local rootfs=$STANDIN_ROOTFS node node_prefix npm_dir
  if [ ! -e "$rootfs/.debootstrap-complete" ]; then
    local mirror=${DEBIAN_MIRROR:-$(debian_mirror)}
    log "debootstrap bookworm (minbase) from $mirror into $rootfs"
    rm -rf "$rootfs"
    mkdir -p "$(dirname "$rootfs")"
    debootstrap --variant=minbase bookworm "$rootfs.partial" "$mirror" >"$WORK/debootstrap.log" 2>&1 ||
      {
        tail -n 20 "$WORK/debootstrap.log" >&2
        fail "debootstrap"
      }
    # As debian:bookworm-slim, the official image's base: no downloaded packages left, and dpkg
    # keeps no documentation, manuals or translations (the slim image's path-exclude rules).
    rm -f "$rootfs.partial"/var/cache/apt/archives/*.deb
    printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
      'path-exclude /usr/share/man/*' 'path-exclude /usr/share/groff/*' 'path-exclude /usr/share/info/*' \
      'path-exclude /usr/share/lintian/*' 'path-exclude /usr/share/linda/*' 'path-exclude /usr/share/locale/*' \
      >"$rootfs.partial/etc/dpkg/dpkg.cfg.d/docker-slim"
    find "$rootfs.partial/usr/share/doc" -type f ! -name copyright -delete
    find "$rootfs.partial/usr/share/doc" -depth -mindepth 1 -type d -empty -delete
    rm -rf "$rootfs.partial"/usr/share/{man,groff,info,lintian,linda,locale}/*
    mv "$rootfs.partial" "$rootfs"
    touch "$rootfs/.debootstrap-complete"
  fi
  # Where the official image keeps them: /usr/local/bin/node, npm under /usr/local/lib/node_modules,
  # the headers (for native modules) under /usr/local/include/node; a `node` user (uid 1000).
  node=$(standin_node)
  node_prefix=$(dirname "$(dirname "$node")")
  # npm: this machine's (npm-cli.js is <npm>/bin/npm-cli.js), whichever Node it runs on.
  npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  [ -f "$npm_dir/bin/npm-cli.js" ] || npm_dir=$(npm root -g)/npm
  [ -f "$npm_dir/bin/npm-cli.js" ] || fail "npm not found at $npm_dir"
  log "copying Node $("$node" -v) ($node) and npm ($npm_dir) into the stand-in"
  install -D -m 0755 "$node" "$rootfs/usr/local/bin/node"
  rm -rf "$rootfs/usr/local/lib/node_modules/npm"
  mkdir -p "$rootfs/usr/local/lib/node_modules"
  cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
  ln -sfn ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sfn ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  [ -f "$node_prefix/include/node/node.h" ] || fail "no headers beside $node ($node_prefix/include/node)"
  rm -rf "$rootfs/usr/local/include/node"
  mkdir -p "$rootfs/usr/local/include"
  cp -a "$node_prefix/include/node" "$rootfs/usr/local/include/node"
  # This machine reaches the npm registry through a TLS proxy of its own: its CA bundle goes with
  # Node (the public image does not need it; nothing of it reaches the Dockerfile).
  local ca_bundle=${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt} ca_env=()
  if [ -f "$ca_bundle" ]; then
    install -D -m 0644 "$ca_bundle" "$rootfs/usr/local/share/node-standin/ca-certificates.crt"
    ca_env=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/node-standin/ca-certificates.crt')
  fi
  if ! chroot "$rootfs" getent passwd node >/dev/null; then
    chroot "$rootfs" groupadd --gid 1000 node
    chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  fi
  chroot "$rootfs" /usr/bin/env -i /usr/local/bin/node -e 'process.exit(0)' || fail "Node does not run in the stand-in"
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin
  log "importing the stand-in as $STANDIN_IMAGE"
  tar -C "$rootfs" --exclude=./.debootstrap-complete -c . |
    podman import \
      --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change "ENV NODE_VERSION=$("$node" -v | tr -d v)" \
      --change 'CMD ["node"]' "${ca_env[@]}" \
      - "$STANDIN_IMAGE" >/dev/null 2>"$WORK/import.log" || {
      cat "$WORK/import.log" >&2
      fail "podman import"
    }
}

if [ -n "${NODE_IMAGE:-}" ]; then
  BASE=$NODE_IMAGE
else
  BASE=$STANDIN_IMAGE
  # One check at a time builds it; a second one waits and then reuses it.
  mkdir -p "$(dirname "$STANDIN_ROOTFS")"
  exec 9>"$STANDIN_ROOTFS.lock"
  flock 9
  if podman image exists "$STANDIN_IMAGE"; then
    log "reusing the stand-in base $STANDIN_IMAGE"
  else
    build_standin
  fi
  flock -u 9
fi
log "base ready after $((SECONDS - started)) s"

# ---- 2. the image -----------------------------------------------------------------------------
if [ "${SKIP_BUILD:-}" != 1 ]; then
  build_started=$SECONDS
  log "podman build --isolation=chroot --build-arg NODE_IMAGE=$BASE -t $IMAGE $ROOT"
  # --format docker keeps HEALTHCHECK (the OCI image format has no place for it).
  podman build --isolation=chroot --format docker --layers \
    --build-arg "NODE_IMAGE=$BASE" -t "$IMAGE" "$ROOT" >"$WORK/build.log" 2>&1 ||
    {
      tail -n 40 "$WORK/build.log" >&2
      fail "podman build"
    }
  log "image built in $((SECONDS - build_started)) s"
fi

# ---- 3. start its server by chroot ------------------------------------------------------------
CONFIG=$(podman image inspect "$IMAGE")
MNT=$(podman image mount "$IMAGE")
MOUNTED=1
[ -d "$MNT" ] || fail "podman image mount gave no directory"

# The image's settings, as shell words: user, working directory, environment, command, health check.
cat >"$WORK/field.cjs" <<'EOF'
const inspected = JSON.parse(process.argv[2]);
const image = (Array.isArray(inspected) ? inspected[0] : inspected) ?? {};
const config = image.Config ?? {};
const quote = (word) => `'${String(word).replaceAll("'", "'\\''")}'`;
const words = (list) => list.map(quote).join(' ');
const test = (image.Healthcheck ?? config.Healthcheck)?.Test ?? [];
const fields = {
  user: config.User ?? '',
  workdir: config.WorkingDir || '/',
  env: words(config.Env ?? []),
  command: words([...(config.Entrypoint ?? []), ...(config.Cmd ?? [])]),
  healthcheck:
    test[0] === 'CMD' ? words(test.slice(1)) : test[0] === 'CMD-SHELL' ? words(['/bin/sh', '-c', test[1]]) : '',
  volumes: Object.keys(config.Volumes ?? {}).join(' '),
  ports: Object.keys(config.ExposedPorts ?? {}).join(' '),
};
console.log(fields[process.argv[3]]);
EOF
field() { node "$WORK/field.cjs" "$CONFIG" "$1"; }
USER_NAME=$(field user)
WORKDIR=$(field workdir)
IMAGE_ENV=$(field env)
COMMAND=$(field command)
HEALTHCHECK=$(field healthcheck)
[ -n "$USER_NAME" ] || fail "the image names no USER"
[ -n "$COMMAND" ] || fail "the image has no CMD"
[ -n "$HEALTHCHECK" ] || fail "the image has no HEALTHCHECK"
case " $(field volumes) " in *" /data "*) ;; *) fail "the image declares no /data volume" ;; esac
case " $(field ports) " in *" 3000/tcp "*) ;; *) fail "the image does not EXPOSE 3000" ;; esac
case " $IMAGE_ENV " in *"'NODE_ENV=production'"*) ;; *) fail "NODE_ENV=production is not set" ;; esac
case " $IMAGE_ENV " in *"'DATABASE_URL=sqlite:/data/messenger.db'"*) ;; *) fail "the default database is not sqlite:/data/messenger.db" ;; esac

user_line=$(grep -E "^${USER_NAME%%:*}:|^[^:]*:[^:]*:${USER_NAME%%:*}:" "$MNT/etc/passwd" | head -n1 || true)
[ -n "$user_line" ] || fail "user $USER_NAME is not in the image's /etc/passwd"
USER_UID=$(echo "$user_line" | cut -d: -f3)
USER_GID=$(echo "$user_line" | cut -d: -f4)
USER_HOME=$(echo "$user_line" | cut -d: -f6)
[ "$USER_UID" != 0 ] || fail "the image runs as root"

# A short drain before the stop (the contract: exit within SHUTDOWN_DELAY_SECONDS + 25 s).
STOP_DELAY=${SHUTDOWN_DELAY_SECONDS:-1}
PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
mkdir -p "$WORK/data"
chown "$USER_UID:$USER_GID" "$WORK/data"

# A script that runs words in the image as the container would: in a mount namespace of its own
# (/proc, /dev, a fresh /tmp, /data), as the image's user, with its environment (and HOME) only, from
# its working directory. chroot shares this machine's network: the server listens on 127.0.0.1 and
# a free port instead of 0.0.0.0:3000.
in_image_script() {
  cat <<EOF
set -eu
mount -t proc proc '$MNT/proc'
mount --rbind /dev '$MNT/dev'
mount -t tmpfs tmpfs '$MNT/tmp'
mount --bind '$WORK/data' '$MNT/data'
exec chroot --userspec=$USER_UID:$USER_GID '$MNT' /usr/bin/env -i $IMAGE_ENV HOME='$USER_HOME' \\
  HOSTNAME=container-check PORT=$PORT HOST=127.0.0.1 SHUTDOWN_DELAY_SECONDS=$STOP_DELAY \\
  /bin/sh -c 'cd "\$0" && exec "\$@"' '$WORKDIR' $1
EOF
}
in_image_script "$COMMAND" >"$WORK/server.sh"
in_image_script "$HEALTHCHECK" >"$WORK/healthcheck.sh"

log "starting the image's server (user $USER_NAME, uid $USER_UID) by chroot on 127.0.0.1:$PORT"
# unshare, sh, chroot, env and sh each exec the next: SERVER_PID ends up being the server's node.
unshare --mount --propagation private /bin/sh "$WORK/server.sh" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!

# ---- 4. check it ------------------------------------------------------------------------------
url="http://127.0.0.1:$PORT$CHECK_PATH"
answered=''
deadline=$((SECONDS + 60))
while [ "$SECONDS" -lt "$deadline" ]; do
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    early_status=0
    wait "$SERVER_PID" || early_status=$?
    SERVER_PID=''
    cat "$WORK/server.log" >&2
    fail "the server exited (status $early_status) before answering"
  fi
  # shellcheck disable=SC2016 # JavaScript, not shell
  if node -e '
      fetch(process.argv[1]).then(async (r) => {
        const body = await r.text();
        if (!r.ok) process.exit(1);
        if (process.argv[1].endsWith("/healthz") && JSON.parse(body).status !== "ok") process.exit(1);
        console.log(`${r.status} ${body.slice(0, 200)}`);
      }, () => process.exit(1));' "$url" >"$WORK/answer" 2>/dev/null; then
    answered=1
    break
  fi
  sleep 0.5
done
if [ -z "$answered" ]; then
  cat "$WORK/server.log" >&2
  fail "GET $CHECK_PATH did not answer 200 within 60 s"
fi
log "GET $CHECK_PATH → $(cat "$WORK/answer")"

# The image's own HEALTHCHECK (it asks /healthz), run the way the container runtime would: same
# user, environment and directory.
if [ "$CHECK_PATH" != /healthz ]; then
  log "HEALTHCHECK not run (CHECK_PATH is $CHECK_PATH)"
elif ! unshare --mount --propagation private /bin/sh "$WORK/healthcheck.sh" >"$WORK/healthcheck.log" 2>&1; then
  cat "$WORK/healthcheck.log" >&2
  fail "the image's HEALTHCHECK failed"
else
  log "HEALTHCHECK passed"
fi

# The executable, not comm: Node 24 names its main thread MainThread.
server_exe=$(readlink "/proc/$SERVER_PID/exe" || true)
[ "$(basename "$server_exe")" = node ] || fail "the server process is $server_exe, not node"
running_uid=$(awk '/^Uid:/ {print $2}' "/proc/$SERVER_PID/status")
[ "$running_uid" = "$USER_UID" ] || fail "the server runs as uid $running_uid, not $USER_UID"
[ -f "$WORK/data/messenger.db" ] || fail "no database under /data (DATABASE_URL default)"
log "server runs as uid $USER_UID; /data holds: $(find "$WORK/data" -mindepth 1 -maxdepth 1 -printf '%f ')"

# The online SQLite backup docs/deploy.md gives (better-sqlite3's backup), beside the live server;
# the copy must hold the migrated schema.
backup_js='const Database = require("better-sqlite3"); const db = new Database("/data/messenger.db"); db.backup("/data/backup.db").then(() => { const copy = new Database("/data/backup.db", { readonly: true }); console.log(copy.prepare("select count(*) as n from kysely_migration").get().n); })'
in_image_script "'node' '-e' '$backup_js'" >"$WORK/backup.sh"
migrations=$(unshare --mount --propagation private /bin/sh "$WORK/backup.sh" 2>"$WORK/backup.log") || {
  cat "$WORK/backup.log" >&2
  fail "the online SQLite backup failed"
}
[ "${migrations:-0}" -gt 0 ] 2>/dev/null || fail "the backup holds no migrations ($migrations)"
log "online SQLite backup: a copy with $migrations migrations"

# A clean stop: SIGTERM to the server, exit status 0 (within SHUTDOWN_DELAY_SECONDS + 25 s).
stop_limit=$((STOP_DELAY + 25))
kill -TERM "$SERVER_PID"
for _ in $(seq 1 $((stop_limit * 2))); do
  kill -0 "$SERVER_PID" 2>/dev/null || break
  sleep 0.5
done
if kill -0 "$SERVER_PID" 2>/dev/null; then fail "the server did not stop within $stop_limit s of SIGTERM"; fi
set +e
wait "$SERVER_PID"
stop_status=$?
set -e
SERVER_PID=''
if [ "$stop_status" != 0 ]; then
  cat "$WORK/server.log" >&2
  fail "the server exited with status $stop_status after SIGTERM"
fi
log "SIGTERM: exited 0"
log "OK in $((SECONDS - started)) s"
