r"""Each paper's bound or closed form beside its estimator's simulated risk: DAME, Duchi, Cummings, Rameshwar."""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .. import cummings, dame, rameshwar
from ..estimators import duchi
from ..mechanisms import SeedLike
from ..numerics import check_choice, check_integer, check_real
from ..simulate import cummings_risk, rameshwar_errors, risk
from ..sizes import SizeLaw, point
from ._kent import _sequence


@dataclass(frozen=True)
class Check:
    """A simulated quantity beside its theoretical counterpart: ``simulated ± stderr`` vs ``theory``."""

    name: str
    simulated: float
    stderr: float
    theory: dict
    holds: bool


def check_dame(sizes: SizeLaw, *, n: int, alpha: float, thetas: Sequence[float] = (-0.9, -0.5, 0.0, 0.4, 0.8),
               reps: int, seed: SeedLike, executor: Executor | None = None) -> Check:
    r"""DAME's simulated worst-case risk (max over two-point :math:`\mu`) beside Theorems 1 and 2.

    ``holds`` is ``LB <= risk`` (within 4 standard errors) and, where the paper-constant
    upper bound is below its cap 4, ``risk <= UB``.

    .. math:: \max_{\theta \in \text{grid}} \widehat R(\theta) \quad\text{vs}\quad LB(M, n\alpha^2),\ UB(M, n\alpha^2)

    Source: Pla et al. (2024), eq. (3), Theorems 1–2.

    Examples
    --------
    >>> from bounds import sizes
    >>> c = check_dame(sizes.point(100), n=2000, alpha=0.5, thetas=(0.0, 0.5), reps=64, seed=0)
    >>> c.holds
    True
    """
    thetas = [check_real("thetas", t, low=-1, high=1) for t in _sequence("thetas", thetas)]
    if not thetas:
        raise ValueError("thetas must be a non-empty sequence of means in [-1, 1], got an empty one")
    risks = [risk("dame", theta=t, sizes=sizes, n=n, alpha=alpha, reps=reps, seed=seed, executor=executor) for t in thetas]
    worst = max(risks, key=lambda r: r.mse)
    lb = dame.lower_bound(sizes, n=n, alpha=alpha)
    ub = dame.upper_bound(sizes, n=n, alpha=alpha)
    ok = lb.value <= worst.mse + 4 * worst.stderr and (ub.capped or worst.mse - 4 * worst.stderr <= ub.value)
    return Check("dame worst-case risk", worst.mse, worst.stderr,
                 {"lower_bound": lb.value, "upper_bound": ub.value, "upper_capped": ub.capped, "theta": worst.theta,
                  "m_tilde": ub.m_tilde}, bool(ok))


def _variance_with_se(e: np.ndarray) -> tuple[float, float]:
    """Unbiased sample variance of ``e`` and its standard error (from the squared deviations)."""
    dev = (e - e.mean()) ** 2
    return float(dev.mean() * e.size / (e.size - 1)), float(dev.std(ddof=1) / math.sqrt(e.size))


def check_duchi(*, theta: float, n: int, alpha: float, reps: int, seed: SeedLike) -> Check:
    r"""Duchi's simulated variance beside its closed form.

    .. math:: \mathrm{Var}(\hat\theta) = \frac{B^2 - \theta^2}{n},\qquad B = \frac{e^\alpha + 1}{e^\alpha - 1}

    (each output is ±B with mean θ).  ``holds``: within 4 standard errors.

    Source: Duchi et al. (2018), as the baseline of Pla et al. (2024), §4.2.

    Examples
    --------
    >>> check_duchi(theta=0.3, n=500, alpha=0.5, reps=2000, seed=0).holds
    True
    """
    reps = check_integer("reps", reps, minimum=2, why="a variance and its standard error need two replications")
    r = risk("duchi", theta=theta, sizes=point(1), n=n, alpha=alpha, reps=reps, seed=seed)
    var = duchi.variance(theta, r.settings["n"], alpha=alpha)
    sim, se = _variance_with_se(r.estimates)
    return Check("duchi variance", sim, se, {"closed_form": var}, abs(sim - var) <= 4 * se)


def empirical_constant(estimator: str, *, theta: float, sizes: SizeLaw, n: int, alpha: float, reps: int, seed: SeedLike,
                       **options: Any) -> Check:
    r"""Simulated risk divided by the rate without constants, with its standard error.

    DAME: eq. (11) with :math:`c_3 = 1` and the log as :math:`\log(e \vee \sqrt{\tilde m n\alpha^2})`:
    :math:`\log(\cdot)/(n\alpha^2 E[\sqrt{m \wedge \tilde m}]^2)`.  Kent: Theorem 6's upper
    rate :math:`\log(nT^*\alpha^2)/(nT^*\alpha^2) + e^{-n\alpha^2}`.

    .. math:: \hat c = \widehat R / \text{rate}

    Source: Pla et al. (2024), eq. (11); Kent et al. (2024), Theorem 6 (eq. (24)).

    Examples
    --------
    >>> from bounds import sizes
    >>> c = empirical_constant("kent", theta=0.2, sizes=sizes.point(100), n=2000, alpha=0.5, reps=64, seed=0)
    >>> c.simulated > 0
    True
    """
    estimator = check_choice("estimator", estimator, ("dame", "kent", "duchi"))
    if estimator == "duchi":
        raise ValueError("empirical constants are defined for 'dame' and 'kent' (estimator)")
    r = risk(estimator, theta=theta, sizes=sizes, n=n, alpha=alpha, reps=reps, seed=seed, **options)
    x = r.settings["n"] * alpha * alpha
    if estimator == "dame":
        mt = r.settings["m_tilde"]
        rate = math.log(max(math.e, math.sqrt(mt * x))) / (x * float(sizes.sqrt_min_mean(mt)) ** 2)
    else:
        u = x * r.settings["kent_T"]
        rate = math.log(max(u, math.e)) / u + math.exp(-x)
    return Check(f"{estimator} empirical constant", r.mse / rate, r.stderr / rate, {"rate": rate, "risk": r.mse}, True)


def check_cummings(k: ArrayLike, *, p: float, sigma_p2: float, eps: float, reps: int, seed: SeedLike,
                   beta: float = 1e-6) -> Check:
    r"""The ideal estimator's simulated variance beside eq. (5), as printed and with :math:`\mathrm{Var}(\mathrm{Lap}(b)) = 2b^2`.

    With a small ``beta`` clipping is rare, so :math:`\mathrm{Var}([\hat p_i]) \approx \sigma_i^2`.
    ``holds``: the exact-Laplace value is within 4 standard errors.

    .. math:: \sum_i w_i^2\sigma_i^2 + \kappa\max_i \frac{w_i^2|b_i - a_i|^2}{\epsilon^2},\quad \kappa \in \{1, 2\}

    Source: Cummings et al. (2022), eq. (5).

    Examples
    --------
    >>> c = check_cummings([40, 20, 10, 5, 2, 1], p=0.5, sigma_p2=0.02, eps=0.5, reps=4000, seed=0)
    >>> c.holds
    True
    """
    check_real("p", p, low=0, high=1, low_open=True, high_open=True)
    reps = check_integer("reps", reps, minimum=2, why="a variance and its standard error need two replications")
    r = cummings_risk(k, p=p, sigma_p2=sigma_p2, eps=eps, reps=reps, seed=seed, beta=beta)
    kk = np.asarray(k)
    s2 = cummings.user_variance(kk, p=p, sigma_p2=sigma_p2)
    widths = 2 * cummings.concentration(kk, p=p, sigma_p2=sigma_p2, beta=beta)
    T = r.settings["T_star"]
    printed = cummings.ideal_variance(s2, widths, eps=eps, T=T, laplace="printed")
    exact = cummings.ideal_variance(s2, widths, eps=eps, T=T, laplace="exact")
    sim, se = _variance_with_se(r.estimates)
    return Check("cummings ideal variance", sim, se, {"eq5_printed": printed, "eq5_exact_laplace": exact},
                 abs(sim - exact) <= 4 * se)


def check_rameshwar(m: ArrayLike, *, U: float, eps: float, reps: int, seed: SeedLike) -> Check:
    r"""OPT-wc's simulated error on the all-``U`` dataset beside Lemma III.1.

    On that dataset :math:`M - f = \text{bias} + Z` with a fixed bias, so
    :math:`E|M - f| \le \text{bias} + E|Z|` = Lemma III.1's value (triangle inequality), with
    equality when the bias dominates.  ``holds``: the simulated error is at most Lemma
    III.1's value plus 4 standard errors.

    .. math:: E|f^*(\mathcal D_U) + Z - U| \le E^{OPT}(\varepsilon)

    Source: Rameshwar and Tandon (2025), Lemma III.1 and the remark after it.

    Examples
    --------
    >>> from bounds import rameshwar
    >>> check_rameshwar(rameshwar.geometric(4), U=65, eps=0.5, reps=256, seed=0).holds
    True
    """
    out = rameshwar_errors(m, U=U, eps=eps, samples="worst", reps=reps, seed=seed)
    sim, se = out["opt_wc"]
    lemma = rameshwar.optimal_error(m, U=U, eps=eps)
    return Check("rameshwar worst-case error", sim, se, {"lemma_iii_1": lemma}, sim <= lemma + 4 * se)
