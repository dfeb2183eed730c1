r"""The geometric law :math:`M(k) = p(1-p)^{k-1}`, by closed forms and series (no table).

**Closed forms** (exact up to rounding, any ``p``): :math:`M(k)`, :math:`P(m > a) = q^a`,
:math:`P(m \le a)`, :math:`E[m] = 1/p`.  **Series**: :math:`E[\sqrt m\,\mathbb 1\{m\le a\}]`
and :math:`E[\sqrt m]` by Euler-Maclaurin with exact incomplete-gamma integrals: 10 Bernoulli
terms, each smaller by about :math:`((\beta + 1/64)/2\pi)^2`, leave below :math:`10^{-16}`
relative in float64; the mpmath path adds terms until one is below :math:`10^{-(d+5)}` (which
caps its precision at 120 digits).  No tabulation.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cached_property
from typing import Any, TYPE_CHECKING, cast

import numpy as np

from ..numerics import check_integer, check_positive
from ._common import _log1mexp, ClosedFormStack, _mp_log, MAX_LISTED, MAX_SIZE, SEARCH_CAP
from ._base import _rebuild, SizeLaw
from ._tables import Table
from ._kernels import _sqrt_power_derivative, EM_START
from ._finite import FiniteLaw
from .._lazy import lazy

if TYPE_CHECKING:
    import mpmath
    from scipy import special
else:
    mpmath = lazy("mpmath")  # imported at first use: the float path never needs it
    special = lazy("scipy.special")


MIN_GEOMETRIC_P = 1e-200  # below, p^-3/2 and the incomplete-gamma integrals leave float64's range
SAMPLE_MIN_P = -math.log(1e-18) / 2**62  # P(m > 2**62) <= 1e-18: exact int64 draws


class GeometricLaw(SizeLaw):
    r"""Geometric law :math:`M(k) = p q^{k-1}` by closed forms (no table, any :math:`p`).

    With :math:`g(t) = \sqrt t\,e^{-\beta t}`, :math:`\beta = -\log q`:
    :math:`E[\sqrt m\,\mathbb 1\{m \le a\}] = p\,e^{\beta} W(a)`, :math:`W(a) = \sum_{k=1}^{a} g(k)`.
    :math:`W` is summed directly for :math:`k < 64`; beyond, for :math:`\beta < 1`, by the
    Euler–Maclaurin formula with the exact integral
    :math:`\int_A^B g = \beta^{-3/2}\big(\gamma(\tfrac32, \beta B) - \gamma(\tfrac32, \beta A)\big)`
    and :math:`B_{2j}` corrections whose size falls like :math:`((\beta + 1/64)/2\pi)^{2j}`
    (the derivatives :math:`g^{(n)}` are exact finite sums).  Past :math:`\beta a \ge 1` the
    sum is taken as :math:`W(\infty) - U(a+1)` with the upper tail
    :math:`U(x) = \sum_{k \ge x} g(k)` in log space (:math:`e^{z}\Gamma(\tfrac32, z) = \sqrt z +
    \tfrac{\sqrt\pi}{2}\mathrm{erfcx}(\sqrt z)`), so deep tails keep their digits.  For
    :math:`\beta \ge 1` the terms beyond 64 are below :math:`e^{-63}` of the first and are summed
    directly to the working precision.
    """

    max_precision = 120  # the mpmath Euler–Maclaurin sums from EM_START = 64 reach about 130 digits

    def __init__(self, p: float) -> None:
        self.p = p
        self.tabulated = False
        self.name, self.params = "geometric", (("p", p),)
        self.support_min, self.support_max = 1, math.inf
        self.log_q = math.log1p(-p)
        self.beta = -self.log_q

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, ("geometric", {"p": self.p}))

    def _sample(self, size: int, rng: np.random.Generator) -> np.ndarray:
        # P(m > 2**62) = q^(2**62): numpy's int64 draws saturate past it, so refuse where that matters
        if MAX_SIZE * self.log_q > math.log(1e-18) and size > 0:
            raise ValueError(f"geometric(p={self.p!r}).sample: a draw exceeds 2**62 with probability "
                             f"{-math.expm1(MAX_SIZE * self.log_q):.3g}; sampling needs p >= {SAMPLE_MIN_P:.3g}")
        return rng.geometric(self.p, size=size)

    def _logpmf(self, k: np.ndarray) -> np.ndarray:
        k = np.asarray(k)
        safe = np.maximum(k, 1).astype(float)
        return np.where(k >= 1, math.log(self.p) + (safe - 1) * self.log_q, -np.inf)

    def _logsf(self, a: np.ndarray) -> np.ndarray:
        return _log_sf(a, self.log_q)

    def _mp_logpmf(self, k: int) -> Any:
        if k < 1:
            return mpmath.ninf
        return mpmath.log(self.p) + (k - 1) * mpmath.log1p(-mpmath.mpf(self.p))

    def _mp_sf(self, a: int) -> Any:
        return mpmath.exp(max(a, 0) * mpmath.log1p(-mpmath.mpf(self.p)))

    def _mean(self, precision: int | None) -> Any:
        return 1 / self.p if precision is None else 1 / mpmath.mpf(self.p)

    def _log_cdf(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        ls = self._log_sf(np.maximum(a, 0), precision)
        return np.where(a < 1, -np.inf, _log1mexp(ls, precision))

    # ---- W(a) = sum_{k<=a} sqrt(k) e^{-beta k} ----------------------------------------------
    def _mp_h(self, n: int, x: Any, beta: Any = None) -> Any:
        """``e^{beta x} g^{(n)}(x)`` in mpmath: the n-th derivative of g without its exponential
        (``beta`` at the current precision may be passed by a caller that has it)."""
        if beta is None:
            beta = -mpmath.log1p(-mpmath.mpf(self.p))
        root, inv = mpmath.sqrt(x), 1 / x
        out, power = mpmath.mpf(0), root  # x^(1/2 - i), by successive division
        for i in range(n + 1):
            out += math.comb(n, i) * (-beta) ** (n - i) * _sqrt_power_derivative(i) * power
            power *= inv
        return out

    @cached_property
    def _em_weights(self) -> np.ndarray:
        """``w_i`` with ``sum_j B_2j/(2j)! h_{2j-1}(x) = sum_i w_i x^(1/2 - i)`` (10 Bernoulli terms)."""
        w = [0.0] * 20
        for j in range(1, 11):
            n = 2 * j - 1
            for i in range(n + 1):
                w[i] += _BERN[j] * _COMB[n][i] * (-self.beta) ** (n - i) * _DERIV[i]
        return np.array(w)

    @cached_property
    def _small_log_w(self) -> np.ndarray:
        k = np.arange(1, EM_START, dtype=float)
        return np.logaddexp.accumulate(0.5 * np.log(k) - self.beta * k)  # log W(1..63)

    @cached_property
    def _direct_tail(self) -> np.ndarray:
        """log of the sums of g(64..127), cumulated from 64 (beta >= 1: the terms past 63 are summed directly)."""
        k = np.arange(EM_START, 2 * EM_START, dtype=float)
        return np.logaddexp.accumulate(0.5 * np.log(k) - self.beta * k)

    @cached_property
    def _float_log_w_total(self) -> float:
        """log W(inf) = log(W(63) + U(64)) in float64, beta < 1 (once per law)."""
        lu = _log_u(np.array(float(EM_START)), self.beta, self.beta**-1.5, self._em_weights)
        return float(np.logaddexp(self._small_log_w[-1], lu))

    @cached_property
    def _em_lower_end(self) -> tuple[Any, float, Any]:
        r"""The lower end A = 64 of the Euler–Maclaurin sums of :math:`W` (once per law): the incomplete
        gamma there, :math:`\sqrt A e^{-\beta A}` and the correction :math:`e^{-\beta A} \sum_j \dots`."""
        beta, A = self.beta, float(EM_START)
        return (special.gammainc(1.5, beta * A), float(np.sqrt(A)) * math.exp(-beta * A),
                math.exp(-beta * A) * _em_correction(A, self._em_weights))

    def _mp_consts(self) -> dict:
        r"""What :meth:`_mp_w` reuses at the working precision (cached per precision): :math:`\beta`,
        the prefix sums of :math:`g(k)` up to where the direct sums stop, the lower end's
        Euler-Maclaurin part and the weights :math:`w_{j,i}` (filled as far as a call needs them)."""
        cache = self.__dict__.setdefault("_mp_consts_cache", {})
        dps = mpmath.mp.dps
        if dps not in cache:
            beta = -mpmath.log1p(-mpmath.mpf(self.p))
            direct = EM_START - 1 if self.beta < 1 else EM_START - 1 + int((dps + 10) * 2.31 / self.beta) + 1
            prefix, acc = [mpmath.mpf(0)], mpmath.mpf(0)
            for k in range(1, direct + 1):
                acc += mpmath.sqrt(k) * mpmath.exp(-beta * k)
                prefix.append(acc)
            c: dict[str, Any] = {"beta": beta, "prefix": prefix, "weights": []}
            if self.beta < 1:
                A = mpmath.mpf(EM_START)
                c["gamma_A"] = _lower_gamma_32(beta * A)
                c["head"] = prefix[EM_START - 1] + mpmath.sqrt(A) * mpmath.exp(-beta * A) / 2
            cache[dps] = c
        return cast(dict, cache[dps])

    def _em_weight(self, c: dict, j: int) -> list:
        r""":math:`w_{j,i}` with :math:`\frac{B_{2j}}{(2j)!} e^{\beta x} g^{(2j-1)}(x) = \sqrt x \sum_i w_{j,i} x^{-i}` (cached)."""
        weights = c["weights"]
        while len(weights) < j:
            jj = len(weights) + 1
            n = 2 * jj - 1
            b = mpmath.bernoulli(2 * jj) / mpmath.factorial(2 * jj)
            weights.append([b * math.comb(n, i) * (-c["beta"]) ** (n - i) * _sqrt_power_derivative(i)
                            for i in range(n + 1)])
        return cast(list, weights[j - 1])

    def _em_term(self, c: dict, j: int, x: Any, inv_powers: list) -> Any:
        r""":math:`\frac{B_{2j}}{(2j)!} e^{\beta x} g^{(2j-1)}(x) / \sqrt x` from the cached weights."""
        w = self._em_weight(c, j)
        while len(inv_powers) < len(w):
            inv_powers.append(inv_powers[-1] * inv_powers[1])
        return mpmath.fsum(wi * pw for wi, pw in zip(w, inv_powers))

    def _mp_w(self, a: int) -> Any:
        r""":math:`W(a) = \sum_{k=1}^{a} \sqrt k\,e^{-\beta k}` at the working precision: cached prefix sums
        where the sum is direct, else Euler-Maclaurin from :math:`A = 64` with the exact integral
        :math:`\beta^{-3/2}(\gamma(\tfrac32, \beta a) - \gamma(\tfrac32, \beta A))`, terms added until one
        is below :math:`10^{-(d+5)}` of the sum."""
        c = self._mp_consts()
        prefix = c["prefix"]
        if a < len(prefix):
            return prefix[a]
        if self.beta >= 1:  # the terms past the prefix are below 10^-(d+10) of it
            return prefix[-1]
        beta = c["beta"]
        B = mpmath.mpf(a)
        decay = mpmath.exp(-beta * B)
        root_b = mpmath.sqrt(B)
        out = c["head"] + beta**-1.5 * (_lower_gamma_32(beta * B) - c["gamma_A"]) + root_b * decay / 2
        tol = mpmath.mpf(10) ** (-(mpmath.mp.dps + 5)) * out
        inv_b = [mpmath.mpf(1), 1 / B]
        for j in range(1, 200):  # the upper end's terms; the lower end's sum is a constant
            term = decay * root_b * self._em_term(c, j, B, inv_b)
            out += term
            if abs(term) <= tol:
                break
        return out - self._em_lower_sum(c)

    def _em_lower_sum(self, c: dict) -> Any:
        r""":math:`\sum_j \frac{B_{2j}}{(2j)!} g^{(2j-1)}(A)`, :math:`A = 64`, terms added until one is below
        :math:`10^{-(d+5)}` of :math:`W(63)` (cached per precision)."""
        if "lower_sum" not in c:
            A = mpmath.mpf(EM_START)
            scale = mpmath.exp(-c["beta"] * A) * mpmath.sqrt(A)
            tol = mpmath.mpf(10) ** (-(mpmath.mp.dps + 5)) * c["prefix"][EM_START - 1]
            total, inv_a = mpmath.mpf(0), [mpmath.mpf(1), 1 / A]
            for j in range(1, 200):
                term = scale * self._em_term(c, j, A, inv_a)
                total += term
                if abs(term) <= tol:
                    break
            c["lower_sum"] = total
        return c["lower_sum"]

    def _mp_w_total(self) -> Any:
        cache = self.__dict__.setdefault("_mp_total", {})
        if mpmath.mp.dps not in cache:
            if self.beta >= 1:
                cache[mpmath.mp.dps] = self._mp_w(MAX_SIZE)
            else:  # W(63) + U(64): the Euler-Maclaurin tail with the upper incomplete gamma
                p = mpmath.mpf(self.p)
                beta = -mpmath.log1p(-p)
                A = mpmath.mpf(EM_START)
                out = self._mp_w(EM_START - 1) + beta**-1.5 * mpmath.gammainc(1.5, beta * A) \
                    + mpmath.sqrt(A) * mpmath.exp(-beta * A) / 2
                tol = mpmath.mpf(10) ** (-(mpmath.mp.dps + 5)) * out
                for j in range(1, 200):
                    term = mpmath.bernoulli(2 * j) / mpmath.factorial(2 * j) * mpmath.exp(-beta * A) \
                        * self._mp_h(2 * j - 1, A)
                    out -= term
                    if abs(term) <= tol:
                        break
                cache[mpmath.mp.dps] = out
        return cache[mpmath.mp.dps]

    def _log_scale(self, precision: int | None) -> Any:
        """log(p e^beta) = log(p/q)."""
        if precision is None:
            return math.log(self.p) - self.log_q
        p = mpmath.mpf(self.p)
        return mpmath.log(p) - mpmath.log1p(-p)

    def _log_partial_sqrt(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        if precision is None:
            return self._stack.query("log_partial_sqrt_mean", np.zeros(np.shape(a), dtype=np.intp), a)
        with mpmath.workdps(precision + GUARD):
            scale = self._log_scale(precision)
            vals = [_mp_log(self._mp_w(int(ai))) + scale if ai >= 1 else mpmath.ninf for ai in np.ravel(a)]
        with mpmath.workdps(precision):
            return np.asarray([+v for v in vals], dtype=object).reshape(np.shape(a))

    def sqrt_mean(self, *, precision: int | None = None) -> Any:
        r""":math:`E[\sqrt m] = \frac{p}{q}\sum_{k \ge 1}\sqrt k\,q^{k}` (exact, Euler–Maclaurin).

        Examples
        --------
        >>> round(float(geometric(1e-6).sqrt_mean() / 1e3), 6)  # ≈ Γ(3/2)/√p = √π/2 · 10^3
        0.886227
        """
        precision = self._precision(precision)
        if precision is None:
            if self.beta >= 1:
                w = float(self._stack._log_w(np.array([2 * EM_START - 1]), np.zeros(1, dtype=np.intp))[0])
            else:
                w = self._float_log_w_total
            return float(np.exp(self._log_scale(None) + w))
        with mpmath.workdps(precision):
            return mpmath.exp(self._log_scale(precision)) * self._mp_w_total()

    def support_points(self, *, precision: int | None = None, upto: int = 1000) -> np.ndarray:
        """The support ``1..upto`` (the support is all of N*; ``upto`` at most 10^7)."""
        self._precision(precision)
        return np.arange(1, check_integer("upto", upto, minimum=1, maximum=MAX_LISTED) + 1, dtype=np.int64)

    def _table(self, precision: int | None) -> Table:  # pragma: no cover - guarded: never tabulated
        raise AssertionError("geometric laws use closed forms, not tables")

    def _search_end(self) -> int:
        return SEARCH_CAP

    def _tail_below(self, tol: float) -> int:
        r"""The first :math:`K \ge 1` with :math:`P(m > K) = q^K \le` ``tol`` (as the float64 closed form gives it),
        capped at ``SEARCH_CAP``: where a scan of the searches may stop (``bounds.dame._scan.prefix``).

        .. math:: K = \lceil \log(\mathrm{tol}) / \log q \rceil
        """
        K = min(max(1, math.ceil(math.log(tol) / self.log_q)), SEARCH_CAP)
        log_tol = math.log(tol)
        while K < SEARCH_CAP and float(K) * self.log_q > log_tol:  # _log_sf at K >= 1 in Python floats: the same double
            K += 1
        return K

    def _light_prefix(self, cap: int, cut_tail: float) -> tuple[int, bool, np.ndarray, float, np.ndarray] | None:
        r"""``(K, True, log M(k) for k = 0..K, log P(m > K), log P(m > a) for a = 0..K)``, ``K`` the cut of
        :meth:`_tail_below` (``cut_tail``), or ``None`` when ``K > cap``: the closed forms on a short range.

        .. math:: \log M(k) = \log p + (k - 1)\log q, \qquad \log P(m > a) = a \log q
        """
        K = self._tail_below(cut_tail)
        if K > cap:
            return None
        a = np.arange(K + 1, dtype=np.int64)
        log_gt = _log_sf(a, self.log_q)
        return K, True, np.asarray(self._logpmf(a), dtype=float), float(log_gt[-1]), log_gt

    def _floor_support(self, a: np.ndarray) -> np.ndarray:
        return np.maximum(np.asarray(a, dtype=np.int64), 0)


def _log_sf(a: Any, log_q: Any) -> np.ndarray:
    """log P(m > a) = a log q (a >= 0), with ``log q`` per point or one for all."""
    return np.maximum(np.asarray(a), 0).astype(float) * log_q


def _em_correction(x: Any, weights: Any) -> np.ndarray:
    """``e^{beta x} sum_j B_2j/(2j)! g^(2j-1)(x)`` in float64: ``sqrt(x) sum_i w_i x^-i`` by Horner's rule (one
    square root), ``weights[i]`` one value or one per point."""
    x = np.asarray(x, dtype=float)
    if x.ndim == 0 and np.ndim(weights) == 1:  # one point of one law (its constants): the same steps in Python floats
        inv_f, acc_f = 1.0 / float(x), 0.0
        for w in np.asarray(weights, dtype=float)[::-1].tolist():
            acc_f = acc_f * inv_f + w
        return np.sqrt(x) * acc_f
    inv, acc = 1.0 / x, np.zeros(x.shape)
    for w in weights[::-1]:
        acc = acc * inv + w
    return np.sqrt(x) * acc


def _log_u(x: np.ndarray, beta: Any, b15: Any, weights: Any) -> np.ndarray:
    """log U(x) = log sum_{k>=x} g(k), x >= EM_START, beta < 1 (Euler–Maclaurin, scaled by e^{beta x});
    ``b15`` = beta^(-3/2)."""
    z = beta * x
    body = b15 * (np.sqrt(z) + 0.5 * math.sqrt(math.pi) * special.erfcx(np.sqrt(z))) + 0.5 * np.sqrt(x)
    return -z + np.log(body - _em_correction(x, weights))


class _GeometricStack(ClosedFormStack):
    r"""The float64 constants of several geometric laws (one row each), for their functionals at pairs
    ``(law g[k], a[k])`` in one pass of array operations: the same operations, point by point, as one law's
    own (a law's float64 functionals are those of its stack of one), so the values are the same bit for bit.

    With :math:`W(a) = \sum_{k \le a} \sqrt k\,e^{-\beta k}`: :math:`\log W` from a table below 64; past it,
    for :math:`\beta \ge 1`, the direct sums to 127 (the terms beyond are below the last float bit); for
    :math:`\beta < 1`, Euler–Maclaurin with the exact incomplete-gamma integral where :math:`\beta a < 1`,
    and :math:`W(\infty) - U(a + 1)` beyond (see :class:`GeometricLaw`).
    """

    def __init__(self, laws: Any) -> None:
        laws = tuple(laws)
        em = [law.beta < 1 for law in laws]
        self.beta = np.array([law.beta for law in laws])
        self.log_q = np.array([law.log_q for law in laws])
        self.log_scale = np.array([law._log_scale(None) for law in laws])
        self.small = np.stack([law._small_log_w for law in laws])
        self.weights = np.stack([law._em_weights for law in laws])
        self.em = np.array(em)
        self.b15 = np.array([law.beta**-1.5 for law in laws])
        self.kint = np.array([law.beta**-1.5 * math.gamma(1.5) for law in laws])  # the integral's factor
        ends = [law._em_lower_end if e else (0.0, 0.0, 0.0) for law, e in zip(laws, em)]
        self.gamma_a, self.edge_a, self.corr_a = (np.array([float(v[i]) for v in ends]) for i in range(3))
        self.total = np.array([law._float_log_w_total if e else 0.0 for law, e in zip(laws, em)])
        self.tail = np.stack([np.zeros(EM_START) if e else law._direct_tail for law, e in zip(laws, em)])

    def _log_gt(self, g: np.ndarray, a: np.ndarray) -> np.ndarray:
        return np.where(a < 1, 0.0, _log_sf(np.maximum(a, 0), self.log_q[g]))

    def _log_s(self, g: np.ndarray, a: np.ndarray) -> np.ndarray:
        r""":math:`\log E[\sqrt m\,\mathbb 1\{m \le a\}] = \log(p e^{\beta}) + \log W(a)`."""
        return np.where(a >= 1, self.log_scale[g] + self._log_w(np.maximum(a, 1), g), -np.inf)

    def _log_w(self, a: np.ndarray, g: np.ndarray) -> np.ndarray:
        out = np.full(a.shape, -np.inf)
        small = (a >= 1) & (a < EM_START)
        out[small] = self.small[g[small], a[small] - 1]
        big = a >= EM_START
        if not np.any(big):
            return out
        gb, ai = g[big], a[big]
        res = np.empty(ai.shape)
        w63 = self.small[gb, -1]
        direct = ~self.em[gb]
        if np.any(direct):  # beta >= 1: terms past 63 are below e^{-63} of the first, summed directly to 127
            idx = np.minimum(ai[direct], 2 * EM_START - 1) - EM_START
            res[direct] = np.logaddexp(w63[direct], self.tail[gb[direct], idx])
        em = ~direct
        if np.any(em):
            ge, ab = gb[em], ai[em].astype(float)
            lower = self.beta[ge] * ab < 1
            r = np.empty(ab.shape)
            if np.any(lower):  # W(63) + sum_{64}^{a} g by Euler-Maclaurin with the lower incomplete gamma
                gl, B = ge[lower], ab[lower]
                beta = self.beta[gl]
                integral = self.kint[gl] * (special.gammainc(1.5, beta * B) - self.gamma_a[gl])
                part = integral + 0.5 * (self.edge_a[gl] + np.sqrt(B) * np.exp(-beta * B))
                part = part + np.exp(-beta * B) * _em_correction(B, self.weights[gl].T) - self.corr_a[gl]
                r[lower] = np.logaddexp(self.small[gl, -1], np.log(part))
            if np.any(~lower):  # W(inf) - U(a+1)
                gu = ge[~lower]
                lu = _log_u(ab[~lower] + 1, self.beta[gu], self.b15[gu], self.weights[gu].T)
                total = self.total[gu]
                r[~lower] = total + _log1mexp(lu - total, None)
            res[em] = r
        out[big] = res
        return out


GUARD = 10  # guard digits of the mpmath path (rounded to the asked precision at the end)


def _lower_gamma_32(z: Any) -> Any:
    r""":math:`\gamma(\tfrac32, z) = \tfrac{\sqrt\pi}{2}\operatorname{erf}(\sqrt z) - \sqrt z\,e^{-z}` at the
    working precision: the two terms agree to about :math:`\log_{10}(1/z)` digits for small ``z``,
    so they are evaluated with that many more (plus 5).

    Source: DLMF 8.4.1 (:math:`\gamma(\tfrac12, z) = \sqrt\pi\,\operatorname{erf}\sqrt z`) and 8.8.1
    (:math:`\gamma(a+1, z) = a\gamma(a, z) - z^a e^{-z}`).

    Examples
    --------
    >>> import mpmath
    >>> with mpmath.workdps(30):
    ...     print(mpmath.nstr(_lower_gamma_32(mpmath.mpf(1e-6)) / mpmath.gammainc(1.5, 0, 1e-6) - 1, 3))
    0.0
    """
    extra = 5 + max(0, int(-mpmath.log10(z)) + 1) if z < 1 else 5
    with mpmath.workdps(mpmath.mp.dps + extra):
        root = mpmath.sqrt(z)
        out = mpmath.sqrt(mpmath.pi) / 2 * mpmath.erf(root) - root * mpmath.exp(-z)
    return +out


# B_2j / (2j)!, j = 1..10, from the Bernoulli numbers B_2 = 1/6, B_4 = -1/30, ... (exact rationals)
_BERNOULLI = (Fraction(1, 6), Fraction(-1, 30), Fraction(1, 42), Fraction(-1, 30), Fraction(5, 66), Fraction(-691, 2730),
              Fraction(7, 6), Fraction(-3617, 510), Fraction(43867, 798), Fraction(-174611, 330))
_BERN = [0.0] + [float(b / math.factorial(2 * j)) for j, b in enumerate(_BERNOULLI, start=1)]
_DERIV = [_sqrt_power_derivative(i) for i in range(20)]  # D_i of the weights (once, not per law)
_COMB = [[math.comb(n, i) for i in range(n + 1)] for n in range(20)]


def geometric(p: float) -> SizeLaw:
    r"""Geometric law on :math:`\mathbb{N}^*`: number of trials to the first success.

    .. math:: M(k) = p(1-p)^{k-1}, \quad P(m > a) = (1-p)^a, \quad E[m] = 1/p

    Every functional is a closed form (a private law class), so ``p`` may be tiny
    (``geometric(1e-7)`` spreads its mass over ~10^9 points).

    Source: a light-tailed law for exploring Pla et al. (2024), Theorems 1–2.

    Examples
    --------
    >>> float(geometric(0.5).prob_gt(3))
    0.125
    """
    p = check_positive("p", p)
    if p < MIN_GEOMETRIC_P:
        raise ValueError(f"p must be at least {MIN_GEOMETRIC_P:g} (E[sqrt m] ~ p^-1/2 and its Euler-Maclaurin "
                         f"integrals stay in float64's range), got {p!r}")
    if p > 1:
        raise ValueError(f"p must be in (0, 1], got {p!r}")
    if p == 1:
        return FiniteLaw("geometric", (("p", p),), [1], [1])
    return GeometricLaw(p)


GeometricLaw._stack_class = _GeometricStack  # the stack class is defined below the law class
