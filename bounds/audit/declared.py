r"""What each audit check declares beside its function: the domain of its claim, its method classes and
the planted faults it must catch.

``DOMAIN`` says where a check's claim is established, in the papers' variables: "proved on …" for a
proof over a whole domain (ball arithmetic over boxes, or sympy), "instances: …" for a finite set of
cases (exact, exhaustive or Monte Carlo).  ``FAULTS`` lists, per check, faults of the paper's statement
(a constant 1% smaller, a dropped factor, a shifted index, …) as keywords of the check; under each the
check must not report ``holds`` (``tests/test_audit_faults.py``), so that no check is unable to fail.
Newer checks declare all of this, and their ``repairs`` (the corrected statement under which a check that
refutes a paper must hold), in their own ``register`` call; every check declares a fault or a repair.

Examples
--------
>>> from bounds.audit import CHECKS
>>> CHECKS["dame.lemma_s6"].faults[0][0]
'constant 579 one per cent smaller (573)'
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import sympy as sp

from .. import rameshwar
from . import rameshwar as _rt_checks
from .core import CHECKS

__all__ = ["DOMAIN", "METHOD_CLASSES", "FAULTS", "declare"]

_E, _BP, _SY, _EX, _LP, _MC = "exact", "ball-proof", "sympy", "exhaustive", "LP certificate", "Monte Carlo"

DOMAIN: dict[str, str] = {
    "cummings.lemma_2_1": "proved on p in (0, 1), sigma_p^2 > 0, k >= 1 (symbolic identity)",
    "dame.lemma_s2": "proved on delta in (0, 1/2]",
    "dame.lemma_s6": "proved on alpha in (0, 1]",
    "dame.tau_condition": "proved on m~ >= 1, n alpha^2 > 0 (symbolic)",
    "dame.constants": "proved (symbolic arithmetic of the constants)",
    "dame.lemma_s3": "proved on a three-point law (symbolic); instances: 50 random rational laws",
    "dame.eq11_denominator": "instances: Poisson(2, 20, 200) at n alpha^2 = 500 (unit-constant m~)",
    "dame.enlarged_interval": "instances: m~ = 1e4, n alpha^2 = 1e6, alpha = 1/2 (the widths scale with tau)",
    "dame.figure_constants": "instances: Poisson(1, 10, 100, 1000) at n alpha^2 = 500",
    "dame.asymptotics": "instances: 4 laws x n alpha^2 in {1e6, .., 1e14} (fitted log exponent, tolerance 0.5); "
                        "Corollary 3 on 12 points",
    "dame.lemma_s1": "instances: point laws m = 1..24 x delta = k/64, k = 1..32",
    "dame.s22_privacy_constant": "proved on alpha in (0, 22/35]",
    "dame.lemma_s5_exponent": "proved on alpha in [1/1000, 1] (and refuted there for 579)",
    "dame.lemma_s7": "proved on m~ n alpha^2 > 0 (symbolic, both cases of the max)",
    "dame.lemma_s8": "proved on m~ n alpha^2 > 0 (symbolic, both cases of the max)",
    "dame.lemma_s9": "proved on a / m~ in (0, 1], L > 0 (symbolic)",
    "dame.s135_algebra": "proved on E, m~, n alpha^2 > 0 (symbolic)",
    "dame.lemma_s11": "instances: tau = 1/10, alpha = 1/2 (the excess is tau^2 for every tau, alpha)",
    "dame.quoted_inequalities": "instances: i, m = 1..40; tau = k/8; delta = k/16",
    "kent.lemma16": "instances: (k, bins) in {(1, 4), (2, 5), (3, 6), (3, 8)} x alpha in {0.2, 22/35, 1}",
    "kent.rates_consistent": "instances: 5 problems x n in {1e2, 1e4, 1e6} x T in {1, 10, 1e3, 1e6} x alpha in "
                             "{0.1, 0.5}",
    "kent.procedure_vote": "instances: bins N in {6, 9} x alpha in {0.1, 22/35, 1}; proved: the radius identity",
    "rameshwar.theorem_ii_1": "proved for every y (symbolic, three pieces)",
}

METHOD_CLASSES: dict[str, tuple[str, ...]] = {
    "cummings.lemma_2_1": (_SY,),
    "cummings.example1_scalings": (_E,), "cummings.lemma_5_2_weights": (_E,),
    "dame.lemma_s2": (_BP,), "dame.lemma_s6": (_BP, _SY), "dame.tau_condition": (_SY,), "dame.constants": (_SY,),
    "dame.lemma_s3": (_SY, _E), "dame.ub_ge_lb": (_EX, _BP), "dame.eq11_denominator": (_E,),
    "dame.mtilde_definition": (_EX,), "dame.enlarged_interval": (_E,), "dame.figure_constants": (_E,),
    "dame.fig1b_adaptation": (_E, _MC), "dame.asymptotics": (_E,),
    "dame.lemma_s1": (_E,), "dame.s22_privacy_constant": (_BP,), "dame.theorem1_chain": (_E, _SY),
    "dame.lemma_s5_exponent": (_BP,), "dame.lemma_s6_derivative": (_SY,), "dame.lemma_s7": (_SY,),
    "dame.lemma_s8": (_SY,), "dame.lemma_s9": (_SY,), "dame.s135_algebra": (_SY,), "dame.lemma_s11": (_E,),
    "dame.s146_exp_step": (_SY, _E), "dame.theorem2_corrected": (_EX,),
    "dame.quoted_inequalities": (_E, _EX), "kent.lower_bound_quote": (_E,), "kent.lemma16": (_EX,),
    "kent.rates_consistent": (_EX,), "kent.procedure_vote": (_EX, _SY),
    "rameshwar.monotone_eopt": (_E,), "rameshwar.akmv_rank": (_E, _MC),
    "rameshwar.lemma_iii_1_bias": (_E, _EX), "rameshwar.theorem_ii_1": (_SY, _E),
}


def _error_at_rank(m, U, eps, shift: int) -> float:
    r"""The worst-case error (7) at :math:`S = T`, :math:`\alpha_\ell = \max\{(Um_\ell - T)/2, 0\}`, with T the
    (⌈2/ε⌉ + shift)-th largest :math:`Um_\ell` (0 past the end): Rameshwar and Tandon (2025), eq. (7), transcribed
    here independently of :mod:`bounds.rameshwar`."""
    import math

    e = Fraction(eps)
    um = sorted((Fraction(U) * int(v) for v in m), reverse=True)
    rank = math.ceil(2 / e) + shift
    T = um[rank - 1] if rank <= len(um) else Fraction(0)
    total = sum(max((u - T) / 2, Fraction(0)) for u in um) + min(T, um[0]) / e
    return float(total / sum(int(v) for v in m))


def _preset(**change):
    from .. import dame

    c = dame.Constants.paper()
    v = {k: change.get(k, getattr(c, k)) for k in ("c1", "c2", "c3", "c4", "c5")}
    return dame.Constants(v["c1"], v["c2"], v["c3"], v["c4"], v["c5"], name="faulted")


def _scaled_rate(problem, **kw):
    from .. import kent

    r = kent.rate(problem, **kw)
    return dataclasses.replace(r, lower=r.lower * 1e6)


_p, _s2, _k = sp.symbols("p sigma_p2 k", positive=True)
_EXAMPLE1 = {
    "nonprivate_sd": (lambda n: 1 / np.sqrt(n), "theta"),  # the claim's log factor dropped
    "naive_privacy_error": (lambda n: 1 / np.log(n), "big-o"),
    "truncation_privacy_error": (lambda n: 1 / np.sqrt(n * np.log(n)), "theta"),
    "uniform_sd": (lambda n: 1 / np.sqrt(n), "omega"),
}

FAULTS: dict[str, tuple[tuple[str, dict], ...]] = {
    "cummings.lemma_2_1": (("the factor (1 - 1/k) of sigma_p^2 dropped", {"formula": (_p - _p**2) / _k + _s2}),),
    "cummings.example1_scalings": (("the non-private s.d. claimed 1/sqrt(n) (its log factor dropped)",
                                    {"claims": _EXAMPLE1}),),
    "cummings.lemma_5_2_weights": (("weights 1/sigma_i^4 instead of 1/sigma_i^2",
                                    {"weights": lambda s2: [Fraction(1) / (v * v) for v in s2]}),),
    "dame.lemma_s2": (("constant 3 replaced by 2 (a dropped 3/2 factor)", {"constant": 2}),),
    "dame.lemma_s6": (("constant 579 one per cent smaller (573)", {"constant": 573}),),
    "dame.tau_condition": (("ln 8 of eq. (4) replaced by ln 2", {"log_factor": sp.log(2)}),),
    "dame.constants": (("c3 = 1570 one smaller (1569)", {"preset": _preset(c3=1569)}),
                       ("c2 = 24 one per cent smaller (23.76)", {"preset": _preset(c2=Fraction(2376, 100))})),
    "dame.asymptotics": (("eq. (14) without its log factor", {"log_power": 0}),),
    "dame.lemma_s3": (("the debiasing correction dropped", {"correction": lambda pts, masses, mt: 0}),),
    "dame.s22_privacy_constant": (("H3's range extended to alpha <= 11/10 (past the root 1.03)",
                                   {"alpha_max": Fraction(11, 10)}),),
    "dame.lemma_s5_exponent": (("divisor 579 one per cent smaller (573)", {"divisor": 573}),),
    "dame.lemma_s7": (("constant 4 replaced by 8", {"constant": 8}),),
    "dame.lemma_s8": (("constant 2 one step larger (3)", {"constant": 3}),),
    "dame.lemma_s9": (("the bound 6 tau shifted to 5 tau", {"bound": 5}),),
    "dame.lemma_s11": (("the Laplace variance 2 replaced by 3", {"laplace_variance": 3}),),
    "dame.quoted_inequalities": (("Hoeffding's factor 2 replaced by 1", {"factor": 1, "max_i": 8}),),
    "kent.procedure_vote": (("flip probability 1/(1 + e^{alpha/3}) (the 6 halved)", {"divisor": 3}),),
    "kent.rates_consistent": (("the lower rate's constant a million times larger",
                               {"rate": lambda *a, **k: _scaled_rate(*a, **k)}),),
    "rameshwar.theorem_ii_1": (("Laplace scale Delta/(2 eps) instead of Delta/eps", {"noise_factor": 2}),),
    "kent.lemma16": (("keep probability e^{alpha/k}/(1 + e^{alpha/k}) (the 2 of 2k dropped)",
                      {"keep": lambda a, k: float(np.exp(a / k) / (1 + np.exp(a / k)))}),),
    "rameshwar.theorem_iii_1": (("the threshold rank ceil(2/eps) shifted by one (ceil(2/eps) + 1)",
                                 {"rule": lambda m, U, eps: _error_at_rank(m, U, eps, 1)}),),
    "rameshwar.kkt_multipliers": (("T_eps taken at rank ceil(2/eps) + 1 (a shifted index)",
                                   {"multiplier_rule": lambda um, eps: _rt_checks.kkt_quantities(um, eps, 1)}),),
    "rameshwar.monotone_eopt": (("E_OPT multiplied by eps^2 (increasing in eps)",
                                 {"error": lambda m, U, e: e * e * rameshwar.optimal_error(m, U=U, eps=e, exact=True)}),),
}



def declare() -> None:
    """Attach :data:`DOMAIN`, :data:`METHOD_CLASSES` and :data:`FAULTS` to the registered checks (a check
    registered with its own declaration keeps it)."""
    for cid, c in list(CHECKS.items()):
        CHECKS[cid] = dataclasses.replace(
            c, domain=c.domain or DOMAIN.get(cid, ""), methods=c.methods or METHOD_CLASSES.get(cid, ()),
            faults=c.faults or FAULTS.get(cid, ()))
