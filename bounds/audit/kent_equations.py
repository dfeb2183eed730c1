r"""Audit checks of Kent, Berrett and Yu (2024), second part: the sparse and Sobolev rates (Theorems 8, 9), the
covering numbers (Lemmas 17, 18; eqs. (55)–(57), (60), (63)) and the computable proof steps ((52), (54), (70),
(73), (75), (80)) and comparison tables (Tables 2–4).

Every check compares the package's object (:mod:`bounds.kent`) with a transcription of ``docs/kent.md`` written
here, or proves a proof step in exact or ball arithmetic; the formulas' confidence tags are those of
``docs/kent.md`` (V, S, R).

Examples
--------
>>> from bounds.audit import run
>>> run(["kent.theorem9_density"])[0].status
'holds'
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import sympy as sp
from flint import arb

from .. import kent
from .boxes import prove, tightest
from .core import AuditResult, register, result

_RC = kent.RateConstants(c=0.5, C=2.0, c1=3.0, c2=0.25)  # distinct constants: a swapped constant is visible


def _Lm(u: Any) -> Any:
    """log(e ∨ u) in mpmath (the package's convention for a log factor, docs/kent.md)."""
    import mpmath as mp

    return mp.log(max(mp.mpf(u), mp.e))


def _rel(got: float, want: float) -> float:
    """Relative deviation of ``got`` from ``want`` (0 when both are 0, e.g. both underflow)."""
    return 0.0 if got == want else abs(got - want) / max(abs(want), 1e-300)


# =========================================================================== Theorem 8 (eq. (38))


def _theorem8_paper(n: int, T: int, a: float, d: int, s: int, *, combine: str = "max", log_power: int = 1,
                    factor: str = "psi") -> dict:
    r"""Theorem 8 as ``docs/kent.md`` §8 writes it [R] (mpmath, 30 digits), with the package's constants
    :math:`(c, C, c_1, c_2)`: the lower rate :math:`c\{\min(s, \frac sT\psi(\frac{d}{n\alpha^2})) \vee
    e^{-c_1n\alpha^2/s}\}` with :math:`\psi(u) = \min\{u, 1 + \log(1 \vee u)\}` (``factor="log1p"``: the printed
    :math:`\log(1 + u)`), the upper :math:`s \wedge C\min\{P_1, P_2\}`,

    .. math:: P_1 = \frac{s L(d)}{T} + \frac{s^2L(nT\alpha^2)}{nT\alpha^2} + e^{-c_2n\alpha^2/(sL(d))},\qquad
              P_2 = \frac{sd\,L(nT\alpha^2)}{nT\alpha^2} + e^{-c_2n\alpha^2/d},\qquad L(u) = \log(e \vee u)

    (``combine``, ``log_power``: faults plant "min" and 0)."""
    import mpmath as mp

    with mp.workdps(30):
        x = mp.mpf(n) * mp.mpf(a) ** 2
        xT, u = x * T, d / x
        f = min(u, 1 + mp.log(max(u, 1))) if factor == "psi" else mp.log(1 + u)
        f = f if log_power else mp.mpf(1)
        poly, expo = min(mp.mpf(s), s * f / T), mp.exp(-_RC.c1 * x / s)
        lower = _RC.c * (max(poly, expo) if combine == "max" else min(poly, expo))
        lx = _Lm(xT) ** log_power
        p1 = s * _Lm(d) / T + s * s * lx / xT + mp.exp(-_RC.c2 * x / (s * _Lm(d)))
        p2 = s * d * lx / xT + mp.exp(-_RC.c2 * x / d)
        return {"poly": float(poly), "lower": float(lower), "upper": float(min(mp.mpf(s), _RC.C * min(p1, p2)))}


@register("kent.theorem8_sparse", "Kent et al. (2024), Theorem 8, eq. (38) (docs/kent.md §8, [R])",
          "the package's sparse rates are eq. (38) as reconstructed: lower c{min(s, (s/T)ψ(d/(nα²))) ∨ e^{-c1 nα²/s}}, "
          "upper s ∧ C min(procedure 1, procedure 2); ψ within [1, e − 1] of the printed log(1 + d/(nα²))", "exact",
          domain="instances: (d, s) in {(16, 2), (1000, 3)} x n in {100, 1e4} x T in {1, 100, 1e6} x alpha in "
                 "{0.1, 0.5}, constants (c, C, c1, c2) = (0.5, 2, 3, 1/4)",
          methods=("exact",),
          faults=(("the lower bound's max of its two parts taken as a min", {"combine": "min"}),
                  ("the log factors dropped (ψ and log(nTα²) read as 1)", {"log_power": 0})))
def theorem8_sparse(combine: str = "max", log_power: int = 1) -> AuditResult:
    r"""Evaluates :func:`bounds.kent.rate` (``"sparse"``) and ``_theorem8_paper`` at every instance; holds if the
    lower and upper rates agree within a relative :math:`10^{-9}` and the package's polynomial term lies within the
    documented factor :math:`[1, e - 1]` of the printed :math:`\min\{s, \frac sT\log(1 + \frac d{n\alpha^2})\}`."""
    worst, ratio_range, rows = 0.0, [math.inf, 0.0], []
    for d, s in ((16, 2), (1000, 3)):
        for n in (100, 10**4):
            for T in (1, 100, 10**6):
                for a in (0.1, 0.5):
                    r = kent.rate("sparse", n=n, T=T, alpha=a, d=d, s=s, constants=_RC)
                    want = _theorem8_paper(n, T, a, d, s, combine=combine, log_power=log_power)
                    printed = _theorem8_paper(n, T, a, d, s, factor="log1p")["poly"]
                    dev = max(_rel(r.lower, want["lower"]), _rel(r.upper, want["upper"]))
                    ratio = r.lower_terms[0] / printed
                    ratio_range = [min(ratio_range[0], ratio), max(ratio_range[1], ratio)]
                    if dev > worst:
                        worst = dev
                        rows = [{"d": d, "s": s, "n": n, "T": T, "alpha": a, "package_lower": r.lower,
                                 "paper_lower": want["lower"], "package_upper": r.upper, "paper_upper": want["upper"],
                                 "relative_deviation": dev}]
    ok = worst <= 1e-9 and 1 - 1e-12 <= ratio_range[0] and ratio_range[1] <= math.e - 1 + 1e-12
    return result("kent.theorem8_sparse", "holds" if ok else "fails", max_relative_deviation=worst, worst_point=rows,
                  psi_over_printed_log=ratio_range, combine=combine, log_power=log_power,
                  confidence="[R] (docs/kent.md §8: low confidence on the exact form)")


# =========================================================================== Theorem 9 (Sobolev densities)


@register("kent.theorem9_density", "Kent et al. (2024), Theorem 9 and its phase transition (docs/kent.md §9)",
          "the package's density rates are Theorem 9's: c{(nTα²)^{-β/(β+1)} ∨ (nα²)^{-2β}} and "
          "C{log(nTα²)(nTα²)^{-β/(β+1)} + (nα²/log nα²)^{-2β}}; the lower rate's T† = (nα²)^{2β+1}, and the upper "
          "one's T† equalises its two terms", "exact",
          domain="instances: beta in {1/2, 1, 3} x n in {100, 1e4} x T in {1, 1e3, 1e9} x alpha in {0.2, 1}, "
                 "constants (c, C, c1, c2) = (0.5, 2, 3, 1/4)",
          methods=("exact",),
          faults=(("the lower bound's max of its two parts taken as a min", {"combine": "min"}),
                  ("the upper bound's log(nTα²) dropped", {"log_power": 0}),
                  ("T† = (nα²)^{2β} (the +1 of the exponent dropped)", {"t_dagger_shift": 0})))
def theorem9_density(combine: str = "max", log_power: int = 1, t_dagger_shift: int = 1) -> AuditResult:
    r"""Compares :func:`bounds.kent.rate` (``"density"``) with the transcription of ``docs/kent.md`` §9 (mpmath),
    :func:`bounds.kent.phase_transition` (``lower``) with :math:`(n\alpha^2)^{2\beta + 1}`, and checks that at the
    package's upper :math:`T^\dagger` the two terms of the upper rate are equal (residual evaluated here)."""
    import mpmath as mp

    worst, rows = 0.0, []
    with mp.workdps(30):
        for b in (0.5, 1.0, 3.0):
            r_ = mp.mpf(b) / (b + 1)
            for n in (100, 10**4):
                for a in (0.2, 1.0):
                    x = mp.mpf(n) * mp.mpf(a) ** 2
                    pt = kent.phase_transition("density", n=n, alpha=a, beta=b, constants=_RC)
                    devs = [abs(pt.log_lower - float((2 * b + t_dagger_shift) * mp.log(x))) / max(1.0, abs(pt.log_lower))]
                    u = x * mp.exp(pt.log_upper)  # n T† alpha^2 of the upper rate
                    first, second = _Lm(u) ** log_power * u ** (-r_), (x / _Lm(x)) ** (-2 * b)
                    devs.append(float(abs(first / second - 1)))
                    for T in (1, 10**3, 10**9):
                        xT = x * T
                        poly, expo = xT ** (-r_), x ** (-2 * b)
                        lower = _RC.c * (max(poly, expo) if combine == "max" else min(poly, expo))
                        upper = _RC.C * (_Lm(xT) ** log_power * xT ** (-r_) + (x / _Lm(x)) ** (-2 * b))
                        rr = kent.rate("density", n=n, T=T, alpha=a, beta=b, constants=_RC)
                        devs += [_rel(rr.lower, float(lower)), _rel(rr.upper, float(upper))]
                    dev = max(devs)
                    if dev > worst:
                        worst = dev
                        rows = [{"beta": b, "n": n, "alpha": a, "log_T_dagger_lower": pt.log_lower,
                                 "log_T_dagger_upper": pt.log_upper, "relative_deviation": dev}]
    return result("kent.theorem9_density", "holds" if worst <= 1e-9 else "fails", max_relative_deviation=worst,
                  worst_point=rows, combine=combine, log_power=log_power, t_dagger_shift=t_dagger_shift,
                  confidence="[S] exponents, [R] log factors (docs/kent.md §9)")
