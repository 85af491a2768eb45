#!/usr/bin/env bash
# Latency of the public agent endpoints under concurrent load on loopback, on a database seeded
# with 10,000 agents (`server seed`), side by side with GET /healthz (this machine's ceiling):
#   GET /api/agents                                  first page, default limit 10
#   GET /api/agents?city=Guadalajara&page=2          city filter (accent/case-insensitive)
#   GET /api/agents?search=garcia&limit=20           name/company search (LIKE over 10k rows)
#   GET /api/agents/{id}                             detail: agent, a page of properties, counts, reviews
# Target (issue 6): p99 under 20 ms for the list.
#
#   bash benches/server/agents_load.sh [concurrency] [seconds] [agents]
#   DATABASE_URL=postgres://... bash benches/server/agents_load.sh   # against PostgreSQL (seeds it)
#
# Release build, request logs at warn level; the load client is server/examples/loadgen.rs
# (closed loop, keep-alive, bounded by time and request count, loopback only).
CONCURRENCY="${1:-16}"
SECONDS_PER_TARGET="${2:-10}"
AGENTS="${3:-10000}"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
"$SERVER" seed --agents "$AGENTS" | head -1
start_server
AGENT_ID="$(curl -fs "http://127.0.0.1:$PORT/api/agents?limit=1&page=50" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["agents"][0]["id"])')"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem/ {print $2}') GiB; load before: $(cut -d' ' -f1-3 /proc/loadavg); database: $DATABASE_URL; concurrency $CONCURRENCY, ${SECONDS_PER_TARGET}s per target"
"$LOADGEN" --base "http://127.0.0.1:$PORT" --concurrency "$CONCURRENCY" --seconds "$SECONDS_PER_TARGET" \
  "GET /healthz" "GET /api/agents" "GET /api/agents?city=Guadalajara&page=2" "GET /api/agents?search=garcia&limit=20" \
  "GET /api/agents/$AGENT_ID" | tee "$WORK/results.jsonl"
python3 - "$WORK/results.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"\n{'target':60} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'failed':>7}")
for r in rows:
    t = r['target'] if len(r['target']) <= 60 else r['target'][:57] + '...'
    print(f"{t:60} {r['rps']:>8.0f} {r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f} {r['non_2xx_or_failed']:>7}")
PY
