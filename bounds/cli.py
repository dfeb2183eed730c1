"""The ``bounds`` command line.

Every subcommand answers bad input with one line on stderr naming the option
(``bounds <command>: error: --option: …``) and exit status 2 — never a
traceback.  The calculators (``dame``, ``rameshwar``, ``kent``, ``cummings``)
take ``--json`` to print their result as one JSON object (the result
dataclasses' fields; non-finite numbers as ``null``).

Examples
--------
>>> main(["dame", "--sizes", "point:100", "--n-alpha2", "1e4", "--constants", "unit"])
DAME bounds — Pla et al. (2024), Theorems 1-2, eqs. (10)-(12)
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
import dataclasses
import json
import math
import os
import resource
import sys
import time
import warnings
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Sequence

import mpmath
import numpy as np
import sympy as sp

from . import __version__, advise, audit, cummings, dame, figures, kent, rameshwar, sizes
from .numerics import MAX_PRECISION, PaperAssumptionWarning
from .references import CUMMINGS, DAME, KENT, RAMESHWAR


class OptionError(ValueError):
    """Bad command-line input, attributed to ``option``."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option


# =========================================================================== argument types


def _number(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(v):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
    return v


def _positive(text: str) -> float:
    v = _number(text)
    if v <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return v


def _integer(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer (or too many digits): {text!r}") from None
        if v < minimum:
            raise argparse.ArgumentTypeError(f"must be an integer >= {minimum}, got {text!r}")
        return v

    parse.__name__ = f"integer >= {minimum}"
    return parse


# =========================================================================== results as text and JSON


def _fmt(v: Any, precision: int | None) -> str:
    if precision is None:
        return f"{float(v):.10g}"
    return mpmath.nstr(v, precision)


def _plain(obj: Any) -> Any:
    """A result as JSON-ready data: dataclass fields, arrays as lists, exact numbers as floats, non-finite as None."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, np.ndarray)):
        return [_plain(v) for v in obj]
    if isinstance(obj, (bool, np.bool_, str)) or obj is None:
        return obj.item() if isinstance(obj, np.bool_) else obj
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating, Fraction, mpmath.mpf)):
        v = float(obj)
        return v if math.isfinite(v) else None
    if isinstance(obj, dame.Constants):
        return obj.describe()
    if isinstance(obj, sp.Basic):
        return str(obj)
    return repr(obj)  # a size law: its constructor call


def _print_json(command: str, inputs: dict[str, Any], **results: Any) -> int:
    print(json.dumps({"command": command, "inputs": _plain(inputs), **{k: _plain(v) for k, v in results.items()}},
                     allow_nan=False))
    return 0


# =========================================================================== dame


_LAW_ARITY = {"poisson": (1, 1), "binomial": (2, 2), "uniform": (2, 2), "point": (1, 1), "geometric": (1, 1),
              "zipf": (1, 1), "empirical": (1, None), "finite": (1, None)}


def _law(spec: str) -> sizes.SizeLaw:
    """``--sizes``: a size law, its number of parameters checked before ``sizes.parse`` reads it."""
    kind, _, rest = spec.partition(":")
    kind = kind.strip().lower()
    params = [x.strip() for x in rest.split(",") if x.strip()]
    if kind in _LAW_ARITY:
        lo, hi = _LAW_ARITY[kind]
        if len(params) < lo or (hi is not None and len(params) > hi):
            want = f"{lo}" if lo == hi else f"at least {lo}"
            raise OptionError("--sizes", f"{kind} takes {want} parameter{'s' if lo > 1 else ''}, got {len(params)} in {spec!r}")
        if kind == "finite" and any(x.count("=") != 1 for x in params):
            raise OptionError("--sizes", f"finite takes size=mass pairs, e.g. finite:1=0.5,100=0.5; got {spec!r}")
    try:
        return sizes.parse(spec)
    except Exception as exc:
        raise OptionError("--sizes", str(exc)) from None


def _cmd_dame(args: argparse.Namespace) -> int:
    law = _law(args.sizes)
    if args.n_alpha2 is not None:
        if args.n is not None or args.alpha is not None:
            raise OptionError("--n-alpha2", "give either --n and --alpha, or --n-alpha2, not both")
        kw = {"n_alpha2": args.n_alpha2}
    elif args.n is None or args.alpha is None:
        raise OptionError("--n/--alpha", "give both --n and --alpha, or --n-alpha2")
    else:
        kw = {"n": args.n, "alpha": args.alpha}
    c = dame.Constants.paper() if args.constants == "paper" else dame.Constants.unit()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PaperAssumptionWarning)
        ub = dame.upper_bound(law, constants=c, precision=args.precision, **kw)
        lb = dame.lower_bound(law, constants=c, precision=args.precision, **kw)
    notes = list(dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, PaperAssumptionWarning)))
    if args.json:
        return _print_json("dame", {"sizes": args.sizes, **kw, "constants": args.constants, "precision": args.precision},
                           upper_bound=ub, lower_bound=lb, warnings=notes)
    p = args.precision
    budget = f"{ub.n_alpha2:.10g}" + (f"   (n = {ub.n}, alpha = {ub.alpha:g})" if ub.n is not None else "")
    consts = ", ".join(f"{k}={v}" for k, v in c.describe().items() if k != "name")
    print(f"DAME bounds — {DAME.cite()}, Theorems 1-2, eqs. (10)-(12)")
    print(f"  size law M    {law!r}   E[m] = {float(law.mean()):.6g}")
    print(f"  n alpha^2     {budget}")
    print(f"  constants     {c.name}: {consts}")
    print(f"  precision     {'float64' if p is None else f'{p} digits (mpmath)'}")
    print(f"  m_tilde       {ub.m_tilde}")
    cap = "   (capped at 4)" if ub.capped else ""
    print(f"  upper bound   {_fmt(ub.value, p)}{cap}   (log {_fmt(ub.log_value, p)})")
    arg = "inf" if math.isinf(lb.argmax) else str(int(lb.argmax))
    print(f"  lower bound   {_fmt(lb.value, p)}   at a = {arg}   (log {_fmt(lb.log_value, p)})")
    for w in notes:
        print(f"  warning: {w}")
    return 0


def _writable_file(option: str, path: str) -> Path:
    """``path`` after checking a file can be written there (before any long computation)."""
    target = Path(path)
    if target.is_dir():
        raise OptionError(option, f"{path!r} is a directory, not a file")
    try:
        with open(target, "a"):
            pass
    except OSError as exc:
        raise OptionError(option, f"cannot write {path!r}: {exc.strerror or exc}") from None
    return target


def _writable_dir(option: str, path: str) -> Path:
    """``path`` created if needed, after checking files can be written in it."""
    target = Path(path)
    try:
        target.mkdir(parents=True, exist_ok=True)
        probe = target / ".bounds-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise OptionError(option, f"cannot write in {path!r}: {exc.strerror or exc}") from None
    return target


def _cmd_figures(args: argparse.Namespace) -> int:
    unknown = [f for f in args.only or () if f not in figures.REGISTRY]
    if unknown:
        raise OptionError("--only", f"unknown figure {unknown[0]!r}; choose from {', '.join(sorted(figures.REGISTRY))}")
    _writable_dir("--out", args.out)
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


def _cmd_check(args: argparse.Namespace) -> int:
    ids = args.only or list(audit.CHECKS)
    unknown = [cid for cid in ids if cid not in audit.CHECKS]
    if unknown:
        raise OptionError("--only", f"unknown check {unknown[0]!r}; choose from {', '.join(audit.CHECKS)}")
    report = _writable_file("--report", args.report) if args.report else None
    results, errors = [], 0
    print(f"  {'check':32s} {'status':13s} {'method':34s} claim")
    for cid in ids:
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
    if report is not None:
        report.write_text(audit.report(results))
        print(f"report written to {args.report}")
    return 1 if errors else 0


def _cmd_kent(args: argparse.Namespace) -> int:
    kw = {"d": args.d, "s": args.s, "beta": args.beta, "ball": args.ball}
    r = kent.rate(args.problem, n=args.n, T=args.T, alpha=args.alpha, **kw)
    pt = kent.phase_transition(args.problem, n=args.n, alpha=args.alpha, **kw)
    if args.json:
        return _print_json("kent", {"problem": args.problem, "n": args.n, "T": args.T, "alpha": args.alpha, **kw},
                           rate=r, phase_transition=pt)
    print(f"Kent, Berrett & Yu — user-level LDP rates ({KENT.cite()}, Theorems 6, 8, 9)")
    print(f"  problem       {args.problem}" + (f", d = {args.d}, ball = {args.ball}" if args.d > 1 else "")
          + (f", s = {args.s}" if args.s else "") + (f", beta = {args.beta:g}" if args.beta else ""))
    print(f"  n, T, alpha   {args.n}, {args.T}, {args.alpha:g}   (n alpha^2 = {r.n * r.alpha * r.alpha:g})")
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


def _cmd_cummings(args: argparse.Namespace) -> int:
    try:
        k = [int(v) for v in args.k.split(",")]
    except ValueError:
        raise OptionError("--k", f"must be comma-separated positive integers, got {args.k!r}") from None
    s2 = cummings.user_variance(k, p=args.p, sigma_p2=args.sigma_p2)
    if not np.all(s2 > 0):
        raise OptionError("--p/--sigma-p2", f"p = {args.p:g} and sigma_p2 = {args.sigma_p2:g} give users of zero "
                          "variance: the weights (4) and T* (6) need p(1-p) > 0 or sigma_p2 > 0")
    widths = 2 * cummings.concentration(k, p=args.p, sigma_p2=args.sigma_p2, beta=args.beta)
    trunc = cummings.optimal_truncation(s2, widths, eps=args.eps)
    lb = cummings.lower_bound(k, eps=args.eps, sigma_p2=args.sigma_p2)
    exact = cummings.ideal_variance(s2, widths, eps=args.eps, T=trunc.T, laplace="exact")
    if args.json:
        return _print_json("cummings", {"k": k, "eps": args.eps, "p": args.p, "sigma_p2": args.sigma_p2, "beta": args.beta},
                           user_variance=s2, widths=widths, truncation=trunc, variance_exact_laplace=exact,
                           lower_bound=lb)
    print(f"Cummings, Feldman, McMillan & Talwar — heterogeneous users ({CUMMINGS.cite()})")
    print(f"  k             {', '.join(map(str, k))}   (n = {len(k)})")
    print(f"  eps, p, s_p^2 {args.eps:g}, {args.p:g}, {args.sigma_p2:g}   (widths: sub-Gaussian, beta = {args.beta:g})")
    print(f"  k*            {lb.k_star}   (Corollary 5.5)")
    print(f"  T*            {trunc.T:.10g}   (eq. (6), exact)")
    print(f"  Var(ideal)    {trunc.variance:.10g}   (eq. (5) as printed; with Var(Lap(b)) = 2b^2: {exact:.10g})")
    print(f"  lower bound   {lb.value:.10g} = min({lb.privacy_term:.6g}, {lb.statistical_term:.6g})   (Corollary 5.5, no polylog)")
    print(f"  {'k_i':>8s} {'sigma_i^2':>12s} {'weight':>10s}")
    for ki, si, wi in zip(k, s2, trunc.weights):
        print(f"  {ki:8d} {si:12.6g} {wi:10.6f}")
    return 0


_COLLECTIONS = {"geometric": 1, "extreme": 2}


def _collection(spec: str) -> np.ndarray:
    """``--collection``: ``geometric:M``, ``extreme:L,m_star`` or ``counts:m1,m2,...``, with exact arity."""
    kind, _, rest = spec.partition(":")
    params = [a.strip() for a in rest.split(",")] if rest.strip() else []
    usage = "use geometric:M, extreme:L,m_star or counts:m1,m2,..."
    if kind not in (*_COLLECTIONS, "counts"):
        raise OptionError("--collection", f"cannot read collection {spec!r}: {usage}")
    want = _COLLECTIONS.get(kind)
    if (want is not None and len(params) != want) or not params:
        raise OptionError("--collection", f"{kind} takes {want or 'at least 1'} parameter(s), got {len(params)} in {spec!r}")
    try:
        ints = [int(a) for a in params]
    except ValueError:
        raise OptionError("--collection", f"cannot read collection {spec!r}: parameters must be integers") from None
    try:
        if kind == "geometric":
            return rameshwar.geometric(ints[0])
        if kind == "extreme":
            return rameshwar.extreme(*ints)
        return np.asarray(ints, dtype=object)
    except ValueError as exc:
        raise OptionError("--collection", str(exc)) from None


def _cmd_rameshwar(args: argparse.Namespace) -> int:
    m = _collection(args.collection)
    lp = rameshwar.lp_optimum(m, U=args.U, eps=args.eps)  # first: it refuses collections too large to solve
    c = rameshwar.clipping(m, U=args.U, eps=args.eps)
    e_opt = rameshwar.optimal_error(m, U=args.U, eps=args.eps)
    eq12 = rameshwar.eq12_as_printed(m, U=args.U, eps=args.eps)
    counts = [int(v) for v in m]
    rank = math.ceil(2 / Fraction(args.eps))
    if args.json:
        return _print_json("rameshwar", {"collection": args.collection, "U": args.U, "eps": args.eps},
                           counts=counts, rank=rank, clipping=c, optimal_error=e_opt, lp_optimum=lp,
                           eq12_as_printed=eq12)
    print(f"Rameshwar & Tandon — worst-case-optimal clipping ({RAMESHWAR.cite()}, Theorem III.1, Lemma III.1)")
    print(f"  collection    {args.collection}   L = {len(counts)}, sum m = {sum(counts)}, m* = {max(counts)}")
    print(f"  U, eps        {args.U:g}, {args.eps:g}   rank ceil(2/eps) = {rank}")
    print(f"  T_eps         {c.threshold:.10g}")
    print(f"  {'m_l':>6s} {'users':>6s} {'a_l':>12s} {'b_l':>12s}")
    users = Counter(counts)
    first = {m_l: i for i, m_l in reversed(list(enumerate(counts)))}
    for m_l in sorted(users, reverse=True):
        print(f"  {m_l:6d} {users[m_l]:6d} {c.a[first[m_l]]:12.6g} {c.b[first[m_l]]:12.6g}")
    print(f"  E_OPT         {e_opt:.12g}   (Lemma III.1 at Theorem III.1)")
    print(f"  LP optimum    {lp.value:.12g}   (HiGHS, over all per-user clippings)")
    print(f"  eq. (12)      {eq12:.12g}   (as printed)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    r"""The ``bounds`` argument parser: one subcommand per calculator, plus ``advise``, ``check``, ``figures``.

    =============  ==========================================================================
    subcommand     computes (source)
    =============  ==========================================================================
    ``dame``       upper and lower bounds of Pla et al. (2024), Theorems 1–2, eqs. (10)–(12)
    ``rameshwar``  :math:`T_\varepsilon`, the clipping, :math:`E^{\mathrm{OPT}}` and the LP of
                   Rameshwar and Tandon (2025), Theorem III.1, Lemma III.1, eqs. (8), (12)
    ``kent``       the rates and :math:`T^\dagger` of Kent et al. (2024), Theorems 6, 8, 9
    ``cummings``   :math:`k^*`, :math:`T^*` and the bound of Cummings et al. (2022),
                   eqs. (5)–(6), Corollary 5.5
    ``advise``     contribution bounds and errors for a dataset's per-user counts
    ``check``      the numerical audit of the papers' lemmas and claims
    ``figures``    the papers' figures (PNG, PDF, CSV, JSON)
    =============  ==========================================================================

    Each subcommand's function is stored as ``func`` in the parsed arguments; the
    calculators take ``--json``.  :func:`main` runs it.

    Examples
    --------
    >>> args = build_parser().parse_args(["kent", "--n", "100", "--T", "10", "--alpha", "0.5"])
    >>> args.command, args.problem, args.n, args.T, args.alpha, args.json
    ('kent', 'mean', 100, 10, 0.5, False)
    """
    parser = argparse.ArgumentParser(prog="bounds", description="Reference calculator for user-level DP mean estimation.")
    parser.add_argument("--version", action="version", version=f"bounds {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    json_help = "print the result as one JSON object (the result's fields; non-finite numbers as null)"

    p = sub.add_parser("dame", help="DAME's upper and lower bounds (Theorems 1-2) for a size law")
    p.add_argument("--sizes", required=True, help="size law, e.g. poisson:5, uniform:1,9, finite:1=0.5,100=0.5")
    p.add_argument("--n", type=_integer(2), help="number of users")
    p.add_argument("--alpha", type=_positive, help="LDP level alpha")
    p.add_argument("--n-alpha2", type=_positive, help="n * alpha^2 (instead of --n and --alpha)")
    p.add_argument("--constants", default="paper", choices=["paper", "unit"])
    p.add_argument("--precision", type=_integer(1), default=None,
                   help=f"mpmath digits, at most {MAX_PRECISION} (default: float64)")
    p.add_argument("--json", action="store_true", help=json_help)
    p.set_defaults(func=_cmd_dame)

    p = sub.add_parser("rameshwar", help="Rameshwar-Tandon: T_eps, the optimal clipping, E_OPT and the LP")
    p.add_argument("--collection", required=True, help="geometric:M, extreme:L,m_star or counts:m1,m2,...")
    p.add_argument("--U", type=_positive, default=65.0, help="samples lie in (0, U] (default 65)")
    p.add_argument("--eps", type=_positive, required=True, help="privacy level epsilon")
    p.add_argument("--json", action="store_true", help=json_help)
    p.set_defaults(func=_cmd_rameshwar)

    p = sub.add_parser("kent", help="Kent, Berrett & Yu: rates, regime and phase transition T_dagger")
    p.add_argument("--problem", default="mean", choices=["mean", "sparse", "density"])
    p.add_argument("--n", type=_integer(1), required=True, help="number of users")
    p.add_argument("--T", type=_integer(1), required=True, help="samples per user")
    p.add_argument("--alpha", type=_positive, required=True, help="LDP level alpha")
    p.add_argument("--d", type=_integer(1), default=1, help="dimension (mean, sparse)")
    p.add_argument("--s", type=_integer(1), default=None, help="sparsity (sparse)")
    p.add_argument("--beta", type=_positive, default=None, help="Sobolev smoothness (density)")
    p.add_argument("--ball", default="linf", choices=["linf", "l2"], help="the mean's ball for d > 1")
    p.add_argument("--json", action="store_true", help=json_help)
    p.set_defaults(func=_cmd_kent)

    p = sub.add_parser("cummings", help="Cummings et al.: k*, the optimal truncation T* and Corollary 5.5")
    p.add_argument("--k", required=True, help="samples per user, e.g. 100,50,20,5,1")
    p.add_argument("--eps", type=_positive, required=True, help="privacy level epsilon")
    p.add_argument("--p", type=_number, default=0.5, help="mean of the meta-distribution (default 0.5)")
    p.add_argument("--sigma-p2", type=_number, default=0.01, help="its variance sigma_p^2 (default 0.01)")
    p.add_argument("--beta", type=_positive, default=0.05, help="failure probability of the widths (default 0.05)")
    p.add_argument("--json", action="store_true", help=json_help)
    p.set_defaults(func=_cmd_cummings)

    p = sub.add_parser("advise", help="per-user counts of a dataset: contribution bounds, error bounds, simulations")
    advise.configure_parser(p)

    p = sub.add_parser("check", help="audit the papers' lemmas, constants and claims numerically")
    p.add_argument("--only", nargs="+", metavar="ID", help="checks to run (default: all)")
    p.add_argument("--report", metavar="FILE.md", help="write a Markdown report with each check's evidence")
    p.set_defaults(func=_cmd_check)

    p = sub.add_parser("figures", help="regenerate the papers' figures (PNG, PDF, CSV, JSON)")
    p.add_argument("--only", nargs="+", metavar="ID", help=f"figures to make: {', '.join(sorted(figures.REGISTRY))}")
    p.add_argument("--quick", action="store_true", help="small grids and replications (for CI)")
    p.add_argument("--out", default="figures", help="output folder (default: figures)")
    p.add_argument("--jobs", type=_integer(1), default=min(os.cpu_count() or 1, 4),
                   help="processes for the Monte Carlo, at least 1 (default: the cores, up to 4; results do not depend on it)")
    p.add_argument("--constants", default="unit", choices=["paper", "unit"],
                   help="DAME constants for Figure 1a (default unit: the paper's parallel lines)")
    p.set_defaults(func=_cmd_figures)
    return parser


# A library message starts with the parameter's name; this maps it to the option that set it.
_OPTION_OF = {
    "n": "--n", "alpha": "--alpha", "n_alpha2": "--n-alpha2", "precision": "--precision", "constants": "--constants",
    "sizes": "--sizes", "eps": "--eps", "U": "--U", "p": "--p", "sigma_p2": "--sigma-p2", "beta": "--beta",
    "d": "--d", "s": "--s", "T": "--T", "ball": "--ball", "problem": "--problem", "sample counts k": "--k",
    "contribution counts m": "--collection", "n·alpha²": "--n/--alpha", "n·T·alpha²": "--n/--T/--alpha",
    "the sparse problem": "--s", "the density problem": "--beta", "the linear programme": "--collection",
}


def _option(message: str) -> str | None:
    keys = [k for k in _OPTION_OF if message.startswith(k + " ") or message.startswith(k + ":")]
    return _OPTION_OF[max(keys, key=len)] if keys else None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``bounds`` console script; returns the exit status.

    Any failure of a subcommand prints one line on stderr — ``bounds <command>: error:
    <option>: <message>`` — and returns 2.

    Examples
    --------
    >>> main(["rameshwar", "--collection", "counts:1,4", "--U", "10", "--eps", "1", "--json"])  # doctest: +ELLIPSIS
    {"command": "rameshwar", ..."optimal_error": 5.0, ...}
    0
    """
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except OptionError as exc:
        message = f"{exc.option}: {exc}"
    except ValueError as exc:
        option = _option(str(exc))
        message = f"{option}: {exc}" if option else str(exc)
    except OSError as exc:
        message = f"cannot write: {exc}"
    except Exception as exc:  # never a traceback: one line, the failure's type and message
        message = f"{type(exc).__name__}: {exc}"
    print(f"bounds {args.command}: error: {' '.join(message.split())}", file=sys.stderr)
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
