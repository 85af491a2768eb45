#!/usr/bin/env bash
# Profiles scored per second through the partners' batch endpoint beside the single calculator,
# side by side in one run on loopback (issue 21, item 7):
#   POST /api/v1/score             one profile per request
#   POST /api/v1/score/lote        100 profiles per request
#   POST /api/v1/score/lote        1,000 profiles per request (the largest batch)
#
#   bash benches/server/batch_load.sh [concurrency] [seconds] [rounds]
#
# The three targets run in interleaved rounds and each round's ratio of profiles/s to the single
# calculator's is taken, then the median is reported (these machines are noisy). The batches
# are varied profiles (every state, income type and size), about 1 in 20 with an error in place.
# Release server, RUST_LOG=warn, the score rate limit raised (every request comes from one IP).
CONCURRENCY="${1:-16}"
SECONDS_PER_TARGET="${2:-4}"
ROUNDS="${3:-5}"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
python3 - "$WORK" <<'PY'
import json, random, sys
rng = random.Random(21)
tipos = ["asalariado", "independiente", "mixto"]
def profile(i):
    p = {"estado": f"{rng.randint(1, 32):02d}", "ingreso_mensual": rng.randint(5_000, 250_000),
         "tipo_ingreso": rng.choice(tipos), "antiguedad_meses": rng.randint(0, 240)}
    if rng.random() < 0.7:
        p["ahorro"] = rng.randint(0, 2_000_000)
    if rng.random() < 0.6:
        p["deudas_mensuales"] = rng.randint(0, p["ingreso_mensual"] // 2)
    if rng.random() < 0.8:
        p["edad"] = rng.randint(18, 75)
    if i % 20 == 19:
        p["estado"] = "Atlantis"  # an error in place
    return p
for n in (100, 1000):
    with open(f"{sys.argv[1]}/lote-{n}.json", "w") as f:
        json.dump({"perfiles": [profile(i) for i in range(n)]}, f)
PY
start_server SCORE_RATE_LIMIT_PER_MINUTE=100000000
echo "machine: $(nproc) cores, $(free -g | awk '/Mem/ {print $2}') GiB; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
TARGETS=()
for _ in $(seq "$ROUNDS"); do
  TARGETS+=("POST /api/v1/score @benches/server/profile.json" "POST /api/v1/score/lote @$WORK/lote-100.json" "POST /api/v1/score/lote @$WORK/lote-1000.json")
done
echo "concurrency $CONCURRENCY, $ROUNDS rounds of ${SECONDS_PER_TARGET}s per target"
"$LOADGEN" --base "http://127.0.0.1:$PORT" --concurrency "$CONCURRENCY" --seconds "$SECONDS_PER_TARGET" \
  "${TARGETS[@]}" | tee "$WORK/results.jsonl"
python3 - "$WORK/results.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
sizes = [1, 100, 1000]
per_round = [rows[i:i + 3] for i in range(0, len(rows), 3)]
print(f"\n{'target':34} {'requests/s':>11} {'profiles/s':>11} {'x single (median of rounds)':>28} {'p50 ms':>7} {'p99 ms':>8} {'failed':>7}")
for k, size in enumerate(sizes):
    runs = [r[k] for r in per_round]
    ratio = statistics.median(r[k]["rps"] * size / (r[0]["rps"] or 1) for r in per_round)
    name = f"{runs[0]['target'].split(' @')[0]} ({size})"
    rps = statistics.median(x["rps"] for x in runs)
    print(f"{name:34} {rps:>11.0f} {rps * size:>11.0f} {ratio:>28.2f} "
          f"{statistics.median(x['p50_ms'] for x in runs):>7.2f} {statistics.median(x['p99_ms'] for x in runs):>8.2f} "
          f"{sum(x['non_2xx_or_failed'] for x in runs):>7}")
PY
