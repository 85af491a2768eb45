"""Benchmark: 10,000 sealed payroll receipts (CFDI XML) read in Python with their seals checked
(issue 43: "10,000 XML receipts with seals in Python under 3 s").

Run from the repository root, after installing the package (make test-py or make bench-py):

    .venv/bin/python benches/python/bench_cfdi.py            # 10,000 receipts, best of 5
    .venv/bin/python benches/python/bench_cfdi.py --n 2000   # quicker

The receipts are the fixtures of fixtures/documents/ whose expected `sello` is valid (sealed by
the test CA of fixtures/documents/ca-prueba), cycled to --n. Each is read with
`platform_score.read_cfdi` against that CA (`ca_sat=`, loaded once: the seal verified and the
certificate chained to the CA, its signature checked once per certificate and remembered, as a
service reading many receipts of one employer does), and the result's `sello.valido` and
`sello.ca_sat_verificada` checked, so a receipt that stopped verifying fails the run. Also
timed, side by side in each round: the same reads against the SAT's carried CAs (the default,
under which these certificates name no loaded CA, so the chain stops at the name), and
`profile_from_cfdi` over the same receipts in groups of six (the receipts of one worker are
grouped by the RFC that received them), against the test CA. Prints every round, the best and the median, and the load average before and after.
Not a test: only the seals' validity is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Dict, List

import platform_score

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = ROOT / "fixtures" / "documents"


def sealed_receipts() -> List[bytes]:
    """The XML of every fixture receipt whose expected facts carry a valid seal by a certificate
    the test CA issued."""
    out = []
    for expected in sorted(DOCUMENTS.glob("*.json")):
        xml = expected.with_suffix(".xml")
        facts = json.loads(expected.read_text(encoding="utf-8"))
        if xml.exists() and isinstance(facts, dict) and (facts.get("sello") or {}).get("valido") is True \
                and facts["sello"].get("ca_sat_verificada") is True:
            out.append(xml.read_bytes())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    ca = platform_score.CertificadosSat.from_dir(str(DOCUMENTS / "ca-prueba" / "ac"))
    base = sealed_receipts()
    assert base, "no sealed receipt in fixtures/documents"
    receipts = [base[i % len(base)] for i in range(args.n)]
    by_worker: Dict[str, List[bytes]] = defaultdict(list)
    for data in base:
        by_worker[platform_score.read_cfdi(data)["receptor_rfc"]].append(data)
    groups = [g[:6] for g in by_worker.values()]
    print(f"platform_score {platform_score.__version__}, Python {platform.python_version()}, "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs")
    print(f"{len(base)} distinct sealed receipts ({sum(map(len, base)) // len(base)} bytes on average), "
          f"cycled to {args.n}; load before: {os.getloadavg()}")

    read_times: List[float] = []
    default_times: List[float] = []
    profile_times: List[float] = []
    for r in range(args.rounds):
        t = time.perf_counter()
        facts = [platform_score.read_cfdi(data, ca_sat=ca) for data in receipts]
        read_times.append(time.perf_counter() - t)
        assert all(f["sello"]["valido"] and f["sello"]["ca_sat_verificada"] for f in facts), "a receipt did not verify"
        del facts
        t = time.perf_counter()
        facts = [platform_score.read_cfdi(data) for data in receipts]
        default_times.append(time.perf_counter() - t)
        assert all(f["sello"]["valido"] for f in facts), "a receipt's seal did not verify"
        del facts
        t = time.perf_counter()
        done = 0
        while done < args.n:
            for group in groups:
                platform_score.profile_from_cfdi(group, reference_date="2026-11-27", ca_sat=ca)
                done += len(group)
        profile_times.append((time.perf_counter() - t) * args.n / done)
        print(f"round {r + 1}: read_cfdi {read_times[-1]:.3f} s (test CA), {default_times[-1]:.3f} s (SAT's CAs), "
              f"profile_from_cfdi {profile_times[-1]:.3f} s per {args.n} receipts")
    best, median = min(read_times), statistics.median(read_times)
    print(f"read_cfdi of {args.n} sealed receipts, chained to the test CA: best {best:.3f} s, median {median:.3f} s "
          f"({best / args.n * 1e6:.1f} us per receipt at best); target < 3 s: {'met' if best < 3 else 'NOT met'}")
    print(f"read_cfdi of {args.n} sealed receipts against the SAT's CAs (chain stops at the name): "
          f"best {min(default_times):.3f} s, median {statistics.median(default_times):.3f} s")
    print(f"profile_from_cfdi per {args.n} receipts: best {min(profile_times):.3f} s, "
          f"median {statistics.median(profile_times):.3f} s")
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
