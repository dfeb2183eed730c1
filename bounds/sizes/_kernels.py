r"""Series kernels: Euler-Maclaurin sums of :math:`\sqrt k` and Loader's binomial deviance.

**Series**, with their truncation errors:

* :func:`_em_sqrt_diff` - :math:`\sum_{lo<k\le hi}\sqrt k` by Euler-Maclaurin from ``t >= 63``:
  consecutive terms fall by :math:`\approx (2\pi t)^{-2}`, so the 4 Bernoulli terms of the
  float64 path leave below :math:`10^{-16}` relative; the mpmath path adds terms until one is
  below :math:`10^{-(d+5)}` of the sum.
* :func:`_stirlerr` - Stirling's error :math:`\log n! - \log(\sqrt{2\pi n}(n/e)^n)`: for
  ``n > 15`` 5 terms of the series in :math:`1/n` (the first neglected term is below
  :math:`2\cdot 10^{-3} n^{-11} < 2\cdot10^{-16}` absolute); for ``n <= 15`` the definition through
  ``gammaln`` (absolute error about 4e-15).
* :func:`_bd0` - the deviance :math:`x\log(x/\mu) + \mu - x` (Loader 2000): near
  :math:`x = \mu` (:math:`|v| < 0.1`) an odd series, per point to the first :math:`J \le 24` with
  :math:`v^{2J} < 10^{-20}` (remainder below :math:`10^{-20}` of its first term); elsewhere the
  closed form (relative error a few ulp).

Every kernel gives each point's value independently of the other points of its array, so values
computed once over a range (a law's log-masses, :func:`_stirlerr_int`'s table of Stirling's error at
the integers) are the values of a direct call.  No closed form of a law lives here.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike
from .._lazy import lazy

if TYPE_CHECKING:
    import mpmath
else:
    mpmath = lazy("mpmath")  # imported at first use: the float path never needs it




# ---- sums of sqrt(k) by the Euler-Maclaurin formula (wide uniform laws) ------------------------

EM_START = 64  # below, sums are direct; from here the Euler-Maclaurin series converges fast


def _sqrt_power_derivative(i: int) -> float:
    """``d^i/dt^i t^(1/2) = D_i t^(1/2 - i)``: the coefficient ``D_i = (1/2)(−1/2)…(3/2 − i)``."""
    return math.prod(0.5 - j for j in range(i))


def _em_sqrt_diff(hi: np.ndarray | int, lo: np.ndarray | int, precision: int | None) -> Any:
    r""":math:`\sum_{lo < k \le hi} \sqrt k` for integers ``EM_START - 1 <= lo <= hi`` (Euler–Maclaurin).

    .. math:: \sum_{k=1}^{t}\sqrt k = \zeta(-\tfrac12) + \tfrac23 t^{3/2} + \tfrac12 t^{1/2}
              + \sum_{j \ge 1} \frac{B_{2j}}{(2j)!} D_{2j-1}\, t^{3/2-2j}

    The difference of two such expansions cancels :math:`\zeta(-1/2)`; its leading part
    :math:`\tfrac23(h^{3/2} - l^{3/2}) = \tfrac23 (h-l)(h+\sqrt{hl}+l)/(\sqrt h+\sqrt l)` is
    computed without cancellation.  At :math:`t \ge 63` the terms fall by a factor
    :math:`\approx (2\pi t)^{-2}` each: 5 terms reach 1e-16 in float64; the mpmath path adds
    terms until they are below its precision.
    """
    if precision is None:
        h, l = np.asarray(hi, dtype=float), np.asarray(lo, dtype=float)
        sh, sl = np.sqrt(h), np.sqrt(l)
        diff = np.asarray(hi - lo, dtype=float)
        out = (2.0 / 3.0) * diff * (h + sh * sl + l) / (sh + sl) + 0.5 * diff / (sh + sl)
        for j in range(1, 5):
            c = float(mpmath.bernoulli(2 * j) / mpmath.factorial(2 * j)) * _sqrt_power_derivative(2 * j - 1)
            out = out + c * (h ** (1.5 - 2 * j) - l ** (1.5 - 2 * j))
        return out
    # the leading parts by the same cancellation-free identities as in float64; then one power per term
    h, l, d = mpmath.mpf(int(hi)), mpmath.mpf(int(lo)), int(hi) - int(lo)
    sh, sl = mpmath.sqrt(h), mpmath.sqrt(l)
    out = mpmath.mpf(2) / 3 * d * (h + sh * sl + l) / (sh + sl) + d / (2 * (sh + sl))
    tol = mpmath.mpf(10) ** (-(mpmath.mp.dps + 5)) * abs(out)
    ph, pl, ih, il = h * sh, l * sl, 1 / (h * h), 1 / (l * l)  # t^(3/2 - 2j), j = 0, 1, ...
    for j in range(1, 200):
        ph, pl = ph * ih, pl * il
        term = _em_sqrt_coef(j) * (ph - pl)
        out += term
        if abs(term) <= tol:
            break
    return out


def _sqrt_prefix() -> list:
    r""":math:`\sum_{k \le t}\sqrt k`, ``t = 0..EM_START - 1``, at the working precision plus 5 digits (cached)."""
    dps = mpmath.mp.dps
    if dps not in _SQRT_PREFIX:
        with mpmath.workdps(dps + 5):
            out, acc = [mpmath.mpf(0)], mpmath.mpf(0)
            for k in range(1, EM_START):
                acc += mpmath.sqrt(k)
                out.append(acc)
        _SQRT_PREFIX[dps] = out
    return _SQRT_PREFIX[dps]


_SQRT_PREFIX: dict[int, list] = {}


def _em_sqrt_coef(j: int) -> Any:
    r""":math:`\frac{B_{2j}}{(2j)!} D_{2j-1}` at the working precision, :math:`D_i` exact (cached per precision)."""
    key = (j, mpmath.mp.dps)
    if key not in _EM_SQRT_COEF:
        n = 2 * j - 1  # D_n = (1/2)(-1/2)...(3/2 - n) = prod(1 - 2i) / 2^n, an exact rational
        num = math.prod(1 - 2 * i for i in range(n))
        _EM_SQRT_COEF[key] = mpmath.bernoulli(2 * j) / mpmath.factorial(2 * j) * mpmath.ldexp(mpmath.mpf(num), -n)
    return _EM_SQRT_COEF[key]


_EM_SQRT_COEF: dict[tuple[int, int], Any] = {}


def _sqrt_sum(lo: int, a: Any, precision: int | None) -> Any:
    r""":math:`\sum_{k=lo}^{a}\sqrt k` (0 for ``a < lo``), direct below ``EM_START``, Euler–Maclaurin above."""
    if precision is None:
        a = np.asarray(a, dtype=np.int64)
        small = np.cumsum(np.sqrt(np.arange(EM_START, dtype=float)))  # small[t] = sum_{k<=t} sqrt k
        top = np.clip(a, lo - 1, None)
        # direct part over [lo, min(top, EM_START - 1)]
        d_hi = np.minimum(top, EM_START - 1)
        direct = np.where(d_hi >= lo, small[np.clip(d_hi, 0, EM_START - 1)] - (small[lo - 1] if lo >= 1 else 0.0), 0.0) \
            if lo < EM_START else np.zeros(a.shape)
        base = max(lo - 1, EM_START - 1)
        tail = np.where(top > base, _em_sqrt_diff(np.maximum(top, base), base, None), 0.0)
        return direct + tail
    a = int(a)
    if a < lo:
        return mpmath.mpf(0)
    direct = mpmath.mpf(0)
    if lo < EM_START:  # prefix sums held at 5 more digits: their difference loses at most 2.6
        prefix = _sqrt_prefix()
        direct = +(prefix[min(a, EM_START - 1)] - prefix[lo - 1])
    base = max(lo - 1, EM_START - 1)
    return direct + (_em_sqrt_diff(a, base, precision) if a > base else 0)



_STIRLING = (1 / 12, 1 / 360, 1 / 1260, 1 / 1680, 1 / 1188)


def _stirlerr(n: ArrayLike) -> np.ndarray:
    r"""Stirling's error :math:`\log n! - \log(\sqrt{2\pi n}(n/e)^n)` for ``n >= 1`` (Loader 2000).

    Series in :math:`1/n` beyond 15 (5 terms: 1e-17); the definition through ``gammaln`` below,
    where every term is O(1) and keeps its digits.
    """
    n = np.asarray(n, dtype=float)
    small = n <= 15
    big = np.where(small, 16.0, n)
    with np.errstate(over="ignore"):  # n beyond 1e154: the series is 1/(12 n), its 1/n^2 terms 0
        inv2 = 1 / (big * big)
    s0, s1, s2, s3, s4 = _STIRLING
    series = (s0 - (s1 - (s2 - (s3 - s4 * inv2) * inv2) * inv2) * inv2) / big
    at = np.flatnonzero(small.reshape(-1))
    if not at.size:
        return series
    # the definition on the few small points (math.lgamma: no scipy at start-up)
    flat = series.reshape(-1)
    v = n.reshape(-1)[at]
    log_gamma = np.array([math.lgamma(t + 1.0) for t in v.tolist()])
    flat[at] = log_gamma - (v + 0.5) * np.log(v) + v - 0.5 * math.log(2 * math.pi)
    return flat.reshape(n.shape)


_STIRLERR_AT: list[np.ndarray] = [np.zeros(0)]  # _stirlerr(k) at k = 0, 1, ... (k = 0: unused, never read)
STIRLERR_POINTS = 2**16  # the integers up to which Stirling's error is remembered (512 KB at most)


def _stirlerr_int(n: np.ndarray | int) -> Any:
    r""":func:`_stirlerr` at integers ``n >= 1`` (an integer array, or one int), read from a table of its values at
    :math:`0, 1, \dots` built once per process (doubled as far as asked, up to ``STIRLERR_POINTS``): the same
    doubles, since :func:`_stirlerr` gives each point's value independently of the others.  A Poisson or
    binomial law's log-masses on a small support then cost no series or ``lgamma``.

    .. math:: \delta(n) = \log n! - \log\big(\sqrt{2\pi n}\,(n/e)^n\big)

    Examples
    --------
    >>> bool(np.array_equal(_stirlerr_int(np.array([1, 15, 16, 900])), _stirlerr(np.array([1.0, 15.0, 16.0, 900.0]))))
    True
    """
    if type(n) is int and 1 <= n < len(_STIRLERR_AT[0]):  # one integer in the table: its entry (the same double)
        return _STIRLERR_AT[0][n]
    n = np.asarray(n)
    top = int(n.max()) if n.size else 0
    if top >= STIRLERR_POINTS or (n.size and int(n.min()) < 1):
        return _stirlerr(n.astype(float))
    table = _STIRLERR_AT[0]
    if top >= len(table):
        size = max(2 * len(table), top + 1, 256)
        grown = np.zeros(min(size, STIRLERR_POINTS))
        grown[1:] = _stirlerr(np.arange(1, len(grown), dtype=float))
        _STIRLERR_AT[0] = table = grown
    return table[n]


def _bd0(x: ArrayLike, mu: float, *, span: tuple[int, int] | None = None) -> np.ndarray:
    r"""Deviance term :math:`x\log(x/\mu) + \mu - x \ge 0` without cancellation (Loader 2000).

    For :math:`|x - \mu| < 0.1(x + \mu)`, with :math:`v = (x-\mu)/(x+\mu)`:
    :math:`(x-\mu)v + 2x\sum_{j \ge 1} v^{2j+1}/(2j+1)`, summed to the first :math:`J \le 24` with
    :math:`(v^2)^J < 10^{-20}`, per point: the rest is below :math:`10^{-20}` of the first term, since each
    term is at most :math:`v^2` times the one before.  Each value depends on its own point alone (not on the
    other points of the array), so a log-mass computed once over a range serves every later query inside it.
    ``span = (a, b)``: ``x`` is the consecutive integers from ``a`` to ``b`` (either way, a range of sizes): the
    near points are the few integers of :math:`[0.8\mu, 1.25\mu]` that pass the same test in Python floats (the
    same IEEE operations: the same points, the same values), without the array's passes.

    .. math:: \mathrm{bd0}(x, \mu) = x\log\frac{x}{\mu} + \mu - x = (x - \mu)v + 2x\sum_{j\ge1}\frac{v^{2j+1}}{2j+1}

    Source: Loader (2000), *Fast and accurate computation of binomial probabilities*, eq. (5.2).

    Examples
    --------
    >>> float(_bd0(np.array([5.0]), 5.0)[0]), round(float(_bd0(np.array([10.0]), 5.0)[0]), 12)
    (0.0, 1.931471805599)
    """
    x = np.asarray(x, dtype=float)
    if span is not None:
        x_min, x_max = (min(span), max(span)) if x.size else (0, 0)
    elif x.size:
        x_min, x_max = x.min(), x.max()
    if 2.0**-900 < mu < 2.0**64 and x.size and x_min >= 2.0**-64 and x_max < 2.0**64:  # a law's points
        # x log(x/mu) from the ratio (rounded once, its log to an ulp): x log x - x log mu cancels where x is
        # near mu and loses up to 1.6e-13 of bd0 at mu ~ 1e9; no overflow or underflow of x/mu in this range
        out = x * np.log(x / mu) + mu - x
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            x_log_x = np.where(x > 0, x * np.log(np.where(x > 0, x, 1.0)), 0.0)  # 0 log 0 = 0
            x_log_mu = np.where(x > 0, x * np.log(np.float64(mu)), 0.0)  # mu = 0 (p = 1): -inf where x > 0
            out = x_log_x - x_log_mu + mu - x  # x log(x/mu), no overflow in x/mu
    near = _near_span(span, mu) if span is not None else None
    if near is None:
        near = np.flatnonzero(np.abs(x - mu).reshape(-1) < (0.1 * (x + mu)).reshape(-1))
    if not near.size:
        return out
    out = out.reshape(-1)  # a fresh array: written in place
    xs = x.reshape(-1)[near]
    if near.size <= _BD0_SCALAR:  # a few points (a light law's mode): the series in Python floats, same operations
        vals = [_bd0_near(xi, mu) for xi in xs.tolist()]
        out[near] = vals
        return out.reshape(x.shape)
    v = (xs - mu) / (xs + mu)
    acc = (xs - mu) * v
    v2 = v * v
    with np.errstate(divide="ignore"):
        terms = np.where(v2 >= 0.01, 24, np.minimum(24, np.maximum(1, np.ceil(-20 / np.log10(v2)))))
    terms = np.where(v2 > 0, terms, 0)
    ej = 2 * xs * v
    for j in range(1, int(terms.max()) + 1):
        ej = ej * v2
        acc = np.where(terms >= j, acc + ej / (2 * j + 1), acc)
    out[near] = acc
    return out.reshape(x.shape)


def _near_span(span: tuple[int, int], mu: float) -> np.ndarray | None:
    r"""The indices in the integers ``span[0]..span[1]`` (either way) where :math:`|x - \mu| < 0.1(x + \mu)`, by
    that test in Python floats on the integers of :math:`[0.8\mu, 1.25\mu]` (around :math:`(9\mu/11, 11\mu/9)`,
    where it holds); ``None`` past 64 such integers (the array's test is then cheaper)."""
    a, b = span
    lo, hi = max(min(a, b), math.floor(0.8 * mu)), min(max(a, b), math.ceil(1.25 * mu))
    if hi - lo > 64:
        return None
    near = [abs(j - a) for j in range(lo, hi + 1) if abs(float(j) - mu) < 0.1 * (float(j) + mu)]
    return np.array(sorted(near), dtype=np.int64)


_BD0_SCALAR = 32  # near points up to this many: the series point by point in Python floats


def _bd0_near(x: float, mu: float) -> float:
    """:func:`_bd0`'s series at one point with :math:`|x - \\mu| < 0.1(x + \\mu)` (the operations of the array path)."""
    v = (x - mu) / (x + mu)
    acc = (x - mu) * v
    v2 = v * v
    if v2 <= 0:
        return acc
    terms = 24 if v2 >= 0.01 else min(24, max(1, math.ceil(-20 / math.log10(v2))))
    ej = 2 * x * v
    for odd in _ODD[:terms]:  # 2j + 1 for j = 1..terms, as floats (exact)
        ej = ej * v2
        acc = acc + ej / odd
    return acc


_ODD = [2.0 * j + 1 for j in range(1, 25)]
