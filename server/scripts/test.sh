#!/usr/bin/env bash
# Runs the server's end-to-end test suite twice: on SQLite and on PostgreSQL.
#
# Works on a brand-new machine: installs what is missing (Debian `postgresql`, a Python venv
# at <repo>/.venv with aiosmtpd, the npm `oidc-provider` in server/tests/oidc), starts a
# throwaway PostgreSQL cluster on a Unix socket of its own (stopped and deleted on exit), then runs
# `cargo test -p server` without and with TEST_DATABASE_URL, and a bounded schemathesis run
# against the server's /openapi.json (server/scripts/schemathesis.sh). Exits non-zero on any failure.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

log() { printf '\n==> %s\n' "$*"; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

# --- tools -------------------------------------------------------------------------------
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  log "installing PostgreSQL (apt)"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
fi

if ! "$ROOT/.venv/bin/python" -c 'import aiosmtpd' >/dev/null 2>&1; then
  log "installing aiosmtpd into $ROOT/.venv"
  [ -x "$ROOT/.venv/bin/python" ] || python3 -m venv "$ROOT/.venv"
  "$ROOT/.venv/bin/pip" install -q aiosmtpd
fi

if [ ! -d "$ROOT/server/tests/oidc/node_modules/oidc-provider" ]; then
  log "installing oidc-provider (npm)"
  ( cd "$ROOT/server/tests/oidc" && { npm ci --no-audit --no-fund || npm install --no-audit --no-fund; } )
fi
# Printed documents are read with the real Poppler and Tesseract (tests/api/printed.rs).
bash "$ROOT/score-ocr/scripts/install-tools.sh"

# --- throwaway PostgreSQL cluster ----------------------------------------------------------
PGBIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
PGROOT="$(mktemp -d)"
PG_STARTED=0

as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

cleanup() {
  if [ "$PG_STARTED" -eq 1 ]; then
    as_pg "$PGBIN/pg_ctl" -D "$PGROOT/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$PGROOT"
}
trap cleanup EXIT

if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$PGROOT"; fi
as_pg "$PGBIN/initdb" -D "$PGROOT/data" -U postgres -A trust -E UTF8 --no-sync >/dev/null
# PostgreSQL cannot take port 0, so it listens on no TCP port at all: only on a Unix socket in
# this run's own folder (its port number only names the socket file there), which nothing
# else can take. The tests connect with `?host=<folder>`.
log "starting PostgreSQL ($("$PGBIN/postgres" --version)) on a Unix socket in $PGROOT"
if as_pg "$PGBIN/pg_ctl" -D "$PGROOT/data" -l "$PGROOT/log" -w \
  -o "-c listen_addresses='' -k $PGROOT -c fsync=off -c max_connections=300" start >/dev/null; then
  PG_STARTED=1
fi
[ "$PG_STARTED" -eq 1 ] || { cat "$PGROOT/log"; exit 1; }

# --- tests ---------------------------------------------------------------------------------
status=0
log "server tests on SQLite"
cargo test -p server || status=1

log "schemathesis against /openapi.json (bounded; the binary the tests built)"
bash "$ROOT/server/scripts/schemathesis.sh" "${CARGO_TARGET_DIR:-$ROOT/target}/debug/server" || status=1

log "server tests on PostgreSQL"
TEST_DATABASE_URL="postgres://postgres@localhost/postgres?host=$PGROOT" cargo test -p server || status=1

if [ "$status" -ne 0 ]; then
  log "server tests FAILED"
else
  log "server tests passed on SQLite and PostgreSQL"
fi
exit "$status"
