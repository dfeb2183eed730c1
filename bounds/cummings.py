r"""Cummings, Feldman, McMillan & Talwar: heterogeneous users in the central model.

Source: Cummings et al. (2022) — *Mean Estimation with User-level Privacy
under Data Heterogeneity*: Lemma 2.1, the weights (1) and (4), the ideal
estimator's variance (5), the optimal truncation :math:`T^*` (6), Algorithm 2,
Corollary 5.5 and Example 1.  The canonical choices are listed in
``docs/choices.md`` §3.

Setting: a meta-distribution :math:`\mathcal D` on :math:`[0, 1]` with mean ``p`` and
variance :math:`\sigma_p^2`; user ``i`` draws :math:`p_i \sim \mathcal D`, then
:math:`k_i` Bernoulli(:math:`p_i`) samples, and reports their mean :math:`\hat p_i`.

Two printed slips, and what the code does with them: eq. (6) and Algorithm 2
(steps 12, 14) write :math:`T/\sigma_i` inside a sum over ``j``; the code uses
:math:`T/\sigma_j`, as the weights (4) do.  Eq. (5) gives the Laplace term as
:math:`b^2` although :math:`\mathrm{Var}(\mathrm{Lap}(b)) = 2b^2`: both are available
(``laplace="printed"``, the default as in eq. (6), and ``"exact"``).

Examples
--------
>>> from bounds import cummings
>>> cummings.k_star([100, 50, 20, 5, 1], eps=1.0)  # g(k) = 0.24, 0.059, 0.020, 0.011, 0.0089
100
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

if TYPE_CHECKING:
    import sympy as sp

from .numerics import check_array, check_choice, check_counts, check_integer, check_positive, check_real

__all__ = [
    "user_variance",
    "user_variance_symbolic",
    "nonprivate_weights",
    "private_weights",
    "concentration",
    "ideal_variance",
    "Truncation",
    "optimal_truncation",
    "k_star",
    "LowerBound",
    "lower_bound",
    "Example1",
    "example1",
    "example1_counts",
    "example1_groups",
    "EXAMPLE1_MAX_N",
    "RealisablePlan",
    "groups",
    "realisable_plan",
]

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


# =========================================================================== Corollary 5.5


def _k_objective(kk: np.ndarray, cand: np.ndarray, eps: float) -> np.ndarray:
    """(k/ε² + Σ min(k_i, k)) / (Σ min(k_i, k))² at each candidate ``k``, times ε² when ε < 1.

    Prefix sums are exact Python integers (no int64 wrap-around); the scaling by a
    positive constant keeps the argmin and keeps ``k/ε²`` finite.
    """
    ks = np.sort(kk)
    pre = np.concatenate([[0], np.cumsum(ks.astype(object))])
    below = np.searchsorted(ks, cand, side="right")  # users with k_i <= k
    used = (pre[below] + (ks.size - below).astype(object) * cand.astype(object)).astype(float)
    c = cand.astype(float)
    head = c / eps / eps + used if eps >= 1 else c + eps * eps * used
    return head / used**2


def k_star(k: ArrayLike, *, eps: float) -> int:
    r"""The exact integer :math:`k^*` of Corollary 5.5.

    .. math:: k^* = \arg\min_{k \in \mathbb N^*} \frac{k/\epsilon^2 + \sum_i \min\{k_i, k\}}{(\sum_i \min\{k_i, k\})^2}

    On a piece where :math:`\sum_i \min\{k_i, k\} = A + Bk`, the objective as a function of
    :math:`z = A + Bk` is :math:`(c_1 z - c_0)/z^2` with :math:`c_0, c_1 \ge 0`: it rises,
    then falls, so its minimum over the piece is at an end.  Below :math:`\min_i k_i` it
    decreases, above :math:`\max_i k_i` it increases: the argmin is one of the distinct
    :math:`k_i` (the smallest on ties).

    Source: Cummings et al. (2022), §5.2 (definition of :math:`k^*`) and Corollary 5.5.

    Examples
    --------
    >>> k_star([10, 10, 10], eps=100.0)
    10
    """
    kk = _k(k)
    eps = check_positive("eps", eps)
    cand = np.unique(kk)
    vals = _k_objective(kk, cand, eps)
    return int(cand[int(np.argmin(vals))])


@dataclass(frozen=True)
class LowerBound:
    r"""Corollary 5.5's bound ``value`` = ``min(privacy_term, statistical_term)`` (up to polylog factors)."""

    value: float
    privacy_term: float
    statistical_term: float
    k_star: int


def lower_bound(k: ArrayLike, *, eps: float, sigma_p2: float) -> LowerBound:
    r"""Corollary 5.5, as stated: the minimax variance of unbiased private estimators is at least

    .. math:: \tilde\Omega\Big(\min\Big\{\frac{k^*/\epsilon^2 + \sum_i \min\{k_i, k^*\}}
              {\big(\sum_i \min\{k_i, \sqrt{k_i k^*}\}\big)^2},\ \frac{\sigma_p^2}{n}\Big\}\Big)

    returned without the polylogarithmic factors.  With :math:`\sigma_p = 0` the minimum
    is 0 — the bound as stated is vacuous there, although the text motivates
    :math:`k^*` by that very case (``docs/choices.md`` §3); ``privacy_term`` keeps the
    first term.

    Source: Cummings et al. (2022), Corollary 5.5.

    Examples
    --------
    >>> lb = lower_bound([4, 1], eps=1.0, sigma_p2=0.0)
    >>> lb.value, lb.k_star
    (0.0, 4)
    """
    kk = _k(k)
    eps = check_positive("eps", eps)
    sigma_p2 = check_real("sigma_p2", sigma_p2, low=0)
    ks = k_star(kk, eps=eps)
    used = float(sum(np.minimum(kk, ks).tolist()))
    root = math.fsum(np.minimum(kk, np.sqrt(kk.astype(float)) * math.sqrt(ks)))
    privacy = (_over_eps2(ks, eps) + used) / root / root
    statistical = sigma_p2 / kk.size
    return LowerBound(min(privacy, statistical), privacy, statistical, ks)


# =========================================================================== Example 1


EXAMPLE1_MAX_N = 2**44  # grouped arrays hold about 2·√n entries (2^23 at the cap)


def example1_counts(n: int) -> np.ndarray:
    r"""Example 1's sample counts :math:`k_i = \lceil n/i \rceil`, :math:`i = 1..n`.

    .. math:: k_i = \lceil n / i \rceil

    Source: Cummings et al. (2022), Example 1.

    Examples
    --------
    >>> example1_counts(5).tolist()
    [5, 3, 2, 2, 1]
    """
    n = check_integer("n", n, minimum=1, maximum=_MAX_USERS, why="one array entry per user")
    i = np.arange(1, n + 1)
    return -(-n // i)


def example1_groups(n: int) -> tuple[np.ndarray, np.ndarray]:
    r"""Example 1's counts grouped: the distinct values of :math:`k_i = \lceil n/i\rceil`, decreasing,
    and how many users hold each.

    :math:`\#\{i : \lceil n/i\rceil \le q\} = n - \lceil n/q\rceil + 1`, so

    .. math:: \#\{i : k_i = q\} = \lceil n/(q-1)\rceil - \lceil n/q\rceil\ (q \ge 2),\qquad \#\{i : k_i = 1\} = 1,

    and only :math:`O(\sqrt n)` values occur: :math:`\lceil n/i\rceil` for :math:`i \le \sqrt n`
    and the integers up to :math:`\lceil n/\lceil\sqrt n\rceil\rceil`.  ``n`` is at most
    :data:`EXAMPLE1_MAX_N`.

    Source: Cummings et al. (2022), Example 1.

    Examples
    --------
    >>> [v.tolist() for v in example1_groups(5)]  # k = 5, 3, 2, 2, 1
    [[5, 3, 2, 1], [1, 1, 2, 1]]
    """
    n = check_integer("n", n, minimum=1, maximum=EXAMPLE1_MAX_N, why="the largest Example 1 computed here")
    r = math.isqrt(n) + 1
    large = -(-n // np.arange(r, 0, -1, dtype=np.int64))  # ⌈n/i⌉, i = r..1: non-decreasing, from ⌈n/r⌉
    q = np.concatenate([np.arange(1, large[0], dtype=np.int64), large])
    q = q[np.concatenate([[True], np.diff(q) != 0])][::-1]
    prev = np.maximum(q - 1, 1)
    mult = np.where(q >= 2, -(-n // prev) - (-(-n // q)), 1)
    keep = mult > 0
    q, mult = q[keep], mult[keep]
    if int(mult.sum()) != n:  # every user in exactly one group
        raise AssertionError(f"Example 1 groups cover {int(mult.sum())} users, not {n}")
    return q, mult


@dataclass(frozen=True)
class Example1:
    """Example 1's four quantities at one ``n`` (their scalings are the paper's claims), :math:`T^*`
    and the number of distinct sample counts ``groups``."""

    n: int
    nonprivate_sd: float  # claimed Θ(1/√(n log n))
    naive_privacy_error: float  # claimed O(1/(ε log n))
    truncation_privacy_error: float  # claimed Θ(1/(ε √(n log n)))
    uniform_sd: float  # claimed Ω(1/√n)
    T_star: float
    groups: int


def example1(n: int, *, eps: float = 1.0, p: float = 0.5, beta: float = 0.05) -> Example1:
    r"""The four quantities of Example 1 (:math:`k_i = \lceil n/i\rceil`, :math:`\sigma_p = 1/\sqrt n`), exactly.

    * ``nonprivate_sd`` — the inverse-variance estimator (1): :math:`(\sum_i 1/\sigma_i^2)^{-1/2}`,
      claimed :math:`\Theta(1/\sqrt{n\log n})`;
    * ``naive_privacy_error`` — Laplace scale of the sample average of all
      :math:`\sum k_i` samples (weights :math:`k_i/\sum k_j`, sensitivity :math:`\max_i w_i`):
      :math:`\max_i w_i/\epsilon`, claimed :math:`O(1/(\epsilon\log n))`;
    * ``truncation_privacy_error`` — Laplace scale of the ideal estimator at :math:`T^*`:
      :math:`\max_i w_i^*|b_i - a_i|/\epsilon` with :func:`concentration` widths, claimed
      :math:`\Theta(1/(\epsilon\sqrt{n\log n}))`;
    * ``uniform_sd`` — the best uniform average over the :math:`m` users with most data,
      :math:`\min_m \sqrt{\sum_{i \le m}\sigma_i^2}/m`, claimed :math:`\Omega(1/\sqrt n)`.

    .. math:: \sigma_i^2 = \frac{p(1-p)}{k_i} + \Big(1 - \frac1{k_i}\Big)\frac1n

    Users with the same :math:`k_i` share :math:`\sigma_i` and width, so every sum runs over
    the :math:`O(\sqrt n)` groups of :func:`example1_groups` with multiplicities, :math:`T^*` is
    :func:`optimal_truncation` with ``counts``, and the minimum over :math:`m` is attained at a
    group's last user (within a group the objective rises then falls): exact for ``n`` up to
    :math:`2^{44}` in a few seconds.

    Source: Cummings et al. (2022), Example 1 (``p`` in (1/3, 2/3)).

    Examples
    --------
    >>> ex = example1(1000)
    >>> ex.uniform_sd > ex.nonprivate_sd, ex.groups
    (True, 63)
    >>> round(example1(2**40).nonprivate_sd * math.sqrt(2**40 * math.log(2**40)), 4)
    0.5086
    """
    n = check_integer("n", n, minimum=2, maximum=EXAMPLE1_MAX_N, why="the largest Example 1 computed here")
    eps = check_positive("eps", eps)
    p = _p(p)
    beta = check_real("beta", beta, low=0, high=1, low_open=True, high_open=True)
    return _example1(int(n), float(eps), float(p), float(beta))


@functools.lru_cache(maxsize=64)
def _example1(n: int, eps: float, p: float, beta: float) -> Example1:
    """:func:`example1` on checked arguments, remembered (a frozen result): Example 1's figure and the audit
    check of its claims ask for the same ``n``, at seconds each near :math:`2^{40}`."""
    k, mult = example1_groups(n)  # k decreasing: users with most data first
    s2 = user_variance(k, p=p, sigma_p2=1.0 / n)
    fm = mult.astype(float)
    nonprivate_sd = 1 / math.sqrt(math.fsum(fm / s2))
    naive = float(k[0]) / float(int(np.dot(k.astype(object), mult.astype(object)))) / eps
    widths = 2 * concentration(k, p=p, sigma_p2=1.0 / n, n=n, beta=beta)
    trunc = optimal_truncation(s2, widths, eps=eps, counts=mult)
    privacy = float(np.max(trunc.weights * widths)) / eps
    return Example1(n, nonprivate_sd, naive, privacy, _best_uniform_sd(s2, mult), trunc.T, int(k.size))


def _best_uniform_sd(s2: np.ndarray, mult: np.ndarray) -> float:
    r""":math:`\min_m \sqrt{\sum_{i \le m}\sigma_i^2}/m` over users given as consecutive groups (``mult`` users of
    variance ``s2`` each), attained at some group's last user: on a group's range :math:`m_0 < m \le m_1`
    the objective is :math:`h(m) = (S_0 + \sigma^2(m - m_0))/m^2`, which equals the previous group's value
    at :math:`m_0` and whose derivative has the sign of :math:`-\sigma^2 m - 2(S_0 - \sigma^2 m_0)`, decreasing
    in ``m``: :math:`h` rises then falls, so its minimum on :math:`[m_0, m_1]` is at :math:`m_0` or :math:`m_1`."""
    return float(np.min(np.sqrt(np.cumsum(mult * s2)) / np.cumsum(mult)))


# =========================================================================== Algorithm 2 (deterministic parts)


@dataclass(frozen=True)
class RealisablePlan:
    """Algorithm 2's deterministic pieces: the three groups (index arrays into users sorted
    by decreasing ``k``), the plug-in ``sigma2_hat``, ``a_hat``, ``b_hat`` of the final group,
    ``T_hat``, its ``weights`` and the Laplace sensitivity ``Lambda`` (step 14)."""

    mean_group: np.ndarray
    variance_group: np.ndarray
    final_group: np.ndarray
    sigma2_hat: np.ndarray
    a_hat: np.ndarray
    b_hat: np.ndarray
    T_hat: float
    weights: np.ndarray
    Lambda: float


def groups(k: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Algorithm 2's three groups, as indices into ``k``: ``(variance, final, mean)``.

    Users sorted by decreasing :math:`k_i`: the :math:`\lceil \log n \rceil` with most data
    estimate the variance, the :math:`\lfloor n/10 \rfloor` with least data the mean (from their
    first samples), the rest form the final estimate.

    .. math:: [1, \lceil\log n\rceil],\quad (\lceil\log n\rceil, n - \lfloor n/10\rfloor],\quad (n - \lfloor n/10 \rfloor, n]

    Source: Cummings et al. (2022), Algorithm 2 (steps 2–5).

    Examples
    --------
    >>> [g.tolist() for g in groups([1, 9, 5, 7, 3, 8, 2, 6, 4, 10, 11])]
    [[10, 9, 1], [5, 3, 7, 2, 8, 4, 6], [0]]
    """
    kk = _k(k)
    n = kk.size
    order = np.argsort(-kk, kind="stable")
    n_var = max(1, math.ceil(math.log(n)))
    n_mean = max(1, n // 10)
    if n_var + n_mean >= n:
        raise ValueError(f"k holds {n} users: no final group is left after the ceil(log n) + n/10 = {n_var + n_mean} "
                         "of the variance and mean groups")
    return order[:n_var], order[n_var : n - n_mean], order[n - n_mean :]


def realisable_plan(k: ArrayLike, *, p_initial: float, sigma_p2_hat: float, tolerance: float, eps: float,
                    beta: float = 0.05, laplace: str = "printed") -> RealisablePlan:
    r"""Algorithm 2 given the private initial estimates: groups, plug-ins, :math:`\hat T^*`, weights.

    Users are sorted by decreasing :math:`k_i`.  Groups: the :math:`\lceil\log n\rceil` users
    with most data (initial variance), the :math:`n/10` with least (initial mean, from their
    first samples), the rest (final estimate).  For the final group (steps 5–12):

    .. math:: \hat\sigma_i^2 = \frac{\hat p(1-\hat p)}{k_i} + \Big(1 - \frac1{k_i}\Big)\hat\sigma_p^2,\quad
              [\hat a_i, \hat b_i] = \hat p \mp \big(\alpha + f^{k_i}_{\mathcal D}(n, \hat\sigma_p^2, \beta)\big),

    :math:`\hat T^*` from :func:`optimal_truncation`, and step 14's
    :math:`\Lambda = \max_i \hat w_i |\hat b_i - \hat a_i|`.  The private initial estimators
    and the simulation belong to the Monte Carlo layer.

    ``tolerance`` is the paper's :math:`\alpha`, the error of the initial estimates (not an
    LDP level), and ``beta`` the failure probability :math:`\beta` of the widths.

    Source: Cummings et al. (2022), Algorithm 2 and Lemma 4.2.

    Examples
    --------
    >>> plan = realisable_plan([2**j for j in range(20, 0, -1)], p_initial=0.5, sigma_p2_hat=0.01, tolerance=0.01, eps=1.0)
    >>> len(plan.variance_group), len(plan.mean_group), len(plan.final_group)
    (3, 2, 15)
    """
    kk = _k(k)
    n = kk.size
    if n < 3:
        raise ValueError(f"k must hold at least 3 users (Algorithm 2's three groups), got {n}")
    p_hat = _p(p_initial, "p_initial")
    s2_hat = _sigma_p2(sigma_p2_hat, p_hat, "sigma_p2_hat (with p_initial)")
    tolerance = check_real("tolerance", tolerance, low=0, high=_MAX_TOLERANCE)
    var_g, final_g, mean_g = groups(kk)
    kf = kk[final_g]
    s2 = user_variance(kf, p=p_hat, sigma_p2=s2_hat)
    if np.any(s2 < _SIGMA2_RANGE[0]):
        raise ValueError(f"p_initial = {p_initial!r} and sigma_p2_hat = {sigma_p2_hat!r} give user variances below "
                         f"{_SIGMA2_RANGE[0]:g}: the truncation of eq. (6) needs positive variances")
    half = tolerance + concentration(kf, p=p_hat, sigma_p2=s2_hat, n=n, beta=beta)
    a_hat, b_hat = p_hat - half, p_hat + half
    trunc = optimal_truncation(s2, b_hat - a_hat, eps=eps, laplace=laplace)
    Lam = float(np.max(trunc.weights * (b_hat - a_hat)))
    return RealisablePlan(mean_g, var_g, final_g, s2, a_hat, b_hat, trunc.T, trunc.weights, Lam)
