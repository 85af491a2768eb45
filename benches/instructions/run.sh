#!/usr/bin/env bash
# Instructions per report, deterministic (valgrind --tool=cachegrind --cache-sim=no): the loop
# of loop.rs over the benches' profile, 1,200 reports minus 200 (so the first report, which reads
# the embedded figures, and the process's start cancel out), with and without what-ifs, for each
# commit given, each built in an export of its own tree (`git archive`; one target directory
# under $WORK for all, so only score-core is rebuilt per commit, and each binary copied out
# before the next build).
#
#   benches/instructions/run.sh [--figures REV] [--varied | --load] COMMIT...
#
# --figures REV: every export scores with REV's score-core/calibration/mx-2026.toml, so that a
# tree that reads its default figures from that file is compared with older commits under the
# same figures (a commit whose figures are compiled in is unaffected). KEEP=DIR keeps each
# binary there (`instructions_loop-COMMIT`, for callgrind).
# --varied: varied.rs instead, over the `input` of every fixtures/cases/*.json of the working tree
# that has an `expected` report (a profile a commit rejects is named on stderr and left out),
# 12 rounds minus 2; the figure is per report, averaged over the set.
# --load: load_loop.rs instead, `Calibration::from_toml` of the embedded text, 60 loads minus 10;
# the figure is per load (in both columns: the loop has no what-ifs).
# --time ROUNDS (last option): then the CPU time (user + system) of each binary, the commits
# alternated for ROUNDS rounds, the same loop run long (BIG x 200) minus short (BIG x 20), in
# nanoseconds a report (a load), the least of the rounds. Time depends on the machine and its
# load: compare commits of one run, never figures of two.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-/tmp/instructions-$$}
command -v valgrind >/dev/null || {
  $( [ "$(id -u)" = 0 ] || echo sudo ) apt-get install -y -q valgrind
}
FIGURES=
if [ "${1:-}" = --figures ]; then FIGURES=$2; shift 2; fi
LOOP=loop.rs BIG=1200 SMALL=200 PROFILES=
if [ "${1:-}" = --varied ]; then LOOP=varied.rs BIG=12 SMALL=2; shift; fi
if [ "${1:-}" = --load ]; then LOOP=load_loop.rs BIG=60 SMALL=10; shift; fi
ROUNDS=
if [ "${1:-}" = --time ]; then ROUNDS=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: $0 [--figures REV] [--varied | --load] [--time ROUNDS] COMMIT..." >&2; exit 2; }
mkdir -p "$WORK"
PER_RUN=()
trap 'rm -rf "$WORK"' EXIT
if [ "$LOOP" = varied.rs ]; then
  PROFILES=$WORK/profiles.jsonl
  python3 -c 'import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/fixtures/cases/*.json")):
    case = json.load(open(f))
    if "expected" in case and "input" in case: print(json.dumps(case["input"]))' "$ROOT" > "$PROFILES"
fi
count() { # binary, reports, mode -> instructions
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$1" "$2" "$3" $PROFILES 2>&1 \
    | sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}
if [ "$LOOP" = load_loop.rs ]; then printf '%-12s %12s %12s\n' commit "per load" "(again)"
else printf '%-12s %12s %12s\n' commit "with what-ifs" without; fi
for rev in "$@"; do
  tree=$WORK/$(git -C "$ROOT" rev-parse --short "$rev")
  mkdir -p "$tree"
  git -C "$ROOT" archive "$rev" | tar -x -m -C "$tree"  # -m: newer than any earlier build, so cargo rebuilds score-core
  [ -z "$FIGURES" ] || git -C "$ROOT" show "$FIGURES:score-core/calibration/mx-2026.toml" > "$tree/score-core/calibration/mx-2026.toml"
  mkdir -p "$tree/score-core/examples"
  cp "$ROOT/benches/instructions/$LOOP" "$tree/score-core/examples/instructions_loop.rs"
  (cd "$tree" && CARGO_TARGET_DIR=$WORK/target cargo build -q --release -p score-core --example instructions_loop)
  bin=$tree/instructions_loop
  cp "$WORK/target/release/examples/instructions_loop" "$bin"
  reports=$(( BIG - SMALL ))
  if [ -n "$PROFILES" ]; then
    "$bin" 0 sin "$PROFILES" 2>&1 >/dev/null | sed "s/^/$rev: /" >&2
    reports=$(( reports * $("$bin" 0 sin "$PROFILES" 2>&1 >/dev/null | sed -n 's/^profiles //p') ))
  fi
  with=$(( ($(count "$bin" $BIG con) - $(count "$bin" $SMALL con)) / reports ))
  without=$(( ($(count "$bin" $BIG sin) - $(count "$bin" $SMALL sin)) / reports ))
  printf '%-12s %12s %12s\n' "$rev" "$with" "$without"
  [ -z "${KEEP:-}" ] || cp "$bin" "$KEEP/instructions_loop-$rev"
  [ -z "$ROUNDS" ] || cp "$bin" "$WORK/bin-$rev"
  PER_RUN+=("$(( reports / (BIG - SMALL) ))")  # profiles a round
  rm -rf "$tree"
done
[ -n "$ROUNDS" ] || exit 0
cpu() { # binary, reports, mode -> CPU nanoseconds of one run (user + system, from the kernel)
  python3 -c 'import resource, subprocess, sys
before = resource.getrusage(resource.RUSAGE_CHILDREN)
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
after = resource.getrusage(resource.RUSAGE_CHILDREN)
print(round(1e9 * (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)))' "$1" "$2" "$3" $PROFILES
}
printf '\nCPU time, ns a report (least of %s rounds, commits alternated)\n' "$ROUNDS"
declare -A best
for round in $(seq "$ROUNDS"); do
  for rev in "$@"; do
    for mode in con sin; do
      t=$(( $(cpu "$WORK/bin-$rev" $((BIG * 200)) $mode) - $(cpu "$WORK/bin-$rev" $((BIG * 20)) $mode) ))
      key=$rev/$mode
      [ -n "${best[$key]:-}" ] && [ "${best[$key]}" -le "$t" ] || best[$key]=$t
    done
  done
done
i=0
for rev in "$@"; do
  # The runs' difference: BIG x 180 rounds of the profiles.
  n=$(( PER_RUN[i] * BIG * 180 )); i=$(( i + 1 ))
  printf '%-12s %12s %12s\n' "$rev" $(( best[$rev/con] / n )) $(( best[$rev/sin] / n ))
done
