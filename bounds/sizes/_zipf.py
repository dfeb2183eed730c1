r"""The Zipf law :math:`M(k) = k^{-s}/\zeta(s)`, every functional a Hurwitz zeta value (no table).

**Closed forms**: :math:`M(k)`, :math:`P(m > a) = \zeta(s, a+1)/\zeta(s)`,
:math:`E[m] = \zeta(s-1)/\zeta(s)`, :math:`E[\sqrt m] = \zeta(s-\tfrac12)/\zeta(s)` and
:math:`E[\sqrt m\,\mathbb 1\{m\le a\}] = (\zeta(s-\tfrac12) - \zeta(s-\tfrac12, a+1))/\zeta(s)`,
in float64 by ``scipy.special.zeta`` (a few ulp; the difference loses at most
:math:`\log_{10}` of the ratio of its terms, below 1 digit past ``a = 64``, where the direct
sum takes over) and by mpmath at ``d`` digits.  No tabulation, no series.
"""

from __future__ import annotations

import math
from functools import cached_property
from typing import Any, TYPE_CHECKING, cast

import numpy as np

from ..numerics import check_integer, check_positive
from ._common import _log1mexp, ClosedFormStack, MAX_LISTED, SEARCH_CAP
from ._base import _rebuild, SizeLaw
from ._tables import Table
from .._lazy import lazy

if TYPE_CHECKING:
    import mpmath
    from scipy import special
else:
    mpmath = lazy("mpmath")  # imported at first use: the float path never needs it
    special = lazy("scipy.special")


# =========================================================================== zipf (closed forms)


class ZipfLaw(SizeLaw):
    r"""Zipf law :math:`M(k) = k^{-s}/\zeta(s)`, every functional a Hurwitz zeta."""

    def __init__(self, s: float) -> None:
        self.s = s
        self.tabulated = False
        self.name, self.params = "zipf", (("s", s),)
        self.support_min, self.support_max = 1, math.inf

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, ("zipf", {"s": self.s}))

    def _sample(self, size: int, rng: np.random.Generator) -> np.ndarray:
        return rng.zipf(self.s, size=size)

    @cached_property
    def _zeta_s(self) -> float:
        """ζ(s) in float64 (once per law)."""
        return float(special.zeta(self.s))

    @cached_property
    def _log_zeta_s(self) -> float:
        return math.log(self._zeta_s)

    @cached_property
    def _zeta_h(self) -> float:
        """ζ(s - 1/2) in float64 (once per law)."""
        return float(special.zeta(self.s - 0.5))

    def _logpmf(self, k: np.ndarray) -> np.ndarray:
        return -self.s * np.log(np.asarray(k, dtype=float)) - self._log_zeta_s

    def _logsf(self, a: np.ndarray) -> np.ndarray:
        return _log_hurwitz(self.s, np.asarray(a) + 1.0) - self._log_zeta_s

    def _mp_logpmf(self, k: int) -> Any:
        return -self.s * mpmath.log(k) - mpmath.log(self._mp_zeta(self.s))

    def _mp_sf(self, a: int) -> Any:
        with mpmath.workdps(mpmath.mp.dps + GUARD):
            out = self._mp_hurwitz(self.s, a + 1) / self._mp_zeta(self.s)
        return +out

    def _mean(self, precision: int | None) -> Any:
        if precision is None:
            return float(special.zeta(self.s - 1) / special.zeta(self.s))
        return mpmath.zeta(self.s - 1) / self._mp_zeta(self.s)

    # ---- the mpmath path: zeta values cached per precision, Hurwitz tails by Euler-Maclaurin -----------
    def _mp_cache(self, x: float) -> tuple[Any, list, Any]:
        r"""``(zeta(x), suffix, zeta(x, Q))`` at the working precision (cached): ``suffix[q - 1]`` is
        :math:`\sum_{q \le k < Q} k^{-x}`, :math:`Q` = :func:`_em_start`."""
        cache = self.__dict__.setdefault("_mp_zetas", {})
        key = (x, mpmath.mp.dps)
        if key not in cache:
            Q = _em_start(mpmath.mp.dps)
            terms = [mpmath.power(k, -mpmath.mpf(x)) for k in range(1, Q)]
            suffix, acc = [], mpmath.mpf(0)
            for t in reversed(terms):
                acc += t
                suffix.append(acc)
            suffix.reverse()
            tail = _em_hurwitz(x, Q)
            cache[key] = (mpmath.zeta(x), suffix, tail)
        return cast(tuple[Any, list, Any], cache[key])

    def _mp_zeta(self, x: float) -> Any:
        r""":math:`\zeta(x)` at the working precision (mpmath's, cached)."""
        return self._mp_cache(x)[0]

    def _mp_hurwitz(self, x: float, q: int) -> Any:
        r""":math:`\zeta(x, q) = \sum_{k \ge q} k^{-x}` for an integer :math:`q \ge 1`, at the working
        precision: cached direct terms below :math:`Q`, then :func:`_em_hurwitz`."""
        _, suffix, tail = self._mp_cache(x)
        if q < len(suffix) + 1:
            return suffix[q - 1] + tail
        # q^-x from q^-s (the other of the two exponents s, s - 1/2 at the same q): one power per point
        powers = self.__dict__.setdefault("_mp_powers", {})
        key = (q, mpmath.mp.dps)
        if key not in powers:
            if len(powers) > 10_000:  # bounded memory
                powers.clear()
            powers[key] = mpmath.power(q, -mpmath.mpf(self.s))
        qs = powers[key]
        return _em_hurwitz(x, q, qs if x == self.s else qs * mpmath.sqrt(q) if x == self.s - 0.5 else None)

    @cached_property
    def _log_small_sums(self) -> np.ndarray:
        """log of sum_{k <= a} k^-(s-1/2), a = 1..64, in float64 (once per law)."""
        return np.log(np.cumsum(np.arange(1, 65, dtype=float) ** (0.5 - self.s)))

    # E[sqrt(m) 1{m <= a}] = (ζ(s-1/2) - ζ(s-1/2, a+1)) / ζ(s): no table needed
    def _log_partial_sqrt(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        if precision is None:
            return self._stack.query("log_partial_sqrt_mean", np.zeros(np.shape(a), dtype=np.intp), a)
        h = self.s - 0.5
        pos = a >= 1
        safe = np.maximum(a, 1)
        with mpmath.workdps(precision + GUARD):
            zs, zh = self._mp_zeta(self.s), self._mp_zeta(h)
            vals = [mpmath.log((zh - self._mp_hurwitz(h, int(ai) + 1)) / zs) for ai in safe.ravel()]
        with mpmath.workdps(precision):
            out = np.asarray([+v for v in vals], dtype=object).reshape(safe.shape)
        return np.where(pos, out, -np.inf)

    def sqrt_mean(self, *, precision: int | None = None) -> Any:
        r""":math:`E[\sqrt{m}] = \zeta(s - 1/2)/\zeta(s)` (exact).

        Examples
        --------
        >>> round(float(zipf(3).sqrt_mean()), 12)  # ζ(2.5)/ζ(3)
        1.11599313953
        """
        precision = self._precision(precision)
        if precision is None:
            return float(self._zeta_h / self._zeta_s)
        with mpmath.workdps(precision + GUARD):
            out = self._mp_zeta(self.s - 0.5) / self._mp_zeta(self.s)
        with mpmath.workdps(precision):
            return +out

    def support_points(self, *, precision: int | None = None, upto: int = 1000) -> np.ndarray:
        """The support ``1..upto`` (the support is all of N*; ``upto`` at most 10^7)."""
        self._precision(precision)
        return np.arange(1, check_integer("upto", upto, minimum=1, maximum=MAX_LISTED) + 1, dtype=np.int64)

    def _table(self, precision: int | None) -> Table:  # pragma: no cover - guarded: zipf never tabulates
        raise AssertionError("zipf laws use closed forms, not tables")

    def _search_end(self) -> int:
        return SEARCH_CAP

    def _floor_support(self, a: np.ndarray) -> np.ndarray:
        return np.maximum(np.asarray(a, dtype=np.int64), 0)

    def _log_cdf(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        ls = self._log_sf(a, precision)
        return np.where(a < 1, -np.inf, _log1mexp(ls, precision))


def _log_hurwitz(x: Any, q: np.ndarray) -> np.ndarray:
    """log ζ(x, q) (``x`` one value or one per point), with an mpmath fallback where float64 underflows."""
    q = np.asarray(q, dtype=float)
    val = special.zeta(x, q)
    with np.errstate(divide="ignore"):
        out = np.log(val)
    bad = ~(val > 1e-290)
    if np.any(bad):
        out = np.array(out, dtype=float)
        xs = np.broadcast_to(x, q.shape)[bad]
        out[bad] = [float(mpmath.log(mpmath.zeta(float(xx), qq))) for xx, qq in zip(xs, q[bad])]
    return out


class _ZipfStack(ClosedFormStack):
    r"""The float64 constants of several Zipf laws (one row each), for their functionals at pairs
    ``(law g[k], a[k])`` in one pass: the same operations, point by point, as one law's own (a law's float64
    functionals are those of its stack of one), so the values are the same bit for bit.

    :math:`\log P(m > a) = \log\zeta(s, a+1) - \log\zeta(s)`; :math:`\log E[\sqrt m\,\mathbb 1\{m \le a\}]`
    from the direct sums to 64, then :math:`\log(\zeta(h) - \zeta(h, a + 1)) - \log\zeta(s)`, :math:`h = s - 1/2`.
    """

    def __init__(self, laws: Any) -> None:
        laws = tuple(laws)
        self.s = np.array([law.s for law in laws])
        self.h = np.array([law.s - 0.5 for law in laws])
        self.lzs = np.array([law._log_zeta_s for law in laws])
        self.zh = np.array([law._zeta_h for law in laws])
        self.small = np.stack([law._log_small_sums for law in laws])

    def _log_gt(self, g: np.ndarray, a: np.ndarray) -> np.ndarray:
        out = _log_hurwitz(self.s[g], np.maximum(a, 0) + 1.0) - self.lzs[g]
        return np.where(a < 1, 0.0, out)

    def _log_s(self, g: np.ndarray, a: np.ndarray) -> np.ndarray:
        pos = a >= 1
        safe = np.maximum(a, 1)
        small = safe <= 64  # direct sums for small a (no cancellation), the closed form beyond
        out = np.empty(safe.shape, dtype=float)
        if np.any(small):
            out[small] = self.small[g[small], safe[small] - 1] - self.lzs[g[small]]
        if np.any(~small):
            big = ~small
            rest = self.zh[g[big]] - special.zeta(self.h[g[big]], safe[big] + 1.0)
            out[big] = np.log(rest) - self.lzs[g[big]]
        return np.where(pos, out, -np.inf)


GUARD = 10  # guard digits of the mpmath path (rounded to the asked precision at the end)


def _em_start(dps: int) -> int:
    r"""The smallest ``q`` :func:`_em_hurwitz` serves at ``dps`` digits: its terms reach
    :math:`10^{-(d+5)}` before they turn (near :math:`j = \pi q`, at about :math:`e^{-2\pi q}`)."""
    return max(64, math.ceil((dps + 15) * math.log(10) / (2 * math.pi)) + 1)


def _em_hurwitz(x: float, q: int, qx: Any = None) -> Any:
    r""":math:`\zeta(x, q)` for :math:`x > 1` and an integer :math:`q \ge` :func:`_em_start` by the
    Euler-Maclaurin formula, to :math:`10^{-(d+5)}` relative at the working precision ``d``
    (``qx``: :math:`q^{-x}` where the caller has it).

    .. math:: \zeta(x, q) = \frac{q^{1-x}}{x-1} + \frac{q^{-x}}{2}
              + \sum_{j=1}^{J} \frac{B_{2j}}{(2j)!}(x)_{2j-1}\,q^{-x-2j+1} + R_J

    Every even derivative of :math:`t^{-x}` is positive and tends to 0, so :math:`R_J` lies between 0
    and the first omitted term (Olver 1974, Ch. 8, §3): the sum stops before the first term below
    :math:`10^{-(d+5)}` of the total, which bounds the remainder.  The terms' ratio grows with :math:`j`
    (about :math:`(x + 2j)^2/(2\pi q)^2`); where they turn before they are that small (``x`` not small against
    ``q``) the value comes from :func:`_hurwitz_ahead`.

    Source: Olver (1974), *Asymptotics and Special Functions*, Ch. 8, §3; DLMF 25.11.7.

    Examples
    --------
    >>> import mpmath
    >>> with mpmath.workdps(30):
    ...     print(mpmath.nstr(_em_hurwitz(2.0, 100) - mpmath.zeta(2, 100), 3))
    0.0
    """
    X, Q = mpmath.mpf(x), mpmath.mpf(q)
    if qx is None:
        qx = mpmath.power(Q, -X)
    out = Q * qx / (X - 1) + qx / 2
    tol = mpmath.mpf(10) ** (-(mpmath.mp.dps + 5)) * out
    poch, qpow, inv2 = X, qx / Q, 1 / (Q * Q)
    last = None
    for j in range(1, 4 * q):
        term = _bernoulli_ratio(j) * poch * qpow
        if abs(term) <= tol:
            return out
        if last is not None and abs(term) >= last:  # the series turned first: x is not small against q
            break
        last = abs(term)
        out += term
        poch *= (X + 2 * j - 1) * (X + 2 * j)
        qpow *= inv2
    return _hurwitz_ahead(x, q, qx)


def _hurwitz_ahead(x: float, q: int, qx: Any) -> Any:
    r""":math:`\zeta(x, q)` where :func:`_em_hurwitz`'s series turns before its terms are small (``x`` not small
    against ``q``): the terms :math:`k^{-x}` summed from :math:`k = q` until the rest is below
    :math:`10^{-(d+5)}` of the sum (a large ``x``: a few terms), else up to :math:`q' = 2\max(q, \lceil x\rceil)`
    and :func:`_em_hurwitz` from there (:math:`x \le q'/2`).  The rest past :math:`k` is at most
    :math:`(k+1)^{-x} + \int_{k+1}^\infty t^{-x}\,dt`, every term being decreasing.

    .. math:: \zeta(x, q) = \sum_{q \le k < q'} k^{-x} + \zeta(x, q'), \qquad
              \sum_{j > k} j^{-x} \le (k+1)^{-x}\Big(1 + \frac{k+1}{x-1}\Big)

    Source: DLMF 25.11.4 (the shift of :math:`q`); the integral test.
    """
    X = mpmath.mpf(x)
    scale = mpmath.mpf(10) ** (-(mpmath.mp.dps + 5))
    out, end = qx, 2 * max(q, math.ceil(x))
    for k in range(q + 1, end):
        term = mpmath.power(k, -X)
        if term * (1 + k / (X - 1)) <= scale * out:  # the terms from k on: below the tolerance
            return out
        out += term
    return out + _em_hurwitz(x, end)


def _bernoulli_ratio(j: int) -> Any:
    """:math:`B_{2j}/(2j)!` at the working precision (cached per precision)."""
    key = (j, mpmath.mp.dps)
    if key not in _BERNOULLI:
        _BERNOULLI[key] = mpmath.bernoulli(2 * j) / mpmath.factorial(2 * j)
    return _BERNOULLI[key]


_BERNOULLI: dict[tuple[int, int], Any] = {}


def zipf(s: float) -> SizeLaw:
    r"""Zipf (zeta) law, heavy-tailed: :math:`M(k) = k^{-s}/\zeta(s)`, :math:`k \ge 1`.

    Its mean :math:`\zeta(s-1)/\zeta(s)` is finite only for :math:`s > 2`; hypothesis
    H1 of the DAME paper requires it, so ``s <= 2`` raises.  All functionals are
    Hurwitz zeta values, e.g. :math:`P(m > a) = \zeta(s, a+1)/\zeta(s)` and

    .. math:: E[\sqrt{m}\,\mathbb{1}\{m \le a\}] = \frac{\zeta(s-\tfrac12) - \zeta(s-\tfrac12, a+1)}{\zeta(s)}

    Source: Pla et al. (2024), H1 (§4.1) (finite expectation of ``M``).

    Examples
    --------
    >>> round(float(zipf(3).prob_gt(1)), 12)  # 1 - 1/ζ(3)
    0.168092627...
    >>> zipf(1.5)
    Traceback (most recent call last):
    ...
    ValueError: zipf(s=1.5) has an infinite mean (s <= 2): hypothesis H1 (E[m] < inf) fails
    """
    s = check_positive("s", s)
    if s <= 2:
        raise ValueError(f"zipf(s={s!r}) has an infinite mean (s <= 2): hypothesis H1 (E[m] < inf) fails")
    return ZipfLaw(s)


ZipfLaw._stack_class = _ZipfStack  # the stack class is defined below the law class
