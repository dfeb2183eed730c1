r"""The scipy-backed families: :func:`poisson`, :func:`binomial`, :func:`from_scipy`.

**Closed forms**: Poisson and binomial log-pmfs by Loader's saddle-point form (``_kernels``:
relative error a few 1e-16 in the log, i.e. absolute in the log-pmf about 1e-15 at
:math:`\lambda, N \le 10^{12}`); the Poisson survival function by local sums of those masses
(``_tables``: from :math:`a` up past the mode, else the complement of the masses up to :math:`a`,
each with a proven geometric remainder below ``1e-17`` relative, so no scipy is imported), the
binomial one by the regularised incomplete beta ``scipy.special.betainc`` (float64, boost's
``ibeta``, the code of ``scipy.stats.binom.sf``); both by mpmath's regularised incomplete
gamma/beta at ``d`` digits; means exact.  :func:`from_scipy`: the distribution's ``logpmf``/``logsf``
(its own float64 accuracy; the mpmath path carries those floats exactly).
**Tabulated**: the partial moment and the cdf, cut at the proven bound of ``_tables`` with the
tail first moments :math:`\lambda P(X \ge K)`, :math:`Np\,P(\mathrm{Bin}(N-1,p) \ge K)` and, for
:func:`from_scipy`, a moment bound, the law's survival function on blocks and, for the families
with a closed-form moment generating function (``logser``, ``nbinom``, ``geom``, ``poisson``,
``planck``), Chernoff's bound from it (``_mgf_tail``: geometric tails cut where their mass
ends at any precision).
**Bulk engine**: a Poisson or binomial law whose bulk is too wide for a table (about
:math:`\lambda, Np(1-p) \gtrsim 10^{7}`, to :math:`10^{12}` and beyond) is answered point by point
by ``_bulk`` (see ``_family``), in float64 and at a precision.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable

import numpy as np
from numpy.typing import ArrayLike

from ..numerics import binomial_sf, check_positive, log1mexp
from ._common import MAX_SIZE, _check_size, _log1mexp_float, _plain, _scipy_mean
from ._base import SizeLaw
from ._kernels import STIRLERR_POINTS, _bd0, _stirlerr, _stirlerr_int
from ._bulk import BulkFamily
from ._family import _Family, FamilyLaw
from ._tables import _deep_logsfs, _left_log_sum_many
from .._lazy import lazy

if TYPE_CHECKING:
    import mpmath
else:
    mpmath = lazy("mpmath")  # imported at first use: the float path never needs it


def _neg_inf_below(lo: int) -> Callable[[Callable[[np.ndarray], np.ndarray]], Callable[[ArrayLike], np.ndarray]]:
    """Wrap a log-pmf so that it is ``-inf`` outside ``k >= lo`` (no scipy domain warnings)."""

    def wrap(f: Callable[[np.ndarray], np.ndarray]) -> Callable[[ArrayLike], np.ndarray]:
        def g(k: ArrayLike) -> np.ndarray:
            k = np.asarray(k)
            safe = np.maximum(k, lo)
            return np.where(k >= lo, f(safe), -np.inf)

        return g

    return wrap


class _RangeMemo:
    r"""A log-pmf remembered on one range of integers ``[lo, hi]``: a query inside it is read by index, a query
    near it recomputes the widened range once (its width doubled at least), any other query is computed directly.

    .. math:: \log M(k),\quad lo \le k \le hi

    The wrapped log-pmf must give each point's value independently of the other points of its array (Loader's
    terms do, see ``_kernels``), so a value read from the range is the value a direct call returns, bit for bit.
    A table's construction asks the same masses four or five times (its cut, its points, the tail beyond it):
    one evaluation serves them all.  ``run(lo, hi)``, where given, is ``f`` on the range ``lo..hi`` (``lo >= -1``)
    with the same values, by the same operations on each point (checked in ``tests/test_sizes_scipy.py``).
    """

    def __init__(self, f: Callable[[ArrayLike], np.ndarray], top: float = math.inf,
                 run: Callable[[int, int], np.ndarray] | None = None) -> None:
        self.f, self.top, self.lo, self.hi, self.vals = f, top, 0, -1, np.zeros(0)
        self.run = run if run is not None else (lambda lo, hi: self.f(np.arange(lo, hi + 1, dtype=np.int64)))

    def __call__(self, k: ArrayLike) -> np.ndarray:
        k = np.asarray(k)
        if k.dtype.kind != "i" or not k.size:  # signed integers only (k - lo below is exact there)
            return self.f(k)
        if not self._cover(int(k.min()), int(k.max())):
            return self.f(k)
        return self.vals[k - self.lo]

    def span(self, lo: int, hi: int) -> np.ndarray:
        """The log-pmf on ``lo..hi`` (``lo <= hi``), a new array: the values ``__call__`` gives there."""
        if not self._cover(lo, hi):
            with np.errstate(divide="ignore"):  # log 0 = -inf is exact for a zero probability (as a law's _logpmf)
                return np.asarray(self.f(np.arange(lo, hi + 1, dtype=np.int64)), dtype=float)
        return self.vals[lo - self.lo : hi - self.lo + 1].copy()

    def _cover(self, k_lo: int, k_hi: int) -> bool:
        """Whether the range remembered holds ``[k_lo, k_hi]``, widened first where it can be."""
        if k_lo < self.lo or k_hi > self.hi:
            if self.hi < self.lo:  # the first query: a margin on both sides (a table's next queries lie nearby)
                lo, hi = k_lo - 64, k_hi + 128
            else:
                lo, hi = min(k_lo, self.lo), max(k_hi, self.hi + (self.hi - self.lo + 1))
            lo, hi = max(lo, -1), int(min(hi, self.top + 1))  # one point beyond the support on each side suffices
            if hi - lo + 1 > MEMO_POINTS or k_lo < lo or k_hi > hi:
                return False
            self.lo, self.hi = lo, hi
            self.vals = np.asarray(self.run(lo, hi), dtype=float)
        return True


MEMO_POINTS = 4096
"""Widest range of masses a Poisson or binomial law remembers (a light law's table and its tail fit in it)."""


MAX_POISSON_LAM = float(2**61)
r"""Largest ``lam`` of :func:`poisson`: the bulk, :math:`\lambda \pm 40\sqrt\lambda` (:math:`\pm 6\times10^{10}` here),
stays below the largest size :math:`2^{62}`, and the searches over the infinite support within int64."""


def poisson(lam: float, *, zero: str = "truncate") -> SizeLaw:
    r"""Poisson law of the dataset size, **zero-truncated by default**.

    ``M`` lives on :math:`\mathbb{N}^*`, while :math:`\mathcal{P}(\lambda)` puts
    mass :math:`e^{-\lambda}` on 0: by default ``m = X | X ≥ 1``
    (``zero="truncate"``); ``zero="shift"`` gives ``m = 1 + X``.

    .. math:: M(k) = \frac{e^{-\lambda}\lambda^k / k!}{1 - e^{-\lambda}}, \qquad k \ge 1

    ``lam`` is at most ``MAX_POISSON_LAM`` (:math:`2^{61}`; larger raises ``ValueError``); any positive
    ``lam`` below is answered, down to the smallest subnormal (the law then tends to :math:`\delta_1`).

    Source: Pla et al. (2024), §4.2, Figure 1a (:math:`\mathcal{P}(\lambda_1)`);
    the truncation is the canonical choice of ``docs/choices.md`` §1.5.

    Examples
    --------
    >>> law = poisson(5)
    >>> round(float(law.pmf(1)), 10)  # 5 e^-5 / (1 - e^-5)
    0.0339182...
    >>> float(poisson(5, zero="shift").mean())
    6.0
    """
    lam = check_positive("lam", lam)
    if lam > MAX_POISSON_LAM:
        raise ValueError(f"lam must be at most 2**61 ({MAX_POISSON_LAM:.4g}), got {lam!r}: the law's bulk (about "
                         "lam +- 40 sqrt(lam)) must lie below the largest size 2**62, and its searches within int64")

    @_neg_inf_below(0)
    def raw_logpmf(k: ArrayLike) -> np.ndarray:
        k = np.asarray(k)
        ints = k.dtype.kind in "iu"
        stir = _stirlerr_int(np.maximum(k, 1)) if ints else None  # Stirling's error at integers: a table's values
        k = k.astype(float)
        safe = np.maximum(k, 1.0)
        return np.where(k == 0, -lam, body(safe, _stirlerr(safe) if stir is None else stir))

    def body(x: np.ndarray, stir: np.ndarray, span: tuple[int, int] | None = None) -> np.ndarray:  # log M(k), k >= 1
        return -stir - _bd0(x, lam, span=span) - 0.5 * np.log(2 * math.pi * x)

    def run_logpmf(lo: int, hi: int) -> np.ndarray:  # raw_logpmf on lo..hi (lo >= -1): its operations per point
        out = np.empty(hi - lo + 1)
        first = max(lo, 1)
        out[: first - lo] = [-lam if j == 0 else -np.inf for j in range(lo, min(first, hi + 1))]
        if first <= hi:
            ks = np.arange(first, hi + 1, dtype=np.int64)
            x = ks.astype(float)
            out[first - lo :] = body(x, _stirlerr_int(ks), (first, hi))
        return out

    logpmf = _RangeMemo(raw_logpmf, run=run_logpmf)

    at_zero = _log1mexp_float(-lam)  # a = 0: log P(X >= 1) = log(1 - e^-lam), exactly

    def logsf(a: ArrayLike) -> np.ndarray:
        # local sums of the masses (log-concave, proven remainder): past the mode the tail itself,
        # below it the complement of the masses up to a (at most 1/2 of the mass: no cancellation)
        a = np.asarray(a)
        if a.shape == (1,) and int(a[0]) >= max(mode, 1):  # one point past the mode (a table's tail): its walk
            return _deep_logsfs(logpmf, a)
        out = np.where(a < 0, 0.0, at_zero)
        flat, a_flat = out.reshape(-1).copy(), np.broadcast_to(a, out.shape).reshape(-1)
        up = np.flatnonzero(a_flat >= max(mode, 1))
        if up.size:  # past the mode: every tail in one pass of walks
            flat[up] = _deep_logsfs(logpmf, a_flat[up])
        low = np.flatnonzero((a_flat >= 1) & (a_flat < mode))
        if low.size:  # below the mode: 1 - P(X <= a), the masses up to a summed (short walks in one pass)
            flat[low] = [float(log1mexp(np.array(v))) for v in _left_log_sum_many(logpmf, a_flat[low], 0).tolist()]
        return flat.reshape(out.shape)

    mode = math.floor(lam)

    def mp_logpmf(k: int) -> Any:
        return k * mpmath.log(lam) - lam - mpmath.loggamma(k + 1) if k >= 0 else mpmath.ninf

    fam = _Family(
        logpmf, logsf, (0, math.inf), lam,
        # lam P(X >= K); below the mode P(X >= K) > 1/2 and lam itself is bound enough (no local sum)
        lambda K: lam * math.exp(float(logsf(np.array(K - 1)))) if K - 1 >= mode else lam,
        mp_logpmf,
        lambda a: -mpmath.expm1(-mpmath.mpf(lam)) if a == 0 else mpmath.gammainc(a + 1, 0, lam, regularized=True),
        lambda: mpmath.mpf(lam),
        log_concave=True, sf_in_table=False, sf_walked=True, log_p0=-lam, log_sf0=at_zero,
        mp_ratio=lambda k: mpmath.mpf(lam) / (k + 1),
        sampler=lambda size, rng: rng.poisson(lam, size=size), bulk=BulkFamily(lam),
        mode=max(0, math.ceil(lam) - 1),  # p(k+1)/p(k) = lam/(k+1) > 1 iff k < lam - 1
    )
    law = FamilyLaw("poisson", (("lam", lam), ("zero", zero)), fam, zero)
    law._recipe = ("poisson", {"lam": lam, "zero": zero})
    return law


def binomial(N: int, p: float, *, zero: str = "truncate") -> SizeLaw:
    r"""Binomial law :math:`\mathcal{B}(N, p)` of the dataset size, **zero-truncated by default**.

    .. math:: M(k) = \frac{\binom{N}{k}p^k(1-p)^{N-k}}{1 - (1-p)^N}, \qquad 1 \le k \le N

    Source: Pla et al. (2024), §4.2, Figure 1a (:math:`\mathcal{B}(1000, \lambda_3/1000)`).

    Examples
    --------
    >>> law = binomial(10, 0.5)
    >>> round(float(law.mean()), 9)  # 5 / (1 - 2^-10)
    5.004887586
    """
    N = _check_size("N", N)
    p = check_positive("p", p)
    if p > 1:
        raise ValueError(f"p must be in (0, 1], got {p!r}")

    small = N < STIRLERR_POINTS  # every point's k and N - k exact in float64 and inside the table of Stirling's error
    # once per law (the table's value where N is in it: the same double, without the series' array operations)
    stir_n = _stirlerr_int(N) if small else _stirlerr(float(N))
    top = max(N - 1.0, 1.0)

    def raw_logpmf(k: ArrayLike) -> np.ndarray:
        k = np.asarray(k)
        # k and N - k from the integers: past 2**53 float(k) is rounded (to 1024 at 2**62), and N - float(k)
        # would move the failures N - k of a law near p = 1 by hundreds (its whole bulk)
        clipped = np.minimum(np.maximum(k, 0), N)  # np.clip's values (a minimum and a maximum), without its wrapper
        ki = clipped.astype(np.int64) if np.issubdtype(k.dtype, np.integer) else clipped
        kf = ki.astype(float)
        rest_f = (N - ki).astype(float)
        inner = np.minimum(np.maximum(kf, 1.0), top)
        rest = np.minimum(np.maximum(rest_f, 1.0), top)  # interior points only (N = 1 has none: masked below)
        if small and np.issubdtype(k.dtype, np.integer):  # Stirling's error at integers below 2**16: a table's values
            edge = max(N - 1, 1)
            stir_in = _stirlerr_int(np.minimum(np.maximum(ki, 1), edge))
            stir_rest = _stirlerr_int(np.minimum(np.maximum(N - ki, 1), edge))
        else:
            stir_in, stir_rest = _stirlerr(inner), _stirlerr(rest)
        with np.errstate(divide="ignore"):  # log 0 = -inf is exact at p = 1
            ends = np.where(ki == 0, N * math.log1p(-p) if p < 1 else -np.inf, N * math.log(p))
        out = np.where((ki == 0) | (ki == N), ends, body(inner, rest, stir_in, stir_rest))
        return np.where((k >= 0) & (k <= N), out, -np.inf)

    def run_logpmf(lo: int, hi: int) -> np.ndarray:  # raw_logpmf on lo..hi (lo >= -1): its operations per point
        out = np.full(hi - lo + 1, -np.inf)
        for j, v in ((0, N * math.log1p(-p) if p < 1 else -np.inf), (N, N * math.log(p))):  # the ends
            if lo <= j <= hi:
                out[j - lo] = v
        first, last = max(lo, 1), min(hi, N - 1)
        if first <= last:
            ks = np.arange(first, last + 1, dtype=np.int64)
            inner, rest = ks.astype(float), (N - ks).astype(float)
            if small:
                stir_in, stir_rest = _stirlerr_int(ks), _stirlerr_int(N - ks)
            else:
                stir_in, stir_rest = _stirlerr(inner), _stirlerr(rest)
            spans = ((first, last), (N - first, N - last))
            out[first - lo : last - lo + 1] = body(inner, rest, stir_in, stir_rest, spans)
        return out

    def body(inner: np.ndarray, rest: np.ndarray, stir_in: np.ndarray, stir_rest: np.ndarray,
             spans: tuple[tuple[int, int], tuple[int, int]] | None = None) -> np.ndarray:  # log M(k), 0 < k < N
        span_in, span_rest = (None, None) if spans is None else spans
        with np.errstate(divide="ignore"):  # log 0 = -inf is exact at p = 1
            return (stir_n - stir_in - stir_rest - _bd0(inner, N * p, span=span_in)
                    - _bd0(rest, N * (1 - p), span=span_rest) + 0.5 * np.log(N / (2 * math.pi * inner * rest)))

    logpmf = _RangeMemo(raw_logpmf, N, run=run_logpmf)

    at_zero = _log1mexp_float(N * math.log1p(-p)) if p < 1 else 0.0  # log P(X >= 1), exactly

    def logsf(a: ArrayLike) -> np.ndarray:
        a = np.asarray(a)
        mid = (a > 0) & (a < N)
        inside = np.zeros(a.shape)
        if np.any(mid):  # binomial_sf's arithmetic on its checked inputs (integers: N - a exact past 2**53)
            with np.errstate(divide="ignore"):
                inside = np.log(_binomial_sf_inside(np.clip(a, 0, N - 1), N, p))
        return np.where(a < 0, 0.0, np.where(a >= N, -np.inf, np.where(a == 0, at_zero, inside)))

    def tail_first_moment(K: int) -> float:  # N p P(Bin(N-1, p) >= K)
        if K >= N:
            return 0.0
        if K <= 0:
            return N * p
        return N * p * float(binomial_sf(np.array(K - 1), N - 1, p))

    def mp_logpmf(k: int) -> Any:
        if k < 0 or k > N:
            return mpmath.ninf
        if p == 1:
            return mpmath.mpf(0) if k == N else mpmath.ninf
        return (
            mpmath.loggamma(N + 1) - mpmath.loggamma(k + 1) - mpmath.loggamma(N - k + 1)
            + k * mpmath.log(p) + (N - k) * mpmath.log1p(-mpmath.mpf(p))
        )

    def mp_sf(a: int) -> Any:
        if a >= N:
            return mpmath.mpf(0)
        if p == 1:
            return mpmath.mpf(1)
        if a == 0:  # P(X >= 1) = 1 - (1-p)^N
            return -mpmath.expm1(N * mpmath.log1p(-mpmath.mpf(p)))
        return mpmath.betainc(a + 1, N - a, 0, p, regularized=True)

    fam = _Family(
        logpmf, logsf, (0, N), N * p, tail_first_moment, mp_logpmf, mp_sf,
        lambda: N * mpmath.mpf(p), log_concave=True, sampler=lambda size, rng: rng.binomial(N, p, size=size),
        log_p0=N * math.log1p(-p) if p < 1 else -math.inf,  # logpmf(0)'s own expression
        log_sf0=at_zero,  # logsf(0)'s own value
        mp_ratio=(lambda k: mpmath.mpf(N - k) / (k + 1) * mpmath.mpf(p) / (1 - mpmath.mpf(p))) if p < 1 else None,
        bulk=BulkFamily(N * p, N, p) if p < 1 else None,
        # p(k+1)/p(k) = (N-k) p / ((k+1)(1-p)) > 1 iff k < (N+1) p - 1, decided in exact rationals
        mode=_binomial_mode(N, p),
    )
    law = FamilyLaw("binomial", (("N", N), ("p", p), ("zero", zero)), fam, zero)
    law._recipe = ("binomial", {"N": N, "p": p, "zero": zero})
    return law



def _binomial_mode(N: int, p: float) -> int:
    r"""The smallest mode of :math:`\mathcal B(N, p)`: :math:`\max(0, \lceil (N + 1)p - 1 \rceil)`, since
    :math:`p(k+1)/p(k) = (N-k)p/((k+1)(1-p)) > 1` iff :math:`k < (N+1)p - 1`.  In float64 where :math:`(N+1)p - 1`
    lies farther than a relative ``1e-9`` from an integer (its rounding error is below ``1e-15`` relative: the same
    ceiling), else in exact rationals.

    .. math:: \operatorname{mode} = \max\big(0, \lceil (N + 1)\,p - 1 \rceil\big)

    Examples
    --------
    >>> _binomial_mode(50, 0.3), _binomial_mode(9, 0.5), _binomial_mode(10, 0.5)
    (15, 4, 5)
    """
    t = (N + 1) * p - 1
    if abs(t - round(t)) > 1e-9 * max(1.0, abs(t)):
        return max(0, math.ceil(t))
    return max(0, math.ceil((N + 1) * Fraction(p) - 1))


def _binomial_sf_inside(y: np.ndarray, n: int, p: float) -> np.ndarray:
    r""":func:`bounds.numerics.binomial_sf` at points ``0 <= y < n`` of a law whose ``n`` and ``p`` are checked:
    the same arithmetic (:math:`I_p(y + 1, n - y)`, ``n - y`` from the integers), without its input checks (a
    law asks it at every point of its table).

    .. math:: P(T > y) = I_p(y + 1,\, n - y)

    Source: Abramowitz and Stegun (1964), eq. 26.5.24.
    """
    from scipy import special

    raw = np.asarray(y)
    if np.issubdtype(raw.dtype, np.integer):
        zi = raw.astype(np.int64)
        a_arg, b_arg = (zi + 1).astype(float), (n - zi).astype(float)
    else:
        z = raw.astype(float)
        a_arg, b_arg = z + 1, n - z
    with np.errstate(invalid="ignore"):
        return np.asarray(special.betainc(a_arg, b_arg, p))


def from_scipy(dist: Any, *, zero: str = "error", name: str | None = None) -> SizeLaw:
    r"""Wrap a frozen scipy discrete distribution (e.g. ``scipy.stats.nbinom(5, 0.3)``).

    Float queries call the distribution's ``logpmf``/``logsf``.  The mpmath path
    carries those float64 masses exactly (scipy has no arbitrary-precision form),
    so it verifies the arithmetic, not the masses.  A distribution charging 0
    raises unless ``zero="truncate"`` or ``"shift"``.  A support wider than
    10^4 points is tabulated up to the smallest ``K`` with the proven tail bound of
    ``_tail_first_moment`` (the distribution's own survival function on doubling blocks,
    plus a moment bound past 2**62) below the table's tolerance, so light tails (nbinom,
    logser, poisson, betabinom, hypergeom, randint) are cut where their mass ends; where the
    survival function disagrees with the pmf (an ``sf`` computed as ``1 - cdf``) only the moment
    bound :math:`E[X^r]/K^{r-1}` (``r = 2..6``) is used.  A survival function scipy computes by summing the
    masses from the support's start (zipf, betabinom) is read only up to ``SUMMED_SF_MAX`` = :math:`2^{16}` (the
    moment bound, or one block to the support's end, beyond).  If no moment of order 2 or more is
    finite the tail cannot be bounded and a ``ValueError`` suggests a dedicated constructor.
    A distribution charging negative integers is truncated (``zero="truncate"``) with the mean of
    :math:`X \mid X \ge 1` summed over its support when that support is finite (at most
    ``MAX_NEGATIVE_WIDTH`` points); an infinite one (``skellam``, ``dlaplace``) is refused by a
    ``ValueError`` naming that limit (see ``_positive_part_mean``).

    .. math:: M(k) = P(X = k), \qquad k \ge 1

    Source: the setting of Pla et al. (2024), §2 (any known ``M`` with H1).

    Examples
    --------
    >>> from scipy import stats
    >>> law = from_scipy(stats.nbinom(5, 0.5), zero="shift")
    >>> float(law.mean())
    6.0
    """
    if not all(hasattr(dist, a) for a in ("logpmf", "support", "dist", "args")):  # a frozen one holds dist and args
        raise ValueError(f"dist must be a frozen scipy discrete distribution (rv_discrete(...)() or stats.poisson(3), "
                         f"not the distribution itself), got {dist!r}")
    lo, hi = dist.support()
    mean = _scipy_mean(dist)
    if not math.isfinite(mean):
        raise ValueError(f"{dist.dist.name}{dist.args} has an infinite mean: hypothesis H1 (E[m] < inf) fails")
    if lo < 0 and zero == "truncate":  # m = X | X >= 1 needs E[X 1{X >= 1}], not E[X] (which counts X < 0)
        mean = _positive_part_mean(dist, lo, hi)
    moments = {}
    for r in range(2, 7) if math.isinf(hi) else ():  # a finite support needs none (and scipy sums them slowly)
        with np.errstate(all="ignore"), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            mr = float(dist.moment(r))
        if math.isfinite(mr) and mr >= 0 and not caught:  # a sum scipy says did not converge is no bound
            moments[r] = mr
    if math.isinf(hi) and not moments:
        raise ValueError(
            f"{dist.dist.name}: no finite moment of order >= 2, so the tail cannot be cut with a "
            "proven bound; use bounds.sizes.zipf for power laws"
        )
    top = float(hi)

    chernoff = _mgf_tail(dist) if math.isinf(hi) else None

    def tail_first_moment(K: int) -> float:
        if K < 1:
            return mean
        out = _tail_first_moment(dist, K, top, moments)
        return out if chernoff is None else min(out, chernoff(K))

    support = (int(lo) if math.isfinite(lo) else -math.inf, int(hi) if math.isfinite(hi) else math.inf)
    def logpmf(k: ArrayLike) -> np.ndarray:  # scipy's pmf keeps digits its logpmf loses (binom: 3e-10)
        with np.errstate(divide="ignore", under="ignore"):
            pmf = np.asarray(dist.pmf(k), dtype=float)
            return np.where(pmf > 1e-290, np.log(np.where(pmf > 1e-290, pmf, 1.0)), dist.logpmf(k))

    def logsf(a: ArrayLike) -> np.ndarray:  # P(X >= 1) = 1 - P(X = 0) on N: no 1 - cdf in scipy's sf
        a = np.asarray(a)
        with np.errstate(divide="ignore", under="ignore"):
            out = np.asarray(dist.logsf(a), dtype=float)
            if lo == 0:
                out = np.where(a == 0, log1mexp(np.asarray(logpmf(0), dtype=float)), out)
        return out

    fam = _Family(logpmf, logsf, support, mean, tail_first_moment, sf_in_table=False,
                  sampler=lambda size, rng: np.asarray(dist.rvs(size=size, random_state=rng), dtype=np.int64))
    label = name or f"scipy.{getattr(dist.dist, 'name', 'dist')}"
    params = (("args", tuple(_plain(v) for v in dist.args)), ("zero", zero))
    law = FamilyLaw(label, params, fam, zero)
    law._recipe = ("from_scipy", {"dist": dist, "zero": zero, "name": name})
    return law


MAX_NEGATIVE_WIDTH = 10**6
"""Widest finite support with negative values :func:`from_scipy` truncates (its mean summed point by point)."""


def _positive_part_mean(dist: Any, lo: float, hi: float) -> float:
    r""":math:`E[X\,\mathbb 1\{X \ge 1\}]` of a scipy law with mass on negative integers, for ``zero="truncate"``
    (then :math:`E[m] = E[X\,\mathbb 1\{X \ge 1\}]/P(X \ge 1)`; :math:`E[X]` would count the negative values).

    .. math:: E[X\,\mathbb 1\{X \ge 1\}] = \sum_{k=1}^{hi} k\,P(X = k)

    Summed exactly rounded (``math.fsum``) over a finite support of at most ``MAX_NEGATIVE_WIDTH`` points.  An
    infinite support with negative values (``skellam``, ``dlaplace``) is refused with a ValueError naming the
    limit: neither its mean given ``X >= 1`` nor a proven tail bound of ``X 1{X > K}`` (its odd moments and
    generating function count the negative values too) is available in closed form here;
    ``dlaplace(a)`` given ``X >= 1`` is ``geometric(1 - exp(-a))``.

    Source: the definition of the zero-truncated law (``docs/choices.md`` §1.5).
    """
    name = f"{getattr(dist.dist, 'name', 'dist')}({', '.join(repr(_plain(v)) for v in dist.args)})"
    if math.isinf(hi) or hi - max(lo, 0) > MAX_NEGATIVE_WIDTH:
        where = "an infinite support" if math.isinf(hi) else f"a support of more than {MAX_NEGATIVE_WIDTH} points"
        raise ValueError(
            f"{name} charges negative integers on {where}: "
            "zero='truncate' needs E[X 1{X >= 1}] and a tail bound for X >= 1, which are not available for it "
            "(the mean, odd moments and generating function count the negative values); build the law of "
            "X | X >= 1 directly (dlaplace(a) given X >= 1 is bounds.sizes.geometric(1 - exp(-a)))")
    k = np.arange(1, int(hi) + 1, dtype=np.int64)
    with np.errstate(divide="ignore", under="ignore"):
        return math.fsum((k * np.asarray(dist.pmf(k), dtype=float)).tolist()) if k.size else 0.0


def _tail_first_moment(dist: Any, K: int, hi: float, moments: dict[int, float]) -> float:
    r"""A proven upper bound on :math:`E[X\,\mathbb 1\{X > K\}]` from the law's own survival function.

    With :math:`S(i) = P(X > i)` non-increasing, :math:`E[X\mathbb 1\{X>K\}] = K S(K) + \sum_{i \ge K} S(i)`
    and, on doubling blocks :math:`b_0 = K,\ b_{j+1} = \min(2b_j, hi, 2^{62})`,

    .. math:: \sum_{i \ge K} S(i) \le \sum_j (b_{j+1} - b_j)\,S(b_j) + E[X^r]/b_J^{r-1},

    the last term only past :math:`2^{62}` on an infinite support (Markov: :math:`E[(X-J)^+] \le
    E[X^r]/J^{r-1}`).  Where scipy sums the masses for :math:`S` (no closed form of its own), the blocks stop at
    ``SUMMED_SF_MAX``: Markov's term from there on an infinite support, one block to :math:`hi` on a finite one.
    An underflowed :math:`S(b_j)` counts as the smallest subnormal.  The
    survival function is trusted only where it is at least the sum of the next 64 masses at
    every block start; else the moment bound alone, :math:`\min_r E[X^r]/K^{r-1}`, is returned
    (on a finite support, :math:`hi`: no cut, the whole support is tabulated).
    """
    moment = min((mr / float(K) ** (r - 1) for r, mr in moments.items()), default=math.inf)
    if K >= hi:
        return 0.0
    # scipy's generic survival function sums the masses from the support's start: read it only up to
    # SUMMED_SF_MAX there (a finite support's last block then runs to its end, bounded by S at its start)
    reach = MAX_SIZE if _own_tail(dist) else max(K, SUMMED_SF_MAX)
    ends = [K]
    while ends[-1] < min(hi, reach):
        ends.append(int(min(2 * ends[-1], hi, reach)))
    if ends[-1] < hi <= MAX_SIZE:
        ends.append(int(hi))
    b = np.asarray(ends, dtype=float)
    starts = b[:-1] if len(b) > 1 else b  # S at the blocks' starts (K alone: no block, Markov from K)
    with np.errstate(all="ignore"):
        lsf = np.asarray(dist.logsf(starts), dtype=float)
        near = starts[:, None] + np.arange(1, 65)[None, :]
        lnext = np.logaddexp.reduce(np.asarray(dist.logpmf(near), dtype=float), axis=1)
    floor = math.log(5e-324)
    if np.any(np.isnan(lsf)) or not np.all(np.maximum(lsf, floor) >= lnext - 1e-9):
        return moment if moments else hi
    sf = np.maximum(np.exp(lsf), 5e-324)
    total = K * sf[0] + float(np.sum(np.diff(b) * sf[: len(b) - 1]))
    if ends[-1] < hi:  # stopped short of an infinite support (2**62, or scipy's summed sf): Markov beyond
        last = float(ends[-1])
        total += min((mr / last ** (r - 1) for r, mr in moments.items()), default=math.inf)
    return float(min(total, moment))


SUMMED_SF_MAX = 2**16
"""Largest point at which :func:`from_scipy` reads a survival function that scipy computes by summing the masses
from the support's start (``rv_discrete``'s own ``_cdf`` and ``_sf``: zipf, betabinom): 512 KB of masses a point."""


def _own_tail(dist: Any) -> bool:
    """Whether a frozen scipy discrete distribution has its own survival or distribution function (a closed form
    or a special function), rather than scipy's sum of its masses."""
    from scipy import stats  # loaded already: dist is one of its distributions

    cls, base = type(dist.dist), stats.rv_discrete
    return any(getattr(cls, name) is not getattr(base, name) for name in ("_sf", "_logsf", "_cdf", "_logcdf"))


def _mgf_tail(dist: Any) -> Callable[[int], float] | None:
    r"""Chernoff's bound on :math:`E[X\,\mathbb 1\{X > K\}]` from the closed-form moment generating function
    of a scipy family with a geometric tail (``None`` for the others).

    For :math:`X \ge 0` and :math:`0 \le t < t_{\max}`, :math:`\mathbb 1\{X > K\} \le e^{t(X - K)}`, so

    .. math:: E[X\,\mathbb 1\{X > K\}] \le e^{-tK} M_X'(t), \qquad
              M_X'(t) = e^{tL}\big(L\,M_Y(t) + M_Y'(t)\big)\quad (X = Y + L),

    minimised over a grid of :math:`t` (each point a valid bound).  :math:`M_Y` of ``logser(p)``:
    :math:`\log(1 - pe^t)/\log(1-p)`; ``nbinom(n, p)``: :math:`(p/(1-(1-p)e^t))^n`; ``geom(p)``:
    :math:`pe^t/(1-(1-p)e^t)`; ``poisson(mu)``: :math:`e^{\mu(e^t-1)}`; ``planck(l)``:
    :math:`(1-e^{-l})/(1-e^{t-l})`.  Evaluated in float64 (a few ulps), then enlarged by ``1e-9``.

    Source: Chernoff (1952); the generating functions of Johnson, Kemp & Kotz (2005), §3.2, §5.1, §5.2, §7.1.

    Examples
    --------
    >>> from scipy import stats
    >>> bound = _mgf_tail(stats.geom(0.5))  # E[X 1{X > 60}] = sum_{k > 60} k 2^-k = 62 / 2^60
    >>> 62 / 2**60 <= bound(60) <= 1e-14
    True
    """
    name = getattr(getattr(dist, "dist", None), "name", None)
    try:
        shapes, loc, _ = dist.dist._parse_args(*dist.args, **dist.kwds)
        shapes, loc = tuple(float(v) for v in shapes), float(loc)
    except (AttributeError, TypeError, ValueError):
        return None
    if loc < 0 or loc != int(loc):
        return None
    if name == "logser" and 0 < shapes[0] < 1:
        p = shapes[0]
        t_max = -math.log(p)

        def log_m(t: float) -> tuple[float, float]:  # (log M_Y, log M_Y')
            return (math.log(math.log1p(-p * math.exp(t)) / math.log1p(-p)),
                    math.log(p) + t - math.log1p(-p * math.exp(t)) - math.log(-math.log1p(-p)))
    elif name in ("nbinom", "geom") and 0 < shapes[-1] < 1 and (name == "geom" or shapes[0] > 0):
        n, p = (shapes[0], shapes[1]) if name == "nbinom" else (1.0, shapes[0])
        t_max = -math.log1p(-p)
        lift = 1.0 if name == "geom" else 0.0  # geom lives on 1, 2, ...: M = e^t x nbinom(1, p)'s

        def log_m(t: float) -> tuple[float, float]:
            den = math.log1p(-(1 - p) * math.exp(t))
            lm = n * (math.log(p) - den) + lift * t
            return lm, lm + math.log(n * (1 - p) * math.exp(t - den) + lift)
    elif name == "poisson" and shapes[0] > 0:
        mu = shapes[0]
        t_max = math.inf

        def log_m(t: float) -> tuple[float, float]:
            lm = mu * math.expm1(t)
            return lm, lm + math.log(mu) + t
    elif name == "planck" and shapes[0] > 0:
        lam = shapes[0]
        t_max = lam

        def log_m(t: float) -> tuple[float, float]:
            lm = math.log(-math.expm1(-lam)) - math.log(-math.expm1(t - lam))
            return lm, lm + (t - lam) - math.log(-math.expm1(t - lam))
    else:
        return None
    if math.isinf(t_max):
        grid = [float(v) for v in np.geomspace(1e-6, 50.0, 120)]
    else:
        grid = [t_max * (1 - 2.0**-j) for j in range(1, 53)] + [t_max * j / 64 for j in range(1, 64)]

    def bound(K: int) -> float:
        best = math.inf
        with np.errstate(all="ignore"):
            for t in grid:
                try:
                    lm, lm1 = log_m(t)
                    lead = math.log(loc * math.exp(lm) + math.exp(lm1)) if loc else lm1
                except (ValueError, OverflowError):
                    continue
                val = t * loc + lead - t * K
                if math.isfinite(val):
                    best = min(best, val)
        if best == math.inf:
            return math.inf
        return math.exp(best) * (1 + 1e-9) if best < 700 else math.inf

    return bound
