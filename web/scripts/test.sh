#!/usr/bin/env bash
# make test-web: the web app's browser suite against the real server.
#
# Works on a brand-new machine: installs what is missing (Debian chromium, the npm packages of
# web/, the Python venv with aiosmtpd, score-wasm's browser package), builds the app and the
# server, seeds a throwaway SQLite database, starts an SMTP sink (aiosmtpd, Maildir) and the
# server on loopback ports the kernel picks (each process reports its own) with the OpenID
# provider of server/tests/oidc, then runs web/e2e/*.test.mjs in headless Chromium.
# Screenshots are kept in web/e2e/artifacts/. Exits non-zero on any failure. Arguments, if
# any, name the test files to run (default: all of web/e2e/).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
log() { printf '\n==> %s\n' "$*"; }

# --- tools -------------------------------------------------------------------------------
if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  log "installing chromium (apt)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if ! "$ROOT/.venv/bin/python" -c 'import aiosmtpd' >/dev/null 2>&1; then
  log "installing aiosmtpd into $ROOT/.venv"
  [ -x "$ROOT/.venv/bin/python" ] || python3 -m venv "$ROOT/.venv"
  "$ROOT/.venv/bin/pip" install -q aiosmtpd
fi
if [ ! -d web/node_modules/vite ] || [ ! -d web/node_modules/playwright-core ] || [ ! -d web/node_modules/@axe-core/playwright ]; then
  log "installing the npm packages of web/"
  # npm ci refuses a lock whose other-platform optional packages this registry lacks.
  (cd web && { npm ci --no-audit --no-fund --loglevel=error || npm install --no-audit --no-fund --loglevel=error; })
fi
if [ ! -d server/tests/oidc/node_modules/oidc-provider ]; then
  log "installing oidc-provider (npm), the loopback OpenID provider"
  (cd server/tests/oidc && { npm ci --no-audit --no-fund --loglevel=error || npm install --no-audit --no-fund --loglevel=error; })
fi
if [ ! -f score-wasm/pkg-web/score_wasm.js ]; then
  log "building score-wasm's browser package"
  score-wasm/scripts/build.sh
fi
if [ ! -f score-docs/wasm/pkg-web/score_docs_wasm.js ]; then
  log "building score-docs' browser package (payroll receipts read in the page)"
  score-docs/wasm/build.sh
fi

# Printed documents sent from the profile page are read by the server with Poppler and Tesseract.
bash "$ROOT/score-ocr/scripts/install-tools.sh"
# --- build -------------------------------------------------------------------------------
log "building the web app"
(cd web && npm run --silent build)
if [ -n "${SERVER_BIN:-}" ]; then
  SERVER="$SERVER_BIN"            # a server built elsewhere (e.g. a release build)
else
  log "building the server"
  cargo build -q -p server --locked
  SERVER="${CARGO_TARGET_DIR:-$ROOT/target}/debug/server"
fi

# --- SMTP sink, seeded database and server --------------------------------------------------
WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$WORK/mail"/{cur,new,tmp} "$WORK/data"

# Every listener gets a port the kernel picks and says which (no port is guessed as free): the
# first line matching PATTERN in FILE, waiting up to 30 s while process PID lives.
read_line() {  # FILE PATTERN PID WHAT
  local line=""
  for _ in $(seq 1 300); do
    line="$(grep -m1 -o "$2" "$1" || true)"
    [ -n "$line" ] && { echo "$line"; return 0; }
    kill -0 "$3" 2>/dev/null || break
    sleep 0.1
  done
  echo "$4 did not start:" >&2; cat "$1" >&2; return 1
}

# The tests' SMTP sink (aiosmtpd, Maildir): it prints its port on its first line.
"$ROOT/.venv/bin/python" server/tests/smtp_sink.py "$WORK/mail" > "$WORK/smtp.log" 2>&1 &
PIDS+=($!)
SMTP_PORT="$(read_line "$WORK/smtp.log" '^[0-9][0-9]*$' "$!" "the SMTP sink")"

# The server's own loopback OpenID provider (dev login form: any name, any password). It prints
# its issuer URL on a line of its own (after the library's warnings). It starts before the
# server, whose port is not known yet: its client is a native one, whose loopback redirect URI
# matches on any port.
OP_CLIENT_ID=platform-web OP_CLIENT_SECRET=platform-web-secret OP_LOOPBACK_ANY_PORT=1 \
  OP_REDIRECT_URI="http://127.0.0.1/api/auth/idp/callback" \
  node server/tests/oidc/provider.mjs > "$WORK/oidc.log" 2>&1 &
PIDS+=($!)
OP_URL="$(read_line "$WORK/oidc.log" '^http://127\.0\.0\.1:[0-9]*$' "$!" "the OpenID provider")"
# PORT=0: the server binds a port the kernel picks, puts it into the URLs written with port 0
# (its own default FRONTEND_URL, OIDC_REDIRECT_URL) and names it in its `listening` log line.
export OIDC_ISSUER_URL="$OP_URL" OIDC_CLIENT_ID=platform-web OIDC_CLIENT_SECRET=platform-web-secret \
  OIDC_REDIRECT_URL="http://127.0.0.1:0/api/auth/idp/callback"

export DATA_DIR="$WORK/data" PORT=0 HOST=127.0.0.1 SMTP_URL="smtp://127.0.0.1:$SMTP_PORT" \
  AUTH_RATE_LIMIT_PER_MINUTE=1000 SCORE_RATE_LIMIT_PER_MINUTE=10000 MAIL_RETRY_BASE_MS=200 \
  WEB_DIST_DIR="$ROOT/web/dist" RUST_LOG=warn,server::cli=info LOG_FORMAT=json
# The fixture receipts the journeys drop are chained to the repository's test CA, loaded as an
# operator loads the SAT's current CAs (the page reads receipts against the same set, from
# GET /api/v1/ca-sat); against the SAT's own CAs they would prove nothing.
export SAT_CA_DIR="$ROOT/fixtures/documents/ca-prueba/ac"
# Seeded accounts get no known password: this run's own, which the browser suite reads.
export SEED_PASSWORD="e2e-$(python3 -c 'import secrets; print(secrets.token_urlsafe(18))')"
SEED_OUT="$("$SERVER" seed --agents 60 --agencies 2 --properties-per-agent 4)"
echo "$SEED_OUT"
SEED_OWNER="$(sed -n 's/.*office owner: \([^ ]*\).*/\1/p' <<<"$SEED_OUT")"
[ -n "$SEED_OWNER" ] || { echo "could not read the seeded office owner" >&2; exit 1; }

"$SERVER" > "$WORK/server.log" 2>&1 &
PIDS+=($!)
LISTENING="$(read_line "$WORK/server.log" '.*"message":"listening".*' "$!" "the server")"
BASE_URL="http://$(sed -n 's/.*"address":"\([^"]*\)".*/\1/p' <<<"$LISTENING")"
curl -fsS "$BASE_URL/readyz" >/dev/null || { cat "$WORK/server.log"; exit 1; }

# --- the browser suite -----------------------------------------------------------------------
log "browser suite against $BASE_URL (screenshots in web/e2e/artifacts/)"
status=0
BASE_URL="$BASE_URL" MAILDIR="$WORK/mail" SEED_OWNER="$SEED_OWNER" \
  node --test --test-concurrency=1 "${@:-web/e2e/}" || status=1
if [ "$status" -ne 0 ]; then
  log "web tests FAILED; server log:"
  tail -n 50 "$WORK/server.log"
fi
exit "$status"
