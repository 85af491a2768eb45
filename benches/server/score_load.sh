#!/usr/bin/env bash
# Throughput and latency of the score API under concurrent load on loopback, side by side in
# one run with a trivial endpoint of the same server (GET /healthz: this machine's ceiling):
#   POST /api/v1/score            stateless calculator (target: >= 70% of the ceiling)
#   POST /api/v1/onboarding/perfil a durable write (target: >= 3,000 requests/s on SQLite)
#
#   bash benches/server/score_load.sh [concurrency] [seconds]
#   DATABASE_URL=postgres://... bash benches/server/score_load.sh   # the same against PostgreSQL
#
# The server is the release build with request logging at warn level (RUST_LOG=warn) and the
# score rate limit raised, since every request comes from one IP; SQLite keeps its production
# settings (WAL, synchronous=FULL: every onboarding is fsynced before the 201).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
CONCURRENCY="${1:-32}"
SECONDS_PER_TARGET="${2:-10}"
cargo build -q --release -p server --bin server --example loadgen
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
WORK="$(mktemp -d)"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
cleanup() { [ -n "${SERVER_PID:-}" ] && kill "$SERVER_PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
DATABASE_URL="${DATABASE_URL:-sqlite://$WORK/bench.db}" PORT="$PORT" DATA_DIR="$WORK" MAIL_OUTBOX_DIR="$WORK/outbox" \
  RUST_LOG=warn SCORE_RATE_LIMIT_PER_MINUTE=100000000 DB_MAX_CONNECTIONS="${DB_MAX_CONNECTIONS:-16}" \
  "$TARGET_DIR/release/server" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
echo "machine: $(nproc) cores, $(free -g | awk '/Mem/ {print $2}') GiB; load before: $(cut -d' ' -f1-3 /proc/loadavg); database: ${DATABASE_URL:-sqlite (file, WAL, synchronous=FULL)}"
"$TARGET_DIR/release/examples/loadgen" --base "http://127.0.0.1:$PORT" --concurrency "$CONCURRENCY" --seconds "$SECONDS_PER_TARGET" \
  "GET /healthz" "POST /api/v1/score @benches/server/profile.json" "POST /api/v1/onboarding/perfil @benches/server/profile.json" \
  | tee "$WORK/results.jsonl"
python3 - "$WORK/results.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
ceiling = rows[0]["rps"] or 1
print(f"\n{'target':52} {'req/s':>8} {'of ceiling':>10} {'p50 ms':>8} {'p99 ms':>8} {'failed':>7}")
for r in rows:
    print(f"{r['target']:52} {r['rps']:>8.0f} {r['rps'] / ceiling:>10.0%} {r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f} {r['non_2xx_or_failed']:>7}")
PY
