r"""Cummings et al. (2022), Example 1: the counts, the groups and the variances it compares."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from ..numerics import check_integer, check_positive, check_real
from ._weights import _MAX_USERS, _p, concentration, optimal_truncation, user_variance

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
