"""The ``bounds`` command line.

Examples
--------
>>> main(["dame", "--sizes", "point:100", "--n-alpha2", "1e4", "--constants", "unit"])
DAME bounds — Pla, Richard & Vono, Theorems 1-2 (001_ac3274d7ce9a5d72.txt, eqs. (10)-(12))
  size law M    point(m=100)   E[m] = 100
  n alpha^2     10000
  constants     unit: c1=1, c2=1, c3=1, c4=1, c5=1
  precision     float64
  m_tilde       100
  upper bound   6.907755279e-06   (log -11.88286582)
  lower bound   1e-06   at a = 100   (log -13.81551056)
0
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import sys
import time
import warnings
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np

from . import __version__, audit, cummings, dame, figures, kent, rameshwar, sizes
from .numerics import PaperAssumptionWarning


def _fmt(v, precision) -> str:
    if precision is None:
        return f"{float(v):.10g}"
    return mpmath.nstr(v, precision)


def _cmd_dame(args) -> int:
    law = sizes.parse(args.sizes)
    kw = {"n_alpha2": args.n_alpha2} if args.n_alpha2 is not None else {"n": args.n, "alpha": args.alpha}
    c = dame._constants(args.constants)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PaperAssumptionWarning)
        ub = dame.upper_bound(law, constants=c, precision=args.precision, **kw)
        lb = dame.lower_bound(law, constants=c, precision=args.precision, **kw)
    p = args.precision
    budget = f"{ub.n_alpha2:.10g}" + (f"   (n = {ub.n}, alpha = {ub.alpha:g})" if ub.n is not None else "")
    consts = ", ".join(f"{k}={v}" for k, v in c.describe().items() if k != "name")
    print("DAME bounds — Pla, Richard & Vono, Theorems 1-2 (001_ac3274d7ce9a5d72.txt, eqs. (10)-(12))")
    print(f"  size law M    {law!r}   E[m] = {float(law.mean()):.6g}")
    print(f"  n alpha^2     {budget}")
    print(f"  constants     {c.name}: {consts}")
    print(f"  precision     {'float64' if p is None else f'{p} digits (mpmath)'}")
    print(f"  m_tilde       {ub.m_tilde}")
    cap = "   (capped at 4)" if ub.capped else ""
    print(f"  upper bound   {_fmt(ub.value, p)}{cap}   (log {_fmt(ub.log_value, p)})")
    arg = "inf" if math.isinf(lb.argmax) else str(int(lb.argmax))
    print(f"  lower bound   {_fmt(lb.value, p)}   at a = {arg}   (log {_fmt(lb.log_value, p)})")
    for w in {str(w.message) for w in caught}:
        print(f"  warning: {w}")
    return 0


def _cmd_figures(args) -> int:
    start = time.perf_counter()
    res = figures.run(args.only, quick=args.quick, out=args.out, jobs=args.jobs, constants=args.constants)
    for fid, (data, paths) in res.items():
        meta = json.loads(paths[-1].read_text())
        print(f"  {fid:24s} {len(data.rows):6d} rows  {meta['wall_time_s']:7.2f} s   {paths[0].parent}/{fid}.{{png,pdf,csv,json}}")
    cpu = sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
              for f in ("ru_utime", "ru_stime"))
    print(f"{len(res)} figures in {time.perf_counter() - start:.1f} s ({cpu:.1f} s of CPU, {args.jobs} processes)"
          + (" (quick settings)" if args.quick else ""))
    return 0


def _cmd_check(args) -> int:
    ids = args.only or list(audit.CHECKS)
    results, errors = [], 0
    print(f"  {'check':32s} {'status':13s} {'method':34s} claim")
    for cid in ids:
        if cid not in audit.CHECKS:
            raise ValueError(f"unknown check {cid!r}; choose from {', '.join(audit.CHECKS)}")
        try:
            r = audit.run([cid])[0]
        except Exception as exc:  # a check that errors is the only failure of the command
            errors += 1
            print(f"  {cid:32s} {'ERROR':13s} {type(exc).__name__}: {exc}")
            continue
        results.append(r)
        print(f"  {r.id:32s} {r.status:13s} {r.method[:34]:34s} {r.claim}")
    counts = {s: sum(r.status == s for r in results) for s in audit.STATUSES}
    print("  " + ", ".join(f"{v} {k}" for k, v in counts.items()) + (f", {errors} errors" if errors else ""))
    if args.report:
        Path(args.report).write_text(audit.report(results))
        print(f"report written to {args.report}")
    return 1 if errors else 0


def _cmd_kent(args) -> int:
    kw = {"d": args.d, "s": args.s, "beta": args.beta, "ball": args.ball}
    r = kent.rate(args.problem, n=args.n, T=args.T, alpha=args.alpha, **kw)
    pt = kent.phase_transition(args.problem, n=args.n, alpha=args.alpha, **kw)
    print("Kent, Berrett & Yu — user-level LDP rates (004_b0e838126fb19414.txt; kent.md)")
    print(f"  problem       {args.problem}" + (f", d = {args.d}, ball = {args.ball}" if args.d > 1 else "")
          + (f", s = {args.s}" if args.s else "") + (f", beta = {args.beta:g}" if args.beta else ""))
    print(f"  n, T, alpha   {args.n}, {args.T}, {args.alpha:g}   (n alpha^2 = {args.n * args.alpha**2:g})")
    print(f"  confidence    [{r.confidence}]" + ("  (reconstructed form)" if r.reconstructed else ""))
    print("  rates with constants c = C = c1 = c2 = 1 (rates, not numeric bounds):")
    print(f"  lower         {r.lower:.6g}   = c * max({r.lower_terms[0]:.4g}, {r.lower_terms[1]:.4g})")
    print(f"  upper         {r.upper:.6g}")
    print(f"  item-level    {r.item_level:.6g}   (nT = {args.n * args.T} users, one sample each)")
    print(f"  regime        {r.regime}")
    print(f"  T_dagger      {pt.lower:.6g}   (log {pt.log_lower:.6g}; lower rate's two terms equal)")
    if pt.upper is not None:
        print(f"                {pt.upper:.6g}   (log {pt.log_upper:.6g}; upper rate's two terms equal)")
    return 0


def _cmd_cummings(args) -> int:
    try:
        k = [int(v) for v in args.k.split(",") if v.strip()]
    except ValueError:
        raise ValueError(f"--k must be comma-separated positive integers, got {args.k!r}") from None
    s2 = cummings.user_variance(k, p=args.p, sigma_p2=args.sigma_p2)
    widths = 2 * cummings.concentration(k, p=args.p, sigma_p2=args.sigma_p2, beta=args.beta)
    trunc = cummings.optimal_truncation(s2, widths, eps=args.eps)
    lb = cummings.lower_bound(k, eps=args.eps, sigma_p2=args.sigma_p2)
    print("Cummings, Feldman, McMillan & Talwar — heterogeneous users (003_5683c9a67e132c7f.txt)")
    print(f"  k             {', '.join(map(str, k))}   (n = {len(k)})")
    print(f"  eps, p, s_p^2 {args.eps:g}, {args.p:g}, {args.sigma_p2:g}   (widths: sub-Gaussian, beta = {args.beta:g})")
    print(f"  k*            {lb.k_star}   (Corollary 5.5)")
    print(f"  T*            {trunc.T:.10g}   (eq. (6), exact)")
    print(f"  Var(ideal)    {trunc.variance:.10g}   (eq. (5) as printed; with Var(Lap(b)) = 2b^2: "
          f"{cummings.ideal_variance(s2, widths, eps=args.eps, T=trunc.T, laplace='exact'):.10g})")
    print(f"  lower bound   {lb.value:.10g} = min({lb.privacy_term:.6g}, {lb.statistical_term:.6g})   (Corollary 5.5, no polylog)")
    print(f"  {'k_i':>8s} {'sigma_i^2':>12s} {'weight':>10s}")
    for ki, si, wi in zip(k, s2, trunc.weights):
        print(f"  {ki:8d} {si:12.6g} {wi:10.6f}")
    return 0


def _collection(spec: str):
    kind, _, rest = spec.partition(":")
    args = [a for a in rest.split(",") if a]
    try:
        if kind == "geometric":
            return rameshwar.geometric(int(args[0]))
        if kind == "extreme":
            return rameshwar.extreme(int(args[0]), int(args[1]))
        if kind == "counts":
            return [int(a) for a in args]
    except (IndexError, TypeError):
        pass
    raise ValueError(f"cannot read collection {spec!r}: use geometric:M, extreme:L,m_star or counts:m1,m2,...")


def _cmd_rameshwar(args) -> int:
    m = _collection(args.collection)
    c = rameshwar.clipping(m, U=args.U, eps=args.eps)
    lp = rameshwar.lp_optimum(m, U=args.U, eps=args.eps)
    counts = np.asarray(m)
    print("Rameshwar & Tandon — worst-case-optimal clipping (002_b4d2a69fdbee0cc3.txt, Thm III.1, Lemma III.1)")
    print(f"  collection    {args.collection}   L = {counts.size}, sum m = {int(counts.sum())}, m* = {int(counts.max())}")
    print(f"  U, eps        {args.U:g}, {args.eps:g}   rank ceil(2/eps) = {math.ceil(2 / Fraction(args.eps))}")
    print(f"  T_eps         {c.threshold:.10g}")
    print(f"  {'m_l':>6s} {'users':>6s} {'a_l':>12s} {'b_l':>12s}")
    for k in sorted(set(counts.tolist()), reverse=True):
        i = int(np.flatnonzero(counts == k)[0])
        print(f"  {k:6d} {int(np.sum(counts == k)):6d} {c.a[i]:12.6g} {c.b[i]:12.6g}")
    print(f"  E_OPT         {rameshwar.optimal_error(m, U=args.U, eps=args.eps):.12g}   (Lemma III.1 at Theorem III.1)")
    print(f"  LP optimum    {lp.value:.12g}   (HiGHS, over all per-user clippings)")
    print(f"  eq. (12)      {rameshwar.eq12_as_printed(m, U=args.U, eps=args.eps):.12g}   (as printed)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bounds", description="Reference calculator for user-level DP mean estimation.")
    parser.add_argument("--version", action="version", version=f"bounds {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("dame", help="DAME's upper and lower bounds (Theorems 1-2) for a size law")
    p.add_argument("--sizes", required=True, help="size law, e.g. poisson:5, uniform:1,9, finite:1=0.5,100=0.5")
    p.add_argument("--n", type=int, help="number of users")
    p.add_argument("--alpha", type=float, help="LDP level alpha")
    p.add_argument("--n-alpha2", type=float, help="n * alpha^2 (instead of --n and --alpha)")
    p.add_argument("--constants", default="paper", choices=["paper", "unit"])
    p.add_argument("--precision", type=int, default=None, help="mpmath digits (default: float64)")
    p.set_defaults(func=_cmd_dame)

    p = sub.add_parser("rameshwar", help="Rameshwar-Tandon: T_eps, the optimal clipping, E_OPT and the LP")
    p.add_argument("--collection", required=True, help="geometric:M, extreme:L,m_star or counts:m1,m2,...")
    p.add_argument("--U", type=float, default=65.0, help="samples lie in (0, U] (default 65)")
    p.add_argument("--eps", type=float, required=True, help="privacy level epsilon")
    p.set_defaults(func=_cmd_rameshwar)

    p = sub.add_parser("kent", help="Kent, Berrett & Yu: rates, regime and phase transition T_dagger")
    p.add_argument("--problem", default="mean", choices=["mean", "sparse", "density"])
    p.add_argument("--n", type=int, required=True, help="number of users")
    p.add_argument("--T", type=int, required=True, help="samples per user")
    p.add_argument("--alpha", type=float, required=True, help="LDP level alpha")
    p.add_argument("--d", type=int, default=1, help="dimension (mean, sparse)")
    p.add_argument("--s", type=int, default=None, help="sparsity (sparse)")
    p.add_argument("--beta", type=float, default=None, help="Sobolev smoothness (density)")
    p.add_argument("--ball", default="linf", choices=["linf", "l2"], help="the mean's ball for d > 1")
    p.set_defaults(func=_cmd_kent)

    p = sub.add_parser("cummings", help="Cummings et al.: k*, the optimal truncation T* and Corollary 5.5")
    p.add_argument("--k", required=True, help="samples per user, e.g. 100,50,20,5,1")
    p.add_argument("--eps", type=float, required=True, help="privacy level epsilon")
    p.add_argument("--p", type=float, default=0.5, help="mean of the meta-distribution (default 0.5)")
    p.add_argument("--sigma-p2", type=float, default=0.01, help="its variance sigma_p^2 (default 0.01)")
    p.add_argument("--beta", type=float, default=0.05, help="failure probability of the widths (default 0.05)")
    p.set_defaults(func=_cmd_cummings)

    p = sub.add_parser("check", help="audit the papers' lemmas, constants and claims numerically")
    p.add_argument("--only", nargs="+", metavar="ID", help="checks to run (default: all)")
    p.add_argument("--report", metavar="FILE.md", help="write a Markdown report with each check's evidence")
    p.set_defaults(func=_cmd_check)

    p = sub.add_parser("figures", help="regenerate the papers' figures (PNG, PDF, CSV, JSON)")
    p.add_argument("--only", nargs="+", metavar="ID", help=f"figures to make: {', '.join(sorted(figures.REGISTRY))}")
    p.add_argument("--quick", action="store_true", help="small grids and replications (for CI)")
    p.add_argument("--out", default="figures", help="output folder (default: figures)")
    p.add_argument("--jobs", type=int, default=min(os.cpu_count() or 1, 4),
                   help="processes for the Monte Carlo (default: the cores, up to 4; results do not depend on it)")
    p.add_argument("--constants", default="unit", choices=["paper", "unit"],
                   help="DAME constants for Figure 1a (default unit: the paper's parallel lines)")
    p.set_defaults(func=_cmd_figures)
    return parser


def main(argv=None) -> int:
    """Entry point of the ``bounds`` console script; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except ValueError as exc:
        print(f"bounds: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
