"""Independent brute-force references for the DAME bounds.

Nothing here calls ``bounds``: each quantity is recomputed from its definition
(``001_ac3274d7ce9a5d72.txt`` eqs. (10)–(12)) with mpmath over an explicit list
of masses, scanning every integer ``a`` — the slow, obvious way.
"""

from __future__ import annotations

import bisect
from fractions import Fraction

import mpmath

DPS = 50


def masses_poisson_truncated(lam, kmax):
    """Exact zero-truncated Poisson masses on 1..kmax (tail beyond is dropped)."""
    lam = mpmath.mpf(lam)
    z = -mpmath.expm1(-lam)
    return {k: mpmath.exp(k * mpmath.log(lam) - lam - mpmath.loggamma(k + 1)) / z for k in range(1, kmax + 1)}


def masses_geometric(p, kmax):
    p = mpmath.mpf(p)
    return {k: p * (1 - p) ** (k - 1) for k in range(1, kmax + 1)}


def masses_binomial_truncated(N, p):
    p = mpmath.mpf(p)
    z = 1 - (1 - p) ** N
    return {k: mpmath.binomial(N, k) * p**k * (1 - p) ** (N - k) / z for k in range(1, N + 1)}


class Law:
    """A law given by explicit masses ``{m: mass}``.

    ``Fraction`` masses keep probabilities exact (so ``P(m >= a) = 1`` is decided
    exactly); ``mpf`` masses are summed at ``DPS`` digits.
    """

    def __init__(self, masses):
        self.exact = all(isinstance(v, Fraction) for v in masses.values())
        with mpmath.workdps(DPS):
            self.m = {int(k): (v if self.exact else mpmath.mpf(v)) for k, v in masses.items() if v > 0}
        self.points = sorted(self.m)

        # suffix sums (from the top: tails keep their digits) and prefix sums of sqrt(k) M(k)
        zero = Fraction(0) if self.exact else mpmath.mpf(0)
        with mpmath.workdps(DPS):
            self._suffix, acc = [], zero
            for k in reversed(self.points):
                acc = acc + self.m[k]
                self._suffix.append(acc)
            self._suffix.reverse()
            self._prefix, acc = [], mpmath.mpf(0)
            for k in self.points:
                acc = acc + mpmath.sqrt(k) * _mp(self.m[k])
                self._prefix.append(acc)
        self._zero = zero

    def ge(self, a):
        i = bisect.bisect_left(self.points, a)
        return self._suffix[i] if i < len(self.points) else self._zero

    def gt(self, a):
        return self.ge(a + 1)

    def partial_sqrt(self, a):
        i = bisect.bisect_right(self.points, a)
        return self._prefix[i - 1] if i > 0 else mpmath.mpf(0)

    def sqrt_min(self, a):
        return self.partial_sqrt(a) + mpmath.sqrt(a) * _mp(self.gt(a))


def _mp(v):
    return mpmath.mpf(v.numerator) / v.denominator if isinstance(v, Fraction) else mpmath.mpf(v)


def lower_term(law: Law, x, c1, c2, a):
    """Eq. (10)'s term at ``a``."""
    with mpmath.workdps(DPS):
        x = mpmath.mpf(x)
        return c1 * mpmath.exp(-c2 * x * _mp(law.gt(a)) ** 2) / max(x * law.partial_sqrt(a) ** 2, 1)


TIE_RTOL = 1e-9  # the lower bound's stated tie rule: the smallest a within this relative distance of the max


def lower_bound(law: Law, x, c1, c2, amax):
    """max over a = 0..amax of eq. (10), by scanning: (value, the smallest a whose value is
    within a relative TIE_RTOL of the max)."""
    vals = [lower_term(law, x, c1, c2, a) for a in range(0, amax + 1)]
    best = max(vals)
    return best, next(a for a, v in enumerate(vals) if v >= best * (1 - mpmath.mpf(TIE_RTOL)))


def phi(a, x, c4, c5):
    """φ(a) of Theorem 2, +inf where log y <= 0."""
    y = c4 * max(a * x, 1)
    if mpmath.log(y) <= 0:
        return mpmath.inf
    return c5 / x * mpmath.log(y / mpmath.log(y))


def m_tilde(law: Law, x, c4, c5, amax):
    """max{a in 1..amax : P(m >= a)^2 >= φ(a) ∧ 1}, by a linear scan."""
    with mpmath.workdps(DPS):
        x = mpmath.mpf(x)
        best = None
        for a in range(1, amax + 1):
            p, ph = law.ge(a), phi(a, x, c4, c5)
            if ph >= 1:  # the condition is P(m >= a) = 1: no mass below a
                holds = min(law.points) >= a
            else:
                holds = _mp(p) ** 2 >= ph
            if holds:
                best = a
        return best


def upper_bound(law: Law, x, c3, c4, mt):
    """Eq. (11) at a given m̃, with the canonical denominator E[sqrt(m ∧ m̃)]."""
    with mpmath.workdps(DPS):
        x = mpmath.mpf(x)
        num = c3 * mpmath.log(c4 * max(mpmath.sqrt(mt * x), 1))
        return min(num / (x * law.sqrt_min(mt) ** 2), 4)
