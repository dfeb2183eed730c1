r"""Table-free bulk engine for Poisson and binomial laws whose bulk is wider than a table.

For :math:`X \sim \mathcal P(\lambda)` or :math:`\mathcal B(N, p)` with a standard deviation
:math:`\sigma` in the millions, a table over the bulk would need :math:`\sim 20\sigma` points.
This module answers, at one point :math:`b` and in mpmath (the float64 path takes the cdf from
:func:`log_cdf_pair_float`, a float64 quadrature of the same integral within 1e-14, and the
moment at :data:`FLOAT_DPS` digits), the three quantities every size-law query is made of
(:class:`~bounds.sizes._family.FamilyLaw` maps them to the truncated or shifted law and sums
the masses directly below :math:`\tfrac34 E[X]`, where they fall by a quarter or more per step):

* **The cdf** :math:`F(b) = P(X \le b)` and :math:`S(b) = 1 - F(b)`, from the integral forms of
  the regularised incomplete gamma and beta functions (Abramowitz & Stegun 6.5.2, 26.4.21,
  26.5.24):

  .. math:: P(X \le b) = \frac{1}{b!}\int_\lambda^\infty t^b e^{-t}\,dt, \qquad
            P(\mathrm{Bin}(N, p) > b) = \frac{\int_0^p t^b (1-t)^{N-b-1}\,dt}{B(b+1, N-b)}.

  The side of :math:`b` that is a tail is integrated (the integrand is log-concave and falls
  away from its peak), the other is :math:`1` minus it.  The integral is cut where the
  integrand has fallen by :math:`e^{-L}`, :math:`L = (d + 12)\ln 10`, and the rest is bounded
  by concavity, :math:`\int_u^\infty e^{\psi} \le e^{\psi(u)}/|\psi'(u)|`; the kept range is
  integrated by mpmath's tanh-sinh quadrature (one interval, or where its error estimate is too
  large, pieces of doubling width from the limit) with 15 guard digits plus the digits of
  :math:`\log_{10}\max(b, \lambda, N)` (the log-integrand is a difference of terms of that
  size).  The quadrature's own error estimate must be below :math:`10^{-(d+10)}` of the value,
  else ``ArithmeticError``: this part of the error is an estimate, not a proof.

* **The truncated moment** :math:`G_s(b) = E[\sqrt{X+s}\,\mathbb 1\{X \le b\}]`
  (:math:`s = 0, 1`) by a Taylor expansion of :math:`\sqrt{x+s}` at a centre :math:`c` and the
  exact truncated central moments :math:`M_j(b) = E[(X-c)^j\mathbb 1\{X\le b\}]`.  These come
  from Stein's identities :math:`E[X g(X)] = \lambda E[g(X+1)]` (Poisson) and
  :math:`q\,E[X g(X)] = p\,E[(N-X) g(X+1)]` (binomial; Johnson, Kemp & Kotz 2005, §3.3, §4.3,
  the recurrences of the factorial moments) restricted to :math:`\{X \le b\}`:

  .. math:: M_j = (\lambda - c) M_{j-1} + \lambda \sum_{i=0}^{j-2}\binom{j-1}{i} M_i
                  - \lambda (b + 1 - c)^{j-1} P(X = b),

  .. math:: M_j = (Np - c - p(j-1)) M_{j-1} + \sum_{i=0}^{j-2}\Big(p(N-c)\binom{j-1}{i}
                  - p\binom{j-1}{i-1}\Big) M_i - p(N-b)(b+1-c)^{j-1} P(X = b),

  with :math:`M_0 = F(b)`: one cdf value and one mass give every moment.

**Error bound of the moment** (proven): with :math:`R_J` the Lagrange remainder of the
:math:`J`-term expansion (:math:`J + 1` even) and :math:`x_0 = (c+s)/2 - s`,

.. math:: |E[R_J(X)\mathbb 1\{X \le b\}]| \le \Big|\binom{1/2}{J+1}\Big|
          \Big(\frac{c+s}{2}\Big)^{1/2-J-1} M_{J+1}(b) + 3\sqrt{c+s}\,P(X < x_0),

since :math:`|(\xi+s)^{1/2-J-1}| \le ((c+s)/2)^{1/2-J-1}` for :math:`X \ge x_0`, and below
:math:`x_0` both :math:`\sqrt{x+s}` and the Taylor polynomial are at most
:math:`\sqrt{c+s}` and :math:`2\sqrt{c+s}` (:math:`\sum_j |\binom{1/2}{j}| = 2`).
:math:`P(X < x_0) \le P(X = k)/(1 - r)` with :math:`k = \lceil x_0 \rceil - 1` and :math:`r`
the ratio :math:`P(X = k-1)/P(X = k) < 1` (log-concavity).  Terms are added until this bound
is below :math:`10^{-(d+8)}` of the sum.  The running bound starts from the cdf's own relative
error (:math:`10^{-(d+10)}`, the quadrature's goal) and carries it through the recurrence with
the roundings.  The recurrence runs with 20 guard digits (plus those of
:math:`\log_{10} b`) and a running (Wilkinson) bound of its rounding error, added to the
remainder; where that bound exceeds half the tolerance the guard digits are doubled.  The centre is
:math:`c = \min(b, E[X])` for :math:`b \ge \tfrac34 E[X]`, so that :math:`M_{J+1}(b)/F(b)` is a
moment of a law of width :math:`\lesssim\sigma` and the terms fall like
:math:`(2\sigma/c)^{J}`, and an error of the cdf reaches the :math:`j`-th term at most
multiplied by :math:`(2(E[X]-b)/b)^j \le (2/3)^j`; below :math:`\tfrac34 E[X]` the caller sums the
masses directly (their ratios are below 3/4 there).  In all, :math:`G_s(b)` is within :math:`10^{-(d+7)}` relative of its
value plus the cdf's quadrature error (an estimate, see above).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from .._lazy import lazy

if TYPE_CHECKING:
    import mpmath
else:
    mpmath = lazy("mpmath")  # imported at first use: the float path never needs it

FLOAT_DPS = 22  # digits of the mpmath evaluation behind a float64 answer
MAX_TERMS = 400  # Taylor terms before the expansion is declared not to converge


@dataclass(frozen=True)
class BulkFamily:
    r"""A Poisson (``N is None``) or binomial base variable :math:`X`, by its parameters.

    .. math:: P(X = k) = e^{-\lambda}\frac{\lambda^k}{k!} \quad\text{or}\quad \binom{N}{k}p^k(1-p)^{N-k}

    Source: Johnson, Kemp & Kotz (2005), §3.2 and §4.2.

    Examples
    --------
    >>> import mpmath
    >>> with mpmath.workdps(20):
    ...     print(mpmath.nstr(mpmath.exp(BulkFamily(5.0, 10, 0.5).logpmf(5)), 12))  # 252 / 1024
    0.24609375
    """

    lam: float  # the mean: lam for Poisson, N p for the binomial
    N: int | None = None
    p: float = 0.0

    def mean(self) -> Any:
        """:math:`E[X]` at the working precision."""
        return mpmath.mpf(self.lam) if self.N is None else self.N * mpmath.mpf(self.p)

    def logpmf(self, k: int) -> Any:
        r""":math:`\log P(X = k)` at the working precision (``-inf`` outside the support)."""
        if k < 0 or (self.N is not None and k > self.N):
            return mpmath.ninf
        if self.N is None:
            return k * mpmath.log(self.lam) - self.lam - mpmath.loggamma(k + 1)
        p = mpmath.mpf(self.p)
        if p == 1:
            return mpmath.mpf(0) if k == self.N else mpmath.ninf
        N = self.N
        return (mpmath.loggamma(N + 1) - mpmath.loggamma(k + 1) - mpmath.loggamma(N - k + 1)
                + k * mpmath.log(p) + (N - k) * mpmath.log1p(-p))

    def down_ratio(self, k: int) -> Any:
        r""":math:`P(X = k-1)/P(X = k)` for :math:`k \ge 1`."""
        if self.N is None:
            return mpmath.mpf(k) / self.lam
        p = mpmath.mpf(self.p)
        return mpmath.mpf(k) * (1 - p) / ((self.N - k + 1) * p)

    def top(self) -> float:
        """The support's largest point (``inf`` for Poisson)."""
        return math.inf if self.N is None else self.N


def _guard(fam: BulkFamily, b: int) -> int:
    """Guard digits: the log-integrands are differences of terms of size ``max(b, lam, N)``."""
    return 15 + int(math.log10(max(b, fam.lam, fam.N or 1, 10)))


def _integrand(fam: BulkFamily, b: int) -> tuple[Any, Any, Any, Any]:
    r"""``(psi, dpsi, d2psi, t0)``: the log-integrand of the incomplete gamma/beta form, its first two
    derivatives and the limit ``t0`` (:math:`\lambda` or :math:`p`)."""
    if fam.N is None:
        lg = mpmath.loggamma(b + 1)
        return ((lambda t: b * mpmath.log(t) - t - lg), (lambda t: b / t - 1), (lambda t: -b / t**2),
                mpmath.mpf(fam.lam))
    N, m = fam.N, fam.N - b - 1
    lb = mpmath.loggamma(b + 1) + mpmath.loggamma(N - b) - mpmath.loggamma(N + 1)
    return ((lambda t: b * mpmath.log(t) + m * mpmath.log1p(-t) - lb),
            (lambda t: b / t - m / (1 - t)), (lambda t: -b / t**2 - m / (1 - t) ** 2), mpmath.mpf(fam.p))


def log_cdf_pair(fam: BulkFamily, b: int) -> tuple[Any, Any]:
    r"""``(log P(X <= b), log P(X > b))`` at the working precision (``b`` an integer).

    The tail side of :math:`b` is the integral of :math:`e^{\psi}` from :math:`t_0` away from
    the peak, cut where :math:`\psi` has fallen by :math:`L`; the other side is
    :math:`\log(1 - e^{\text{tail}})`.

    .. math:: \int_{t_0}^{\infty} e^{\psi(t)}\,dt \le \int_{t_0}^{u} e^{\psi(t)}\,dt
              + \frac{e^{\psi(u)}}{|\psi'(u)|}

    :math:`\psi(t) - \psi(t_0)` cancels about :math:`\log_{10}|\psi(t_0)|` digits: where the quadrature misses its
    goal with the guard digits of ``_guard`` it is done again with 10, then 40 more (``_MORE_GUARD``).

    Source: Abramowitz & Stegun (1964), 6.5.2 and 26.4.21 (Poisson), 26.5.1 and 26.5.24
    (binomial); the concavity bound of the module docstring.

    Examples
    --------
    >>> import mpmath
    >>> with mpmath.workdps(30):
    ...     lc, ls = log_cdf_pair(BulkFamily(4.0), 4)
    ...     print(mpmath.nstr(mpmath.exp(lc), 15))  # e^-4 (1 + 4 + 8 + 32/3 + 32/3)
    0.628836935179874
    """
    dps = mpmath.mp.dps
    if b < 0:
        return mpmath.ninf, mpmath.mpf(0)
    if fam.N is not None and b >= fam.N:
        return mpmath.mpf(0), mpmath.ninf
    for more in _MORE_GUARD[:-1]:  # psi(t) - psi(t0) cancels about log10|psi(t0)| digits: more where that was short
        try:
            return _log_cdf_pair_at(fam, b, dps, dps + _guard(fam, b) + more)
        except ArithmeticError:
            pass
    return _log_cdf_pair_at(fam, b, dps, dps + _guard(fam, b) + _MORE_GUARD[-1])


def _log_cdf_pair_at(fam: BulkFamily, b: int, dps: int, work: int) -> tuple[Any, Any]:
    """:func:`log_cdf_pair` to ``dps`` digits, its integral computed with ``work`` digits."""
    with mpmath.workdps(work):
        psi, dpsi, d2psi, t0 = _integrand(fam, b)
        poisson = fam.N is None
        # the integrand peaks at t = b (Poisson) / b/(N-1) (binomial): integrate away from it
        n_trials = fam.N or 0
        peak = mpmath.mpf(b) if poisson else mpmath.mpf(b) / (n_trials - 1) if n_trials > 1 else mpmath.mpf(0)
        step = 1 if t0 >= peak else -1  # +1: F is the tail (t from t0 up); -1: S is (t from t0 down)
        lo_end, hi_end = (mpmath.mpf(0), mpmath.inf) if poisson else (mpmath.mpf(0), mpmath.mpf(1))
        tail = _tail_integral(psi, dpsi, d2psi, t0, step, lo_end if step < 0 else hi_end, dps)
        other = _mp_log1mexp(tail)
        return (+tail, +other) if step > 0 else (+other, +tail)


_MORE_GUARD = (0, 10, 40)  # extra digits of log_cdf_pair's attempts (the first: the guard of _guard alone)


_GL = {n: np.polynomial.legendre.leggauss(n) for n in (24, 32)}  # Gauss-Legendre nodes and weights on [-1, 1]


def _g(x: np.ndarray) -> np.ndarray:
    """``x - log1p(x)`` (>= 0) without cancellation: its series below 0.1 (20 terms: 0.1^22 / 22)."""
    small = np.abs(x) < 0.1
    xs = np.where(small, x, 0.0)
    acc, pw = np.zeros_like(x), xs * xs
    for k in range(2, 24):
        acc = acc + pw / k if k % 2 == 0 else acc - pw / k
        pw = pw * xs
    with np.errstate(divide="ignore", invalid="ignore"):
        direct = x - np.log1p(np.where(small, 0.0, np.maximum(x, -1.0)))
    return np.where(small, acc, direct)


# relative error bound of an accepted float64 cdf (log_cdf_pair_float), passed on to the moment: the quadrature's
# estimate plus three rounding bounds of about 2.5e-15 each (measured errors: below 3e-16 on the tests' grid)
FLOAT_CDF_ERR = 1e-14
_U = 2.0**-53  # unit roundoff of float64
_QUAD_PIECE_U = 9.0  # roundings of one quadrature term, in units of _U (see log_cdf_pair_float)


def _g_rel_err(x: np.ndarray) -> np.ndarray:
    r"""A bound, in units of :data:`_U`, on the relative rounding error of :func:`_g` at ``x``
    (``x`` itself carrying one rounding).

    Below :math:`|x| = 0.1` the series: its terms fall at least 10-fold, so the roundings of the
    running sum add up to less than :math:`2\sum_k 10^{-k} < 3` units of the sum's leading term,
    and :math:`g(x) \ge 0.93\,x^2/2`: 4 units.  Above, :math:`x - \log(1+x)`: ``log1p`` within
    one ulp (2 units) of its value and one rounding of the difference, relative to :math:`g`,
    :math:`(2|\log(1+x)|)/g + 1`.  The rounding of ``x`` moves :math:`g` by
    :math:`|x g'(x)| = x^2/|1+x|` units of :math:`g`'s scale.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        gx = _g(x)
        lg = np.log1p(np.maximum(x, -1.0))
        direct = 2 * np.abs(lg) / gx + 1
        inp = x * x / np.abs(1 + x) / gx
    out = np.where(np.abs(x) < 0.1, 4.0 + 2.5, direct + inp)
    return np.where(np.isfinite(out), out, np.inf)


def log_cdf_pair_float(fam: BulkFamily, b: int) -> tuple[Any, Any] | None:
    r"""``(log P(X <= b), log P(X > b))`` for the float64 path (mpf, within :data:`FLOAT_CDF_ERR`
    relative in the probabilities), or ``None`` (then :func:`log_cdf_pair`).

    The same integral as :func:`log_cdf_pair`, written relative to its limit :math:`t_0`:
    :math:`e^{\psi(t_0)}` (the mass :math:`P(\mathcal P(\lambda) = b)`, or
    :math:`N\,P(\mathrm{Bin}(N-1, p) = b)`) in mpmath, and

    .. math:: \psi(t_0 \pm u) - \psi(t_0) = \pm u\,\psi'(t_0) - b\,g(\pm u/t_0)
              - m\,g(\mp u/(1-t_0)), \qquad g(x) = x - \log(1+x) \ge 0,

    (:math:`m = N - b - 1`; no :math:`m` term for Poisson) in float64 without cancellation
    (:math:`\psi'(t_0)` from the exact difference :math:`b - (N-1)p` or :math:`b - \lambda`; the
    three terms have one sign), integrated by 32-point Gauss-Legendre on the pieces of doubling width
    of :func:`log_cdf_pair`, each sum of positive terms by ``math.fsum`` (correctly rounded).

    **Acceptance.**  The 24-point rule :math:`Q_{24}` estimates the error of the 32-point one
    (whose error is below :math:`Q_{24}`'s for an analytic integrand): the error of the computed
    :math:`\hat Q_{32}` is at most :math:`|Q_{24} - Q_{32}| + R_{32} \le |\hat Q_{24} - \hat Q_{32}| + R_{24}
    + 2R_{32}`, with :math:`R_n` a first-order bound on the rounding error of the computed sum
    :math:`\hat Q_n = \sum_i t_i`, :math:`t_i = w_i e^{E_i}`:

    .. math:: R_n = u\,\hat Q_n + \sum_i t_i\,\big(9u + \delta E_i + |E'(u_i)|\,\delta u_i\big),

    :math:`u = 2^{-53}`: 9 roundings per term (the node's weight and the piece's half-width, two
    products, ``exp`` within 2 ulps), the error of the exponent
    :math:`\delta E_i = u\,(3|A_i| + (2 + \kappa(x_i))|B_i| + (2 + \kappa(y_i))|C_i| + 2|E_i|)` for its three
    terms :math:`A = \pm u\psi'(t_0)`, :math:`B = -b\,g(x)`, :math:`C = -m\,g(y)` (same sign, so no
    cancellation; :math:`\kappa` from :func:`_g_rel_err`), and the node's own rounding
    :math:`\delta u_i = 5u\,c` on a piece ending at :math:`c`, through the exponent's slope.  The
    bound grows with the number of terms and with the magnitudes summed, not with the platform's last
    ulp.  The value is accepted when :math:`|\hat Q_{24} - \hat Q_{32}| + R_{24} + 2R_{32}
    \le` :data:`FLOAT_CDF_ERR` :math:`\hat Q_{32}`, else ``None``.  The cut tail (below
    :math:`e^{-45}` of the peak, bounded by concavity) and the mpmath prefactor add below
    :math:`10^{-19}`.

    Examples
    --------
    >>> import math
    >>> lc, ls = log_cdf_pair_float(BulkFamily(4.0), 4)
    >>> round(math.exp(float(lc)), 12)  # e^-4 (1 + 4 + 8 + 32/3 + 32/3)
    0.62883693518
    """
    if b < 0 or (fam.N is not None and b >= fam.N):
        return None
    with mpmath.workdps(20 + _guard(fam, b)):
        psi, dpsi, d2psi, t0m = _integrand(fam, b)
        top = psi(t0m)  # log of the integrand at the limit
        if fam.N is None:
            d = (b - mpmath.mpf(fam.lam)) / fam.lam
            step = 1 if b <= fam.lam else -1
        else:
            p = mpmath.mpf(fam.p)
            d = (b - (fam.N - 1) * p) / (p * (1 - p))
            step = 1 if b <= (fam.N - 1) * p else -1
        d2 = abs(d2psi(t0m))
        d, d2 = float(d), float(d2)
    t0 = float(fam.lam) if fam.N is None else float(fam.p)
    m = 0 if fam.N is None else fam.N - b - 1
    room = math.inf if (fam.N is None and step > 0) else (t0 if step < 0 else 1 - t0)

    def expo(u: np.ndarray) -> np.ndarray:
        out = step * u * d - b * _g(step * u / t0)
        if fam.N is not None:
            out = out - m * _g(-step * u / (1 - t0))
        return out

    def expo_err(u: np.ndarray, c_end: np.ndarray, e: np.ndarray) -> np.ndarray:
        """The exponent's rounding bound at the nodes u (pieces ending at c_end), in absolute terms."""
        x = step * u / t0
        A, Bx = np.abs(u * d), b * _g(x)
        err = 3 * np.abs(A) + (2 + _g_rel_err(x)) * Bx + 2 * np.abs(e)
        with np.errstate(divide="ignore", invalid="ignore"):
            slope = abs(d) + b * np.abs(x / (1 + x)) / t0
            if fam.N is not None:
                y = -step * u / (1 - t0)
                err = err + (2 + _g_rel_err(y)) * m * _g(y)
                slope = slope + m * np.abs(y / (1 + y)) / (1 - t0)
        return _U * (err + 5 * c_end * slope)

    h = min(1 / abs(d) if d else math.inf, 1 / math.sqrt(d2))
    ends, w = [0.0], h / 4
    while True:
        if w >= room:
            ends.append(room)
            break
        ends.append(w)
        if float(expo(np.array([w]))[0]) < -45:
            break
        w *= 2
    a, c = np.asarray(ends[:-1]), np.asarray(ends[1:])
    vals, rounding = [], []
    for n in (24, 32):
        x, wt = _GL[n]
        u = (a[:, None] + c[:, None]) / 2 + (c - a)[:, None] / 2 * x[None, :]
        with np.errstate(under="ignore"):
            e = expo(u)
            t = (c - a)[:, None] / 2 * wt[None, :] * np.exp(e)
            err = expo_err(u, np.broadcast_to(c[:, None], u.shape), e)
        q = math.fsum(t.ravel().tolist())
        vals.append(q)
        with np.errstate(invalid="ignore"):  # 0 * inf where a term underflows: no error
            per = np.where(t > 0, t * (_QUAD_PIECE_U * _U + err), 0.0)
        rounding.append(_U * q + math.fsum(per.ravel().tolist()))
    total = vals[1]
    if not total > 0 or not abs(vals[0] - vals[1]) + rounding[0] + 2 * rounding[1] <= FLOAT_CDF_ERR * total:
        return None
    if ends[-1] != room:  # beyond: e^expo / |expo'| (concavity), expo' <= d - ... bounded by its value's slope
        u_end = ends[-1]
        slope = abs(float(expo(np.array([u_end * (1 + 1e-6)]))[0] - float(expo(np.array([u_end]))[0])) / (u_end * 1e-6))
        total += math.exp(float(expo(np.array([u_end]))[0])) / slope
    with mpmath.workdps(20 + _guard(fam, b)):  # in mpmath: a float log near -1e10 would keep 1e-6 of the value
        tail = top + math.log(total)
        other = _mp_log1mexp(tail)
    return (tail, other) if step > 0 else (other, tail)


def _tail_integral(psi: Any, dpsi: Any, d2psi: Any, t0: Any, step: int, end: Any, dps: int) -> Any:
    """log of the integral of exp(psi) from t0 in direction step to end (psi falls that way)."""
    L = (dps + 12) * mpmath.log(10)
    f0, d0 = psi(t0), abs(dpsi(t0))
    # the integrand's scale: 1/|psi'| where it falls steeply, the curvature's width near the peak
    h = min(1 / d0 if d0 > 0 else mpmath.inf, 1 / mpmath.sqrt(abs(d2psi(t0))))
    room = abs(end - t0)
    pts = [t0]
    w = h / 4
    while True:
        if w >= room:
            pts.append(end)
            break
        u = t0 + step * w
        pts.append(u)
        if psi(u) < f0 - L:
            break
        w *= 2
    shift = f0

    def g(t: Any) -> Any:
        return mpmath.exp(psi(t) - shift)

    goal = mpmath.mpf(10) ** (-(dps + 10))
    for nodes in ([pts[0], pts[-1]], pts):  # one interval (3x faster where it converges), else the dyadic pieces
        val, err = mpmath.quad(g, nodes if step > 0 else nodes[::-1], error=True)
        if val > 0 and err <= val * goal:
            break
    else:
        raise ArithmeticError(f"quadrature of a bulk cdf did not reach {dps + 10} digits (error {err}, value {val})")
    last = pts[-1]
    rest = mpmath.mpf(0)
    if last != end:  # beyond u: exp(psi(u)) / |psi'(u)| (concavity)
        rest = mpmath.exp(psi(last) - shift) / abs(dpsi(last))
    return shift + mpmath.log(val + rest)


def _mp_log1mexp(v: Any) -> Any:
    """log(1 - e^v) for v <= 0 (-inf at 0)."""
    if v >= 0:
        return mpmath.ninf
    return mpmath.log(-mpmath.expm1(v)) if v > -mpmath.log(2) else mpmath.log1p(-mpmath.exp(v))


def _below_bound(fam: BulkFamily, x0: Any) -> Any:
    r"""An upper bound on :math:`P(X < x_0)`: :math:`P(X = k)/(1 - r)`, :math:`k = \lceil x_0\rceil - 1`."""
    k = int(mpmath.ceil(x0)) - 1
    if k < 0:
        return mpmath.mpf(0)
    if k == 0:
        return mpmath.exp(fam.logpmf(0))
    r = fam.down_ratio(k)
    if r >= 1:  # not below the mode: the trivial bound
        return mpmath.mpf(1)
    return mpmath.exp(fam.logpmf(k)) / (1 - r)


def log_sqrt_moment(fam: BulkFamily, b: int | None, s: int, log_cdf: Any, cdf_err: Any = None) -> Any:
    r""":math:`\log E[\sqrt{X+s}\,\mathbb 1\{X \le b\}]` (``b=None``: no truncation) for
    :math:`b \ge \tfrac34 E[X]`, at the working precision, by the expansion of the module docstring.

    .. math:: E[\sqrt{X+s}\,\mathbb 1\{X\le b\}] = \sum_{j=0}^{J}\binom{1/2}{j}(c+s)^{1/2-j} M_j(b)
              + E[R_J(X)\mathbb 1\{X \le b\}]

    ``log_cdf`` is :math:`\log P(X \le b)` (``0`` for ``b=None``), with relative error ``cdf_err``
    (default :math:`10^{-(d+10)}`, the goal of :func:`log_cdf_pair`; ``0``: rounding only).

    Source: Johnson, Kemp & Kotz (2005), §3.3 and §4.3 (moment recurrences from Stein's
    identity); the Lagrange form of Taylor's remainder.

    Examples
    --------
    >>> import mpmath
    >>> with mpmath.workdps(30):  # E[sqrt X] for X ~ Poisson(10^8): sqrt(lam) (1 - 1/(8 lam) ...)
    ...     v = mpmath.exp(log_sqrt_moment(BulkFamily(1e8), None, 0, mpmath.mpf(0)))
    ...     print(mpmath.nstr(v, 20))
    9999.9999874999999453
    """
    dps = mpmath.mp.dps
    mean = fam.mean()
    full = b is None or b >= fam.top()
    if b is not None and not full and 4 * b < 3 * mean:
        raise ValueError(f"b={b}: the expansion covers b >= 3 E[X]/4 only (sum the masses below)")
    guard = 20
    for _ in range(8):  # the rounding bound too large: more guard digits
        with mpmath.workdps(dps + _guard(fam, 0 if b is None else b) + guard):
            out = _expand(fam, b, s, full, log_cdf, mean, dps, cdf_err)
        if out is not None:
            return +out
        guard *= 2
    raise ArithmeticError(f"b={b}: the moment recurrence lost more than {guard} digits")  # pragma: no cover


def _expand(fam: BulkFamily, b: int | None, s: int, full: bool, log_cdf: Any, mean: Any, dps: int,
            cdf_err: Any) -> Any:
    """The expansion at the working precision: its log, or ``None`` where the rounding bound of the
    recurrence exceeds half the tolerance (the caller adds guard digits)."""
    c = mean if full else min(mpmath.mpf(b), mean)
    cs = c + s
    poisson, N = fam.N is None, fam.N or 0
    lam = mean
    p = mpmath.mpf(fam.p)
    if full or b is None:
        bnd = mpmath.mpf(0)
        Mb = mpmath.mpf(0)
        F = mpmath.mpf(1)
    else:
        F = mpmath.exp(log_cdf)
        pmf = mpmath.exp(fam.logpmf(int(b)))
        Mb = mpmath.mpf(b) + 1 - c  # base of the boundary term
        bnd = lam * pmf if poisson else p * (N - b) * pmf
    u = mpmath.eps  # unit roundoff of the working precision
    # moments and running bounds on their errors: the cdf's (the quadrature's goal, 1e-(d+10)) and roundings
    if cdf_err is None:
        cdf_err = mpmath.mpf(10) ** (-(dps + 10))
    M, E = [F], [abs(F) * (u + (0 if full else cdf_err))]
    tol = max(mpmath.mpf(10) ** (-(dps + 8)), 10 * cdf_err)  # float64: the cdf's FLOAT_CDF_ERR sets the goal
    x0 = cs / 2 - s
    low = 3 * mpmath.sqrt(cs) * _below_bound(fam, x0)
    total, err_total = mpmath.sqrt(cs) * F, mpmath.sqrt(cs) * E[0]
    coef = mpmath.sqrt(cs)  # binom(1/2, j) (c+s)^(1/2-j)
    binom_half = mpmath.mpf(1)
    for j in range(1, MAX_TERMS):
        terms = []
        if poisson:
            terms.append((lam - c) * M[j - 1])
            terms.extend(lam * math.comb(j - 1, i) * M[i] for i in range(j - 1))
        else:
            terms.append((p * N - c - p * (j - 1)) * M[j - 1])
            terms.extend((p * (N - c) * math.comb(j - 1, i) - (p * math.comb(j - 1, i - 1) if i else 0)) * M[i]
                         for i in range(j - 1))
        bterm = bnd * Mb ** (j - 1)
        terms.append(-bterm)
        mj = mpmath.fsum(terms)
        # Wilkinson: propagated errors of earlier moments plus this step's roundings
        if poisson:
            prop = abs(lam - c) * E[j - 1] + mpmath.fsum(lam * math.comb(j - 1, i) * E[i] for i in range(j - 1))
        else:
            prop = abs(p * N - c - p * (j - 1)) * E[j - 1] + mpmath.fsum(
                (p * (N - c) * math.comb(j - 1, i) + p * (math.comb(j - 1, i - 1) if i else 0)) * E[i]
                for i in range(j - 1))
        E.append(prop + (j + 3) * u * mpmath.fsum(abs(t) for t in terms) + (j + 3) * u * abs(bterm))
        M.append(mj)
        binom_half = binom_half * (mpmath.mpf(1) / 2 - (j - 1)) / j
        coef = binom_half * mpmath.power(cs, mpmath.mpf(1) / 2 - j)
        if j % 2 == 0:  # M_j >= 0: the remainder of the expansion stopped at j - 1
            rem = abs(coef) * 2 ** (j - mpmath.mpf(1) / 2) * (mj + E[j]) + low
            if total > 0 and 2 * err_total > tol * total:
                return None
            if total > 0 and rem + err_total <= tol * total:
                return mpmath.log(total)
        total += coef * mj
        err_total += abs(coef) * E[j]
    raise ArithmeticError(f"the Taylor expansion of sqrt did not converge within {MAX_TERMS} terms at b={b}")


def search_end(fam: BulkFamily, s: int, tol: float) -> int:
    r"""The smallest ``K`` (in :math:`m = X + s`) with a proven
    :math:`E[\sqrt m\,\mathbb 1\{m > K\}] \le E[m\,\mathbb 1\{m > K\}]/\sqrt{K+1} \le \text{tol}`.

    :math:`E[X\mathbb 1\{X \ge k\}] = \lambda P(X \ge k-1)` (Poisson) and
    :math:`Np\,P(\mathrm{Bin}(N-1, p) \ge k-1)` (binomial), each bounded by Chernoff's
    :math:`P(Y \ge y) \le e^{-n D(y/n\,\|\,p)}` (Poisson: :math:`e^{-\lambda h(y/\lambda)}`,
    :math:`h(u) = u\log u - u + 1`), for :math:`y` above the mean.

    .. math:: E[\sqrt m\,\mathbb 1\{m > K\}] \le \frac{(E[X] + s)\,e^{-\text{rate}(K - s)}}{\sqrt{K+1}}

    Source: Chernoff (1952); Johnson, Kemp & Kotz (2005), §3.3 and §4.3.

    Examples
    --------
    >>> search_end(BulkFamily(1e12), 0, 1e-20) - 10**12 > 9 * 10**6
    True
    """
    mean = fam.lam

    def log_bound(K: int) -> float:
        y = K - s  # X > y - 1 ... m > K means X >= K + 1 - s
        if fam.N is None:
            u = (y) / mean
            rate = mean * (u * math.log(u) - u + 1) if u > 1 else 0.0
        else:
            n, p = fam.N - 1, fam.p
            x = min(y / n, 1.0)
            if x <= p:
                rate = 0.0
            elif x >= 1:
                rate = math.inf
            else:
                rate = n * (x * math.log(x / p) + (1 - x) * math.log((1 - x) / (1 - p)))
        return math.log(mean + s) - rate - 0.5 * math.log(K + 1)

    lo, hi = int(mean) + 1, int(mean) + 2
    while log_bound(hi) > math.log(tol):
        lo, hi = hi, int(mean) + 2 * (hi - int(mean))
    while lo < hi:
        mid = (lo + hi) // 2
        if log_bound(mid) <= math.log(tol):
            hi = mid
        else:
            lo = mid + 1
    top = fam.top() + s
    return int(min(hi, top))
