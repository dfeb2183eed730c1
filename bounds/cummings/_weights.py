r"""Cummings et al. (2022): Lemma 2.1, the weights (1) and (4), the ideal variance (5) and the optimal truncation :math:`T^*` (6)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

if TYPE_CHECKING:
    import sympy as sp

from ..numerics import check_array, check_choice, check_counts, check_integer, check_positive, check_real

_LAPLACE = {"printed": 1.0, "exact": 2.0}  # Var(Lap(b)) / b^2 as eq. (5) prints it, and as it is
_MAX_USERS = 4 * 10**6  # users of one call (per-user arrays; ideal_plan peaks near 260 bytes a user: 1 GB here)
# Algorithm 2's error tolerance α of the initial estimates: p lies in [0, 1], so any α above 1 gives
# the same (vacuous) intervals; 1e6 keeps the widths and the Λ of step 14 far from float64 overflow.
_MAX_TOLERANCE = 1e6


# =========================================================================== inputs


def _k(k: ArrayLike) -> np.ndarray:
    return check_counts("sample counts k", k, max_size=_MAX_USERS)


def _p(p: float, name: str = "p") -> float:
    return check_real(name, p, low=0, high=1)


def _sigma_p2(sigma_p2: float, p: float, name: str = "sigma_p2") -> float:
    s2 = check_real(name, sigma_p2, low=0)
    if s2 > p * (1 - p) * (1 + 1e-12):
        raise ValueError(f"{name} = {sigma_p2!r} > p(1-p) = {p * (1 - p)!r}: no law on [0, 1] has it (Lemma 2.1)")
    return s2


_SIGMA2_RANGE = (1e-60, 1e60)  # 1/σ⁴ · width² stays finite in float64 (the max term of eq. (5))


def _positive_array(name: str, v: ArrayLike) -> np.ndarray:
    arr = check_array(name, v, low=0, low_open=True, max_size=_MAX_USERS)
    lo, hi = _SIGMA2_RANGE
    if np.any(arr < lo) or np.any(arr > hi):
        raise ValueError(f"{name} must hold variances in [{lo:g}, {hi:g}] (float64 range of eqs. (4)-(6)), got {v!r}")
    return arr


def _over_eps2(x: float, eps: float) -> float:
    """``x / ε²`` without ``eps**2`` overflowing (it gives ``inf`` or ``0`` as the quotient does)."""
    return x / eps / eps


# =========================================================================== Lemma 2.1, weights


def user_variance(k: ArrayLike, *, p: float, sigma_p2: float) -> np.ndarray:
    r"""Lemma 2.1: the variance :math:`\sigma_i^2` of a user's mean of :math:`k_i` samples.

    .. math:: \sigma_i^2 = \mathrm{Var}(\mathcal D(k_i)) = \frac{p(1-p)}{k_i} + \Big(1 - \frac{1}{k_i}\Big)\sigma_p^2,
              \qquad \sigma_p^2 \le p(1-p)

    (law of total variance over :math:`p_i \sim \mathcal D`; see :func:`user_variance_symbolic`).
    ``sigma_p2 > p(1-p)`` is rejected.

    Source: Cummings et al. (2022), Lemma 2.1 and eq. (2).

    Examples
    --------
    >>> user_variance([1, 4], p=0.5, sigma_p2=0.05).tolist()
    [0.25, 0.1]
    """
    kk = _k(k).astype(float)
    p = _p(p)
    s2 = _sigma_p2(sigma_p2, p)
    return p * (1 - p) / kk + (1 - 1 / kk) * s2


def user_variance_symbolic() -> sp.Expr:
    r"""Lemma 2.1 derived in sympy from the two-stage model by the law of total variance.

    .. math:: \mathrm{Var}(\hat p_i) = E[\mathrm{Var}(\hat p_i \mid p_i)] + \mathrm{Var}(E[\hat p_i \mid p_i])
              = E\Big[\frac{p_i(1-p_i)}{k}\Big] + \sigma_p^2,\quad E[p_i^2] = \sigma_p^2 + p^2

    Source: Cummings et al. (2022), Lemma 2.1.

    Examples
    --------
    >>> user_variance_symbolic()
    sigma_p2 + (-p**2 + p - sigma_p2)/k
    """
    import sympy as sp  # here, not at the top: the numeric functions (and `bounds cummings`) do not need it

    p, s2, k = sp.symbols("p sigma_p2 k", positive=True)
    second_moment = s2 + p**2  # E[p_i^2]
    within = (p - second_moment) / k  # E[p_i (1 - p_i)] / k: binomial variance, averaged
    between = s2  # Var(E[p̂_i | p_i]) = Var(p_i)
    return sp.expand(within + between).collect(1 / k)


def nonprivate_weights(sigma2: ArrayLike) -> np.ndarray:
    r"""Inverse-variance weights, optimal without privacy (eq. (1)).

    .. math:: w_i = \frac{1/\sigma_i^2}{\sum_j 1/\sigma_j^2}

    Source: Cummings et al. (2022), eq. (1).

    Examples
    --------
    >>> nonprivate_weights([1.0, 0.25]).tolist()
    [0.2, 0.8]
    """
    u2 = 1 / _positive_array("sigma2", sigma2)
    return u2 / math.fsum(u2)


def private_weights(sigma2: ArrayLike, T: float) -> np.ndarray:
    r"""The private ideal estimator's truncated weights (eq. (4)).

    .. math:: w_i = \frac{\min\{1/\sigma_i^2, T/\sigma_i\}}{\sum_j \min\{1/\sigma_j^2, T/\sigma_j\}}

    Source: Cummings et al. (2022), eq. (4).

    Examples
    --------
    >>> private_weights([1.0, 0.25], T=1.0).tolist()  # min(1, 1), min(4, 2)
    [0.3333333333333333, 0.6666666666666666]
    """
    s2 = _positive_array("sigma2", sigma2)
    T = check_positive("T", T, allow_inf=True)
    u = 1 / np.sqrt(s2)
    raw = u * np.minimum(u, T)
    return raw / math.fsum(raw)


def concentration(k: ArrayLike, *, p: float, sigma_p2: float, n: int | None = None, beta: float = 0.05) -> np.ndarray:
    r"""Default concentration width :math:`f^{k_i}_{\mathcal D}(n, \sigma_p^2, \beta)` (sub-Gaussian, union bound).

    The paper leaves :math:`f` as a parameter (its Appendix G is not in the source).
    This default assumes :math:`\hat p_i - p` sub-Gaussian with variance proxy
    :math:`\sigma_i^2` and takes a union bound over the ``n`` users, so that
    :math:`P(\forall i: |\hat p_i - p| \le f_i) \ge 1 - \beta`:

    .. math:: f_i = \sigma_i \sqrt{2 \log(2n/\beta)}

    It scales as :math:`\sqrt{\log n / k_i}` when :math:`\sigma_p^2` is small, as in Example 1.

    Source: Cummings et al. (2022), §4.1 (definition of :math:`f`) and Example 1.

    Examples
    --------
    >>> round(float(concentration([4], p=0.5, sigma_p2=0.0, n=1, beta=2 / math.e**2)[0]), 12)  # 0.25·√(2·2)
    0.5
    """
    kk = _k(k)
    n = kk.size if n is None else check_integer("n", n, minimum=1)
    beta = check_real("beta", beta, low=0, high=1, low_open=True, high_open=True)
    return np.sqrt(user_variance(kk, p=p, sigma_p2=sigma_p2) * 2 * (math.log(2) + math.log(n) - math.log(beta)))


def ideal_variance(sigma2: ArrayLike, widths: ArrayLike, *, eps: float, T: float, laplace: str = "printed") -> float:
    r"""Variance of the private ideal estimator (eq. (5)), with :math:`\mathrm{Var}([\hat p_i]) \approx \sigma_i^2`.

    .. math:: \mathrm{Var}(\hat p^{ideal}_\epsilon) = \sum_i w_i^2 \sigma_i^2
              + \kappa\,\max_i \frac{w_i^2 |b_i - a_i|^2}{\epsilon^2},\qquad w = w(T) \text{ of eq. (4)}

    ``laplace="printed"``: :math:`\kappa = 1`, eq. (5) as printed; ``"exact"``:
    :math:`\kappa = 2`, since :math:`\mathrm{Var}(\mathrm{Lap}(b)) = 2b^2`.

    Source: Cummings et al. (2022), eq. (5); the factor 2 is discussed in ``docs/choices.md`` §3.

    Examples
    --------
    >>> ideal_variance([1.0, 1.0], [1.0, 1.0], eps=1.0, T=math.inf)  # 2·(1/4) + 1/4
    0.75
    >>> ideal_variance([1.0, 1.0], [1.0, 1.0], eps=1.0, T=math.inf, laplace="exact")
    1.0
    """
    s2, c = _variances_and_widths(sigma2, widths)
    eps = check_positive("eps", eps)
    kappa = _kappa(laplace)
    w = private_weights(s2, T)
    return float(math.fsum(w * w * s2) + _over_eps2(kappa * float(np.max(w * w * c * c)), eps))


def _variances_and_widths(sigma2: ArrayLike, widths: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    s2 = _positive_array("sigma2", sigma2)
    c = check_array("widths", widths, low=0)
    if c.shape != s2.shape:
        raise ValueError(f"widths must hold one width per user ({s2.size}), got {c.size}")
    if np.any(c > 1e60):
        raise ValueError(f"widths must be at most 1e60 (float64 range of eq. (5)), got {widths!r}")
    return s2, c


def _kappa(laplace: str) -> float:
    return _LAPLACE[check_choice("laplace", laplace, tuple(_LAPLACE))]


# =========================================================================== T* (eq. 6)


@dataclass(frozen=True)
class Truncation:
    """The optimal truncation ``T`` of eq. (6), the minimal ``variance`` and the ``weights`` there."""

    T: float
    variance: float
    weights: np.ndarray
    laplace: str


def optimal_truncation(sigma2: ArrayLike, widths: ArrayLike, *, eps: float, laplace: str = "printed",
                       counts: ArrayLike | None = None) -> Truncation:
    r"""The exact minimiser :math:`T^*` of eq. (6), in :math:`O(G \log G)` for ``G`` distinct users.

    .. math::

        T^* = \arg\min_T \frac{\sum_i \min\{1/\sigma_i^2, T^2\}
              + \kappa \max_i \min\{1/\sigma_i^4, T^2/\sigma_i^2\}\,|b_i - a_i|^2/\epsilon^2}
              {\big(\sum_j \min\{1/\sigma_j^2, T/\sigma_j\}\big)^2}

    With :math:`u_i = 1/\sigma_i` sorted, on each piece :math:`u_{(k)} \le T \le u_{(k+1)}` the
    objective is :math:`(qT^2 + r)/(sT + t)^2` with :math:`s = \sum_{u_i > T} u_i`,
    :math:`t = \sum_{u_i \le T} u_i^2`, and the max-term splitting the piece at most once more,
    at :math:`T = \sqrt{\beta/\alpha}` (:math:`\alpha = \max_{u_i > T} u_i^2 c_i^2`,
    :math:`\beta = \max_{u_i \le T} u_i^4 c_i^2`).  Its derivative has the sign of
    :math:`qtT - sr`, so each sub-piece has one stationary point :math:`T_0 = sr/(qt)` (a
    minimum).  The minimum is taken over the breakpoints and these points, all pieces
    evaluated at once from prefix/suffix sums and maxima.  ``T`` is the smallest
    candidate attaining the minimum: on :math:`(0, \min_i u_i]` the objective is constant
    (weights :math:`\propto u_i`), so :math:`\min_i u_i` stands for that range; from
    :math:`\max_i u_i` on it is the untruncated value.  ``laplace`` as in
    :func:`ideal_variance` (the paper's eq. (6) is ``"printed"``).

    ``counts`` (optional, positive integers) says how many users share each
    ``(sigma2, width)`` entry: the sums above carry them as multiplicities, the maxima do not,
    and ``weights`` are then the weight of *one* user of each entry (they sum to 1 with the
    counts).  Example 1's :math:`n` users have only :math:`O(\sqrt n)` distinct entries.

    Source: Cummings et al. (2022), eq. (6); the denominator uses :math:`T/\sigma_j`
    (eq. (6) prints :math:`T/\sigma_i`).

    Examples
    --------
    >>> s2 = np.array([0.0004, 0.01, 0.04, 0.25])  # u = 50, 10, 5, 2
    >>> t = optimal_truncation(s2, 4 * np.sqrt(s2), eps=1.0)
    >>> round(t.T, 10), round(t.variance, 10)  # an interior stationary point: 65/19
    (3.4210526316, 0.0044175773)
    >>> g = optimal_truncation(s2[[0, 3]], 4 * np.sqrt(s2[[0, 3]]), eps=1.0, counts=[1, 3])
    >>> u = optimal_truncation(s2[[0, 3, 3, 3]], 4 * np.sqrt(s2[[0, 3, 3, 3]]), eps=1.0)
    >>> g.T == u.T and math.isclose(g.variance, u.variance) and np.allclose(g.weights, u.weights[:2])
    True
    """
    s2, c = _variances_and_widths(sigma2, widths)
    mult = np.ones(s2.size) if counts is None else _k(counts).astype(float)
    if mult.shape != s2.shape:
        raise ValueError(f"counts must give one multiplicity per entry: {mult.size} counts for {s2.size} entries")
    eps = check_positive("eps", eps)
    lam = _over_eps2(_kappa(laplace), eps)
    if math.isinf(lam):
        raise ValueError(f"eps = {eps!r} is too small: kappa/eps^2 of eq. (6) overflows float64")
    order = np.argsort(1 / np.sqrt(s2), kind="stable")
    u, cc, w_n = (1 / np.sqrt(s2))[order], c[order], mult[order]
    # piece j (j = 0..G): T in [u_(j), u_(j+1)] with u_(0) = 0, u_(G+1) = inf; entries j..G-1 truncated
    u2 = u * u
    t_pre = np.concatenate([[0.0], np.cumsum(w_n * u2)])  # Σ_{i<j} u_i^2
    s_suf = np.concatenate([np.cumsum((w_n * u)[::-1])[::-1], [0.0]])  # Σ_{i>=j} u_i
    n_suf = np.concatenate([np.cumsum(w_n[::-1])[::-1], [0.0]])  # users truncated
    amax_suf = np.concatenate([np.maximum.accumulate((u2 * cc * cc)[::-1])[::-1], [0.0]])
    bmax_pre = np.concatenate([[0.0], np.maximum.accumulate(u2 * u2 * cc * cc)])
    # the privacy term λ·max(α T², β) must stay finite for every T up to max u (else eq. (6) overflows float64)
    if not math.isfinite(lam * max(float(bmax_pre[-1]), float(amax_suf[0]) * float(u[-1]) ** 2)):
        raise ValueError(f"eps = {eps!r} is too small: the privacy term of eq. (6) overflows float64")
    lo = np.concatenate([[0.0], u])
    hi = np.concatenate([u, [np.inf]])
    j_all = np.arange(lo.size)
    # a stationary point past the float64 range is inf or nan here and lies in no piece (the tests below drop it)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        split = np.where(amax_suf > 0, np.sqrt(bmax_pre / amax_suf), np.inf)
        # stationary points T0 = s r / (q t) of the two branches of the max: P = β, P = αT²
        t0 = [s_suf * (t_pre + lam * bmax_pre) / (n_suf * t_pre),
              s_suf * t_pre / ((n_suf + lam * amax_suf) * t_pre)]
    parts_T, parts_j = [lo[1:]], [j_all[1:]]  # the breakpoints (the objective is continuous there)
    for pts in (split, *t0):
        inside = (lo < pts) & (pts < hi) & (t_pre > 0)
        parts_T.append(pts[inside])
        parts_j.append(j_all[inside])
    cand_T, cand_j = np.concatenate(parts_T), np.concatenate(parts_j)
    num = n_suf[cand_j] * cand_T**2 + t_pre[cand_j] + lam * np.maximum(amax_suf[cand_j] * cand_T**2, bmax_pre[cand_j])
    den = (s_suf[cand_j] * cand_T + t_pre[cand_j]) ** 2
    vals = num / den
    best = float(vals.min())
    T_star = float(cand_T[vals <= best * (1 + 1e-13)].min())
    raw = np.sqrt(1 / s2) * np.minimum(np.sqrt(1 / s2), T_star)
    return Truncation(T_star, best, raw / math.fsum(mult * raw), laplace)
