#!/usr/bin/env bash
# The cost of the rate limits shared by every instance (issue 45), on PostgreSQL, side by side:
#
# 1. Per limited request (server/examples/limits_bench.rs): the counts in process memory (what
#    SQLite keeps, and what every instance kept before issue 45) against one upsert per check
#    in PostgreSQL's `rate_limits` table, on the login path (address + account) and the score
#    path (address or key), interleaved rounds, p50/p90/p99 in microseconds.
# 2. With BASE_SERVER=<a server binary built from an earlier commit>: POST /api/v1/score
#    throughput of that binary and of this tree's, each on its own fresh database of one
#    PostgreSQL, in interleaved rounds (base, this, base, this...), and the ratio per round.
#
#   bash benches/server/limits_cost.sh [rounds=5] [checks=5000] [concurrency=16] [seconds=4]
#   DATABASE_URL=postgres://user@host/db bash benches/server/limits_cost.sh   # an existing server
#
# Without DATABASE_URL a throwaway PostgreSQL cluster is started on a Unix socket in its work folder (fsync on: the
# production setting; the table is UNLOGGED anyway) and deleted on exit.
set -euo pipefail
ROUNDS="${1:-5}"
CHECKS="${2:-5000}"
CONCURRENCY="${3:-16}"
SECONDS_PER_ROUND="${4:-4}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
cargo build -q --release -p server --bin server --example limits_bench --example loadgen
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
WORK="$(mktemp -d)"
PIDS=()
PG_STARTED=0
PGBIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ "$PG_STARTED" -eq 1 ]; then as_pg "$PGBIN/pg_ctl" -D "$WORK/pg" -m fast -w stop >/dev/null 2>&1 || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

if [ -z "${DATABASE_URL:-}" ]; then
  [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$WORK"
  as_pg "$PGBIN/initdb" -D "$WORK/pg" -U postgres -A trust -E UTF8 >/dev/null
  # Only a Unix socket in the work folder: no TCP port to guess free.
  as_pg "$PGBIN/pg_ctl" -D "$WORK/pg" -l "$WORK/pg.log" -w \
    -o "-c listen_addresses='' -k $WORK -c max_connections=200" start >/dev/null || { cat "$WORK/pg.log"; exit 1; }
  PG_STARTED=1
  DATABASE_URL="postgres://postgres@localhost/postgres?host=$WORK"
fi
echo "machine: $(nproc) cores, $(free -g | awk '/Mem/ {print $2}') GiB; load before: $(cut -d' ' -f1-3 /proc/loadavg) (shared with other builds: compare within this run only)"

# A fresh database on the server of DATABASE_URL; prints its URL.
fresh_database() {
  local name="bench_$1_$$"
  python3 - "$DATABASE_URL" "$name" <<'PY'
import subprocess, sys, urllib.parse
url, name = sys.argv[1], sys.argv[2]
subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", f'CREATE DATABASE "{name}"'], check=True)
print(urllib.parse.urlunparse(urllib.parse.urlparse(url)._replace(path="/" + name)))
PY
}

echo "== 1. per limited request"
"$TARGET_DIR/release/examples/limits_bench" --database-url "$(fresh_database checks)" --rounds "$ROUNDS" --checks "$CHECKS"

[ -n "${BASE_SERVER:-}" ] || { echo "(set BASE_SERVER=<binary of an earlier commit> for the POST /api/v1/score side by side)"; exit 0; }

# Starts a server binary on a fresh database; prints its address once it listens.
start() {
  local binary="$1" name="$2" url
  url="$(fresh_database "$name")"
  env -i PATH="$PATH" DATABASE_URL="$url" DATA_DIR="$WORK/$name" HOST=127.0.0.1 PORT=0 LOG_FORMAT=json \
    RUST_LOG=warn,server::cli=info SCORE_RATE_LIMIT_PER_MINUTE=100000000 DB_MAX_CONNECTIONS=16 \
    "$binary" >"$WORK/$name.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 300); do
    local address
    address="$(python3 -c 'import json,sys
for line in open(sys.argv[1]):
    try: f = json.loads(line).get("fields", {})
    except ValueError: continue
    if f.get("message") == "listening": print(f["address"]); break' "$WORK/$name.log")"
    [ -n "$address" ] && { echo "$address"; return 0; }
    sleep 0.1
  done
  cat "$WORK/$name.log" >&2; return 1
}
BASE_ADDRESS="$(start "$BASE_SERVER" base)"
THIS_ADDRESS="$(start "$TARGET_DIR/release/server" this)"
echo "== 2. POST /api/v1/score, $CONCURRENCY clients, $ROUNDS interleaved rounds of ${SECONDS_PER_ROUND}s (base $BASE_SERVER, this tree)"
for r in $(seq "$ROUNDS"); do
  for who in base this; do
    address="$BASE_ADDRESS"; [ "$who" = this ] && address="$THIS_ADDRESS"
    "$TARGET_DIR/release/examples/loadgen" --base "http://$address" --concurrency "$CONCURRENCY" \
      --seconds "$SECONDS_PER_ROUND" --warmup 1 "POST /api/v1/score @benches/server/profile.json" \
      | sed "s/^/{\"who\":\"$who\",\"round\":$r,\"run\":/; s/\$/}/" >>"$WORK/http.jsonl"
  done
done
python3 - "$WORK/http.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
by = {(r["who"], r["round"]): r["run"] for r in rows}
rounds = sorted({r["round"] for r in rows})
ratios = [by[("this", k)]["rps"] / by[("base", k)]["rps"] for k in rounds]
for who in ("base", "this"):
    runs = [by[(who, k)] for k in rounds]
    print(f"{who:5} req/s median {statistics.median(x['rps'] for x in runs):8.0f}  p50 {statistics.median(x['p50_ms'] for x in runs):.3f} ms"
          f"  p99 {statistics.median(x['p99_ms'] for x in runs):.3f} ms  failed {sum(x['non_2xx_or_failed'] for x in runs)}")
print("this/base per round: " + ", ".join(f"{x:.3f}" for x in ratios) + f"; median {statistics.median(ratios):.3f}")
PY
