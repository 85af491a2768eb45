#!/usr/bin/env bash
# Throughput and latency of the score API under concurrent load on loopback, side by side in
# one run with a trivial endpoint of the same server (GET /healthz: this machine's ceiling):
#   POST /api/v1/score            stateless calculator (target: >= 70% of the ceiling)
#   POST /api/v1/onboarding/perfil a durable write (target: >= 3,000 requests/s on SQLite)
#
#   bash benches/server/score_load.sh [concurrency] [seconds] [rounds]
#
# The three targets run in ROUNDS interleaved rounds (healthz, score, onboarding, healthz, ...),
# SECONDS each, and the ratios are taken within each round, then the median is reported: these
# machines are noisy, and a ratio of two runs seconds apart is fairer than one of runs minutes
# apart.
#   DATABASE_URL=postgres://... bash benches/server/score_load.sh   # the same against PostgreSQL
#
# The server is the release build with request logging at warn level (RUST_LOG=warn) and the
# score rate limit raised, since every request comes from one IP; SQLite keeps its production
# settings (WAL, synchronous=FULL: every onboarding is fsynced before the 201).
CONCURRENCY="${1:-32}"
SECONDS_PER_TARGET="${2:-4}"
ROUNDS="${3:-5}"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
start_server SCORE_RATE_LIMIT_PER_MINUTE=100000000
echo "machine: $(nproc) cores, $(free -g | awk '/Mem/ {print $2}') GiB; load before: $(cut -d' ' -f1-3 /proc/loadavg); database: ${DATABASE_URL:-sqlite (file, WAL, synchronous=FULL)}"
TARGETS=()
for _ in $(seq "$ROUNDS"); do
  TARGETS+=("GET /healthz" "POST /api/v1/score @benches/server/profile.json" "POST /api/v1/onboarding/perfil @benches/server/profile.json")
done
echo "concurrency $CONCURRENCY, $ROUNDS rounds of ${SECONDS_PER_TARGET}s per target"
"$LOADGEN" --base "http://127.0.0.1:$PORT" --concurrency "$CONCURRENCY" --seconds "$SECONDS_PER_TARGET" \
  "${TARGETS[@]}" | tee "$WORK/results.jsonl"
python3 - "$WORK/results.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
per_round = [rows[i:i + 3] for i in range(0, len(rows), 3)]
print(f"\n{'target':40} {'req/s (median)':>15} {'of ceiling (median of rounds)':>30} {'p50 ms':>7} {'p99 ms':>7} {'failed':>7}")
for k in range(3):
    runs = [r[k] for r in per_round]
    ratio = statistics.median(r[k]["rps"] / (r[0]["rps"] or 1) for r in per_round)
    name = runs[0]["target"].split(" @")[0]
    print(f"{name:40} {statistics.median(x['rps'] for x in runs):>15.0f} {ratio:>30.0%} "
          f"{statistics.median(x['p50_ms'] for x in runs):>7.2f} {statistics.median(x['p99_ms'] for x in runs):>7.2f} "
          f"{sum(x['non_2xx_or_failed'] for x in runs):>7}")
print("rounds (healthz / score / onboarding req/s): " + "; ".join(" / ".join(f"{x['rps']:.0f}" for x in r) for r in per_round))
PY
