r"""Exact integer sums of consecutive masses whose ratios are rational (Poisson and binomial).

For :math:`X \sim \mathcal P(\lambda)` or :math:`\mathcal B(N, p)` with :math:`\lambda, p` binary
fractions (every float is one), the ratio of consecutive masses is a ratio of integers,

.. math:: \frac{P(X = k+1)}{P(X = k)} = \frac{\lambda}{k+1} = \frac{L_n}{L_d (k+1)}, \qquad
          \frac{(N-k)\,p}{(k+1)(1-p)} = \frac{(N-k) P_n}{(k+1)(P_d - P_n)},

so a run of masses relative to its first, :math:`\tilde T_k = 2^F M(k)/M(k_0)`, is carried as
integers :math:`T_{k_0} = 2^F`, :math:`T_{k+1} = \lfloor T_k n(k)/d(k) \rfloor` (one multiplication
and one floor division per step, no rounding of a logarithm), and every sum of the :math:`T_k`
is an exact integer: the cdf, the partial moment and the survival function of a table are
prefix and suffix sums with no rounding at all.  Only the mass :math:`M(k_0)` at the run's
first point and a logarithm per value actually asked for are mpmath evaluations.

**Error bound (proven).**  With :math:`e_k = \tilde T_k - T_k \ge 0`, :math:`e_{k+1} \le r_k e_k + 1`
(:math:`r_k` the exact ratio), so :math:`e_k \le \sum_{k_0 < j \le k} \tilde T_k/\tilde T_j` and
:math:`e_k/\tilde T_k \le \sum_{k_0 < j \le k} 1/T_j \le (k - k_0)/\min_j T_j`.  The weights
:math:`\sqrt k\,T_k` are :math:`\lfloor \lfloor\sqrt{k\,4^G}\rfloor T_k / 2^G \rfloor`: two more
floors, at most :math:`2^{-G} + 1/T_k` relative, :math:`2^{-G} \le 10^{-(d+12)}`.  Every sum of such terms (all positive) keeps the largest
relative error of its terms, so a run of ``n`` terms is within :math:`(n + 3)/\min_j T_j`
relative; :class:`Run` checks :math:`(n + 3)\,10^{d+10} \le \min_j T_j` in integers and, where it
fails, adds bits to ``F`` and starts again.  Hence every tabulated sum is within
:math:`10^{-(d+10)}` relative of :math:`M(k_0)^{-1}` times its true value, and the values are
those of the anchor :math:`M(k_0)` (computed with 10 guard digits) times these sums.

**Walks with a remainder** (:func:`walk`): in a direction where the masses fall, the sum is cut
when the rest is proven below :math:`10^{-(d+5)}` of it: by log-concavity every later ratio is
at most the current exact ratio :math:`r < 1`, so the rest is below
:math:`(T_{k} + n + 1)/(1 - r)` (times :math:`\sqrt{k}` for the moment leftwards, where
:math:`\sqrt{\cdot}` falls).  The absolute error of the ``n`` terms is at most :math:`n^2` units
against a sum of at least :math:`2^F`; the walk checks :math:`4 n^2\,10^{d+10} \le 2^F`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import accumulate
from typing import TYPE_CHECKING, Any, Callable

from .._lazy import lazy

if TYPE_CHECKING:
    import mpmath
else:
    mpmath = lazy("mpmath")  # imported at first use: the float path never needs it

Ratio = Callable[[int], tuple[int, int]]  # k -> (n, d): M(k+1) / M(k) = n / d exactly
LOG2_10 = math.log2(10)


def poisson_ratio(lam: float, shift: int) -> Ratio:
    r""":math:`M(k+1)/M(k)` of :math:`m = X + \text{shift}`, :math:`X \sim \mathcal P(\lambda)`, as exact integers.

    .. math:: \frac{M(k+1)}{M(k)} = \frac{\lambda}{k + 1 - \text{shift}}

    Source: Johnson, Kemp & Kotz (2005), §4.2 (the Poisson recurrence).

    Examples
    --------
    >>> poisson_ratio(2.5, 0)(4)  # 2.5 / 5
    (5, 10)
    """
    lam_n, lam_d = Fraction(lam).as_integer_ratio()
    return lambda k: (lam_n, lam_d * (k + 1 - shift))


def binomial_ratio(N: int, p: float, shift: int) -> Ratio:
    r""":math:`M(k+1)/M(k)` of :math:`m = X + \text{shift}`, :math:`X \sim \mathcal B(N, p)`, :math:`p < 1`, as exact integers.

    .. math:: \frac{M(k+1)}{M(k)} = \frac{(N - j)\,p}{(j + 1)(1 - p)}, \qquad j = k - \text{shift}

    Source: Johnson, Kemp & Kotz (2005), §3.2 (the binomial recurrence).

    Examples
    --------
    >>> binomial_ratio(10, 0.5, 0)(3)  # 7 / 4
    (7, 4)
    """
    p_n, p_d = Fraction(p).as_integer_ratio()
    return lambda k: ((N - (k - shift)) * p_n, (k - shift + 1) * (p_d - p_n))


class Run:
    r"""The integers :math:`T_k \approx 2^F M(k)/M(\text{first})` and :math:`W_k \approx \sqrt k\,T_k` and
    their prefix sums for ``k = first..``, extended on demand (:meth:`extend`), each within
    :math:`10^{-(d+10)}` relative (checked at every extension, see the module docstring; where the
    check fails, ``F`` grows and the run starts again).  ``drop_bits``: an estimate of
    :math:`\log_2 \max_k M(\text{first})/M(k)` over the longest run asked for, ``n_max`` its length.

    .. math:: T_{k+1} = \lfloor T_k\, n(k) / d(k) \rfloor, \qquad W_k = \lfloor \lfloor\sqrt{k\,4^G}\rfloor T_k / 2^G\rfloor

    Source: the module docstring's error bound.

    Examples
    --------
    >>> r = Run(poisson_ratio(1.0, 0), 1, 20, 3.0, 3)  # M(k)/M(1) = 1, 1/2, 1/6
    >>> r.extend(3)
    >>> [t / 2**r.F for t in r.T]
    [1.0, 0.5, 0.16666666666666666]
    """

    def __init__(self, ratio: Ratio, first: int, dps: int, drop_bits: float, n_max: int) -> None:
        self.ratio, self.first, self.dps, self.G = ratio, first, dps, root_bits(dps)
        self.F = int(math.ceil((dps + 10) * LOG2_10 + math.log2(n_max + 3) + max(drop_bits, 0.0))) + 32
        self._reset()

    def _reset(self) -> None:
        t = 1 << self.F
        self.T, self.W = [t], [(math.isqrt(self.first << (2 * self.G)) * t) >> self.G]
        self.cum, self.cum_w = [t], [self.W[0]]
        self.least = t

    @property
    def last(self) -> int:
        """The last point computed."""
        return self.first + len(self.T) - 1

    def extend(self, last: int) -> None:
        """Compute the terms up to ``last`` (and their prefix sums)."""
        while self.last < last:
            T, W, ratio, G = self.T, self.W, self.ratio, self.G
            k0 = self.last
            t = T[-1]
            new_t = []
            for k in range(k0, last):
                num, den = ratio(k)
                t = t * num // den
                new_t.append(t)
            new_w = [(math.isqrt(k << (2 * G)) * x) >> G for k, x in zip(range(k0 + 1, last + 1), new_t)]
            least = min(self.least, min(new_t))
            if (last - self.first + 4) * 10 ** (self.dps + 10) > least:  # too few bits: start again with more
                self.F += 64 + ((last - self.first + 4) * 10 ** (self.dps + 10) // max(least, 1)).bit_length()
                self._reset()
                continue
            self.least = least
            T.extend(new_t)
            W.extend(new_w)
            self.cum.extend(accumulate(new_t, initial=self.cum[-1]))
            self.cum_w.extend(accumulate(new_w, initial=self.cum_w[-1]))
            del self.cum[-len(new_t) - 1]
            del self.cum_w[-len(new_w) - 1]


def root_bits(dps: int) -> int:
    r"""Bits ``G`` of the fixed-point square roots :math:`\lfloor\sqrt{k\,4^G}\rfloor`: their floor is
    within :math:`2^{-G} \le 10^{-(d+12)}` relative (:math:`\sqrt k \ge 1`)."""
    return int(math.ceil((dps + 12) * LOG2_10))


def walk(ratio: Ratio, log_first: Any, first: int, step: int, end: float, dps: int,
         max_terms: int, moment: bool = True) -> tuple[Any, Any]:
    r"""``(log sum M(k), log sum sqrt(k) M(k))`` over ``k`` from ``first`` in direction ``step``
    (±1) up to ``end`` (the support's end), where the masses fall, to :math:`10^{-(d+5)}` relative
    (the remainder bound of the module docstring; rightwards only the first is bounded;
    ``moment=False``: the second is not computed, ``-inf`` in its place).
    ``log_first`` is :math:`\log M(\text{first})` at the working precision (with guard digits).

    .. math:: \sum_{k \ge \text{first}} M(k) = M(\text{first})\,2^{-F}\Big(\sum_{j < n} T_j + R\Big),
              \qquad 0 \le R \le \frac{T_n + n + 1}{1 - r}

    Source: the module docstring (log-concavity: ratios monotone).

    Examples
    --------
    >>> import mpmath
    >>> with mpmath.workdps(30):  # P(X >= 0) for X ~ Poisson(2), from M(0) = e^-2 rightwards
    ...     ls, _ = walk(poisson_ratio(2.0, 0), mpmath.mpf(-2), 0, +1, math.inf, 30, 10**6)
    ...     print(mpmath.nstr(ls, 10))
    0.0
    """
    F = int(math.ceil((dps + 10) * LOG2_10)) + 2 * max(int(math.log2(max_terms)) + 1, 20) + 8
    scale = 10 ** (dps + 5)
    G = root_bits(dps)
    t, k, n = 1 << F, first, 0
    s = w = 0
    while True:
        s += t
        if moment:
            w += (math.isqrt(k << (2 * G)) * t) >> G
        n += 1
        if k == end:
            break
        num, den = ratio(k) if step > 0 else ratio(k - 1)[::-1]
        t_next = t * num // den
        if num < den and (n % 16 == 0 or t_next == 0):  # the rest: below (T_next + n + 1) / (1 - r), times sqrt(k) leftwards
            bound = (t_next + n + 1) * den
            ok = bound * scale <= s * (den - num)
            if step < 0 and moment:
                ok = ok and bound * (math.isqrt(k) + 1) * scale <= w * (den - num)
            if ok or t_next == 0:
                break
        if n >= max_terms:
            raise ArithmeticError(f"a sum of masses did not converge within {max_terms} terms")
        t, k = t_next, k + step
    if 4 * n * n * 10 ** (dps + 10) > 1 << F:  # pragma: no cover - F holds 2 log2(max_terms) spare bits
        raise AssertionError("fixed-point walk: too many terms for its guard bits")
    return log_first + scaled_log(s, F), log_first + scaled_log(w, F)


def scaled_log(v: int, F: int) -> Any:
    r""":math:`\log(v\,2^{-F})` at the working precision (``-inf`` for ``v = 0``)."""
    if v <= 0:
        return mpmath.ninf
    return mpmath.log(mpmath.ldexp(mpmath.mpf(v), -F))
