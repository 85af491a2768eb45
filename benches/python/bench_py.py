"""Benchmark of platform_score (score-py) against the pure-Python reference, side by side.

Run from the repository root, after installing the package (make test-py does):

    .venv/bin/python benches/python/bench_py.py            # 1,000,000 profiles / rows
    .venv/bin/python benches/python/bench_py.py --n 100000 # quicker
    .venv/bin/python benches/python/bench_py.py --parts frame  # one path (e.g. under perf)

Prints per-call and batch figures and the ratios. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

import platform_score  # noqa: E402

STATES = (
    "AGU BCN BCS CAM COA COL CHP CHH CMX DUR GUA GRO HID JAL MEX MIC "
    "MOR NAY NLE OAX PUE QUE ROO SLP SIN SON TAB TAM TLA VER YUC ZAC"
).split()
TYPES = ["asalariado", "independiente", "mixto", "pensionado"]
PARTS = ["score", "many", "lazy", "frame", "reference"]


def random_profile(rng: random.Random) -> Dict[str, Any]:
    p: Dict[str, Any] = {
        "estado": rng.choice(STATES),
        "ingreso_mensual": rng.randint(500_000, 15_000_000) / 100,
        "tipo_ingreso": rng.choice(TYPES),
        "antiguedad_meses": rng.randint(0, 240),
        "ahorro": rng.randint(0, 50_000_000) / 100,
    }
    if rng.random() < 0.7:
        p["deudas_mensuales"] = rng.randint(0, 2_000_000) / 100
    if rng.random() < 0.8:
        p["edad"] = rng.randint(18, 80)
    if rng.random() < 0.5:
        p["personas_hogar"] = rng.randint(1, 8)
    return p


def best_of(repeat: int, fn: Callable[[], Any], times: Optional[List[float]] = None) -> float:
    """Best wall time of fn(); the clock stops before its result is freed. `times` receives
    every run's time."""
    times = [] if times is None else times
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
        del result
    return min(times)


def score_loop(profiles: List[Dict[str, Any]]) -> None:
    score = platform_score.score
    for p in profiles:
        score(p)  # the report is used and dropped, as a service does per request


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="profiles for the batch and frame paths")
    parser.add_argument("--reference-n", type=int, default=2_000, help="profiles for the pure-Python reference")
    parser.add_argument("--parts", default=",".join(PARTS),
                        help=f"comma-separated parts to run (default: all of {','.join(PARTS)}); "
                             "e.g. --parts frame to profile one path")
    args = parser.parse_args()

    rng = random.Random(2026)
    sample = [random_profile(rng) for _ in range(10_000)]
    profiles = [sample[i % len(sample)] for i in range(args.n)]
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    print(f"platform_score {platform_score.__version__} (model {platform_score.MODEL_VERSION}), "
          f"Python {platform.python_version()}, {os.cpu_count()} CPUs, {mem:.1f} GiB")

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    parts = set(args.parts.split(","))
    nan = float("nan")
    per_call = t_many = t_lazy = t_frame = nan

    if "score" in parts:
        # score(): per call, including dict -> Rust -> dict conversion and freeing the report.
        calls = 200_000
        one = sample[:1000]
        batch = one * (calls // 1000)
        per_call = best_of(5, lambda: score_loop(batch)) / calls
        print(f"score()                       {per_call * 1e6:8.2f} us/call   ({calls} calls, report dropped, best of 5)")
        t = best_of(5, lambda: [platform_score.score(p) for p in batch])
        print(f"score() kept in a list        {t / calls * 1e6:8.2f} us/call   ({calls} reports alive at once)")
        texts = [json.dumps(p) for p in one]
        t = best_of(5, lambda: [platform_score.score_json(s) for s in texts])
        print(f"score_json()                  {t / len(texts) * 1e6:8.2f} us/call")

    if "many" in parts:
        # score_many on N profiles: dicts (the default), then lazy Reports.
        gc.collect()
        t_many = best_of(3, lambda: platform_score.score_many(profiles))
        print(f"score_many({args.n:,})        {t_many:8.3f} s   ({t_many / args.n * 1e6:.2f} us/profile, best of 3)")
        reports = platform_score.score_many(profiles)
        t = time.perf_counter()
        del reports
        print(f"  then freeing its {args.n:,} reports: {time.perf_counter() - t:.3f} s (not in the figure above)")

    if "lazy" in parts:
        gc.collect()
        runs: List[float] = []
        t_lazy = best_of(3, lambda: platform_score.score_many(profiles, lazy=True), runs)
        print(f"score_many({args.n:,}, lazy=True) {t_lazy:8.3f} s   ({t_lazy / args.n * 1e6:.2f} us/profile, "
              f"best of 3; runs: {', '.join(f'{x:.3f}' for x in runs)} s)")
        reports = platform_score.score_many(profiles, lazy=True)
        t = time.perf_counter()
        total = sum(r["score"] for r in reports)
        t_read = time.perf_counter() - t
        t = time.perf_counter()
        del reports
        print(f"  then r[\"score\"] of every report: {t_read:.3f} s, freeing them: {time.perf_counter() - t:.3f} s "
              f"(neither in the figure above; checksum {total})")

    if "frame" in parts:
        # DataFrame path on N rows (the frame is built outside the timing).
        try:
            import pandas as pd
        except ImportError:
            print("score_frame: pandas not installed")
        else:
            df = pd.DataFrame(profiles)
            t_frame = best_of(3, lambda: platform_score.score_frame(df))
            print(f"score_frame(DataFrame {args.n:,} rows) {t_frame:8.3f} s   ({t_frame / args.n * 1e6:.2f} us/row, best of 3)")

    if "reference" in parts:
        # Pure-Python reference (decimal), per profile.
        import reference_model

        ref = sample[: args.reference_n]
        t_ref = best_of(3, lambda: [reference_model.score(p) for p in ref]) / len(ref)
        print(f"reference_model.score()       {t_ref * 1e6:8.2f} us/profile ({len(ref)} profiles, best of 3)")
        print("ratios (reference time / platform_score time, per profile):")
        for label, per_profile in [
            ("score()            ", per_call),
            ("score_many (dicts) ", t_many / args.n),
            ("score_many (lazy)  ", t_lazy / args.n),
            ("score_frame        ", t_frame / args.n),
        ]:
            if per_profile == per_profile:  # not NaN: measured in this run
                print(f"  {label}{t_ref / per_profile:8.1f}x")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("targets: score() < 5 us, score_many 1M < 2 s, DataFrame 1M < 1 s, ratio >= 50x")


if __name__ == "__main__":
    main()
