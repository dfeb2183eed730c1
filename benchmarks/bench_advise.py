"""Time and peak memory of ``bounds advise`` from 10^5 to 10^9 users, and of a Parquet records file through DuckDB.

Data: zipf counts (exponent 2, truncated at 10^4 records per user), given as a histogram: the users per
count are one multinomial draw (seed 0), so 10^9 users never exist one by one.  Records: a Parquet file of
10^7 rows (user ids zipf-distributed, seed 0) written to a temporary folder, reduced by DuckDB.

Each case runs in a fresh process, which reports its CPU time (``time.process_time``: all its threads) and
its peak resident memory (``resource.getrusage(RUSAGE_SELF).ru_maxrss``), so peaks do not leak between cases.
Targets: peak memory independent of the number of users; the recommendation without simulation
(``reps = 0``) under 10 s at 10^9 users; the Parquet counts under a minute.

Run: ``python benchmarks/bench_advise.py`` (``--quick``: 10^5 and 10^6 users, 10^6 rows).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ZIPF_S, MAX_COUNT = 2.0, 10**4

CASE = r"""
import json, resource, sys, time
import numpy as np
from bounds import advise
kind, arg = sys.argv[1], sys.argv[2]
out = {}
if kind == "records":
    t0, w0 = time.process_time(), time.perf_counter()
    h = advise.records_histogram(arg, user="user_id")
    out.update(cpu=time.process_time() - t0, wall=time.perf_counter() - w0, users=h.n_users, distinct=h.distinct)
else:
    N, reps, inverse = int(float(arg)), int(sys.argv[3]), sys.argv[4] == "1"
    d = np.arange(1, %(max)d + 1)
    p = d ** -%(s)r
    users = np.random.default_rng(0).multinomial(N, p / p.sum())
    h = advise.Histogram.of_pairs(d, users)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0, w0 = time.process_time(), time.perf_counter()
    rep = advise.advise(h, eps=1.0, alpha=0.5, reps=reps, seed=0, inverse=inverse, progress=False)
    out.update(cpu=time.process_time() - t0, wall=time.perf_counter() - w0, users=h.n_users, distinct=h.distinct,
               base_kib=base, central=rep.recommendation("central").method, local=rep.recommendation("local").method,
               per_rep={m.method: m.simulation.cpu_per_rep for m in rep.methods if m.simulation is not None})
out["peak_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps(out))
""" % {"max": MAX_COUNT, "s": ZIPF_S}


def run(*args: str) -> dict:
    res = subprocess.run([sys.executable, "-c", CASE, *args], capture_output=True, text=True, check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def write_records(path: Path, rows: int) -> None:
    import numpy as np  # noqa: PLC0415
    import pyarrow as pa  # noqa: PLC0415
    import pyarrow.parquet as pq  # noqa: PLC0415

    rng = np.random.default_rng(0)
    ids = rng.zipf(1.3, size=rows) % (rows // 10)  # heavy-tailed records per user
    pq.write_table(pa.table({"user_id": ids, "value": rng.random(rows)}), path)


def main() -> None:
    quick = "--quick" in sys.argv
    sizes = ["1e5", "1e6"] if quick else ["1e5", "1e6", "1e7", "1e9"]
    rows = 10**6 if quick else 10**7
    print(f"zipf counts (s = {ZIPF_S:g}, 1..{MAX_COUNT}) as a histogram; eps = 1, alpha = 0.5; CPU seconds "
          f"(all threads of a fresh process) and peak memory (MiB, the process's maximum resident set)")
    print(f"  {'users':>8s} {'distinct':>8s}  {'case':34s} {'CPU':>8s} {'wall':>8s} {'peak MiB':>9s} "
          f"{'above start':>11s}  recommended (central / local)")
    for N in sizes:
        for label, reps, inv in (("recommendation, reps 0", "0", "0"), ("reps 0 + inverse searches", "0", "1"),
                                 ("reps 64 (simulations)", "64", "0")):
            r = run("hist", N, reps, inv)
            print(f"  {N:>8s} {r['distinct']:>8d}  {label:34s} {r['cpu']:7.2f}s {r['wall']:7.2f}s "
                  f"{r['peak_kib'] / 1024:9.0f} {(r['peak_kib'] - r['base_kib']) / 1024:11.0f}  "
                  f"{r['central']} / {r['local']}")
            if reps != "0":
                per = ", ".join(f"{k} {v:.3g}s" for k, v in r["per_rep"].items())
                print(f"  {'':8s} {'':8s}  CPU per replication: {per}")
    print("  'above start': peak minus the resident set once the modules are imported and the histogram is built; "
          "DAME's inverse searches stop above 2000 distinct counts (reported as not searched)")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "events.parquet"
        write_records(path, rows)
        r = run("records", str(path))
        print(f"\nParquet records, {rows:,} rows ({path.stat().st_size / 2**20:.0f} MiB) -> {r['users']:,} users, "
              f"{r['distinct']:,} distinct counts, by DuckDB: CPU {r['cpu']:.2f}s, wall {r['wall']:.2f}s, "
              f"peak {r['peak_kib'] / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
