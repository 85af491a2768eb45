# Shared set-up of the server load scripts (sourced, not run): builds the release server and
# the load generator, makes a throwaway work folder, and stops the server and removes the folder
# on exit.
#   start_server [ENV=VALUE ...]   starts the release server on a port the kernel picks, sets
#                                  $PORT to it (from the server's `listening` line) and waits
#                                  for /healthz
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
cargo build -q --release -p server --bin server --example loadgen
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
SERVER="$TARGET_DIR/release/server"
LOADGEN="$TARGET_DIR/release/examples/loadgen"
WORK="$(mktemp -d)"
cleanup() { [ -n "${SERVER_PID:-}" ] && kill "$SERVER_PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
export DATABASE_URL="${DATABASE_URL:-sqlite://$WORK/bench.db}" DATA_DIR="$WORK" MAIL_OUTBOX_DIR="$WORK/outbox" \
  RUST_LOG=warn,server::cli=info LOG_FORMAT=json

start_server() {
  env HOST=127.0.0.1 PORT=0 DB_MAX_CONNECTIONS="${DB_MAX_CONNECTIONS:-16}" "$@" "$SERVER" >"$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  PORT=""
  for _ in $(seq 100); do
    [ -z "$PORT" ] && PORT="$(sed -n 's/.*"message":"listening".*"address":"[^"]*:\([0-9]*\)".*/\1/p' "$WORK/server.log" | head -n1)"
    [ -n "$PORT" ] && curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "the server did not start; its log:" >&2
  cat "$WORK/server.log" >&2
  return 1
}
