r"""Exact RMSE of the deployable central releases, and their bounds tuned on it.

Every central release here estimates the **dataset's mean** :math:`\bar x = \sum_i S_i / M` (``S_i``
the sum of user ``i``'s ``m_i`` values in :math:`[0, U]`, :math:`M = \sum_i m_i`) and adds Laplace
noise scaled to its sensitivity, the counts being public (the papers' neighbouring relation: one
user's values replaced).  Its error is a sum of independent per-user terms plus the noise, so

.. math:: \mathrm{MSE} = \frac{\big(\sum_i E D_i\big)^2 + \sum_i \mathrm{Var}\,D_i}{M^2}
          + 2\Big(\frac{\Delta}{\varepsilon}\Big)^2

exactly, where :math:`D_i` is what the release does to user ``i``'s sum.  Two error models
(``CentralData``):

* ``"values"``: the data's own values: every :math:`D_i` is fixed (its variance is 0, or the
  sampling variance of the records kept) — the error of the release **on these data**;
* ``"synthetic"``: the named law :data:`SYNTHETIC_LAW` on the counts alone: each user's values all
  equal, ``U`` with probability :math:`q = (1+\theta)/2`, else 0.  It puts every user's sum at an end
  of its range (where clipping bites most) and makes every moment a sum over the distinct counts.

A bound ``b`` moves each :math:`D_i` by a multiple of :math:`(r_i - b)_+` for a user-specific
:math:`r_i`, so :math:`M^2\,\mathrm{MSE}(b)` is a piecewise quadratic in ``b`` with kinks at the
:math:`r_i`: it is minimised **exactly** over every real :math:`b \in [0, U m^*]` by evaluating it at
the kinks, at 0, at :math:`U m^*` and at each piece's stationary point (``minimise``).  Ties:
the smallest bound.  After sorting the kinks this is :math:`O(J)` for ``J`` distinct counts
(synthetic) or users (values).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .inputs import Histogram

__all__ = ["SYNTHETIC_LAW", "MAX_K_GRID"]  # its functions serve advise, which validates their inputs

SYNTHETIC_LAW = ("user-constant two-point law: each user's values all equal, U with probability (1+θ)/2, else 0 "
                 "(every sum at an end of its range)")
"""The named synthetic law of the central errors when no values are given."""

MAX_K_GRID = 10**6
"""Record caps ``k`` are searched over every integer up to the largest count when it is at most this, else over
the distinct counts."""


@dataclass(frozen=True, eq=False)
class CentralData:
    r"""What the central errors are computed on: per group, a count ``d``, a multiplicity ``c`` and (values) sums.

    ``kind`` is ``"synthetic"`` (groups = distinct counts, the law :data:`SYNTHETIC_LAW` with ``theta``) or
    ``"values"`` (groups = users: ``sums`` :math:`S_i`, ``within`` :math:`\sum_t (x_{it} - \bar x_i)^2`).
    """

    kind: str
    U: float
    counts: np.ndarray
    users: np.ndarray
    theta: float = 0.0
    sums: np.ndarray | None = None
    within: np.ndarray | None = None
    description: str = ""

    @property
    def records(self) -> float:
        """:math:`M = \\sum_i m_i`."""
        return float(np.dot(self.counts.astype(float), self.users.astype(float)))

    @property
    def S(self) -> np.ndarray:
        """The users' sums (values model)."""
        if self.sums is None:
            raise ValueError("data: no values (a synthetic model)")
        return self.sums

    @property
    def W(self) -> np.ndarray:
        """The users' within spreads (values model)."""
        if self.within is None:
            raise ValueError("data: no values (a synthetic model)")
        return self.within

    @property
    def m_max(self) -> int:
        """The largest count :math:`m^*`."""
        return int(self.counts.max())


def synthetic(h: Histogram, *, U: float, theta: float) -> CentralData:
    """The synthetic model on a histogram (:data:`SYNTHETIC_LAW`, mean ``U(1+θ)/2``).

    Examples
    --------
    >>> synthetic(Histogram.of_counts([1, 2, 2]), U=1.0, theta=0.3).records
    5.0
    """
    return CentralData("synthetic", float(U), h.counts.astype(np.int64), h.users.astype(np.int64), float(theta),
                       description=f"{SYNTHETIC_LAW}, θ = {theta:g}")


def from_values(counts: np.ndarray, sums: np.ndarray, squares: np.ndarray, *, U: float,
                description: str = "the data's values") -> CentralData:
    r"""The values model: per user its count, sum and sum of squares (within-user spread
    :math:`\sum_t x_t^2 - S^2/m`, clipped at 0 against rounding).

    Examples
    --------
    >>> d = from_values(np.array([2, 1]), np.array([1.0, 1.0]), np.array([1.0, 1.0]), U=1.0)
    >>> d.within.tolist(), d.records
    ([0.5, 0.0], 3.0)
    """
    m = np.asarray(counts, dtype=np.int64)
    s = np.asarray(sums, dtype=float)
    w = np.maximum(np.asarray(squares, dtype=float) - s * s / m, 0.0)
    return CentralData("values", float(U), m, np.ones_like(m), sums=s, within=w, description=description)


@dataclass(frozen=True)
class Tuned:
    """A bound minimising the exact MSE: ``bound``, its ``mse``, and every evaluated ``(candidates, mse)``."""

    bound: float
    mse: float
    candidates: np.ndarray
    mses: np.ndarray


class PiecewiseQuadratic:
    r""":math:`F(b) = \big(\sum_a w^\mu_a (r_a - b)_+\big)^2 + \sum_a w^\sigma_a (r_a - b)_+^2 + \kappa b^2` on
    :math:`[0, b_{max}]`, evaluated in :math:`O(\log A)` per point after an :math:`O(A \log A)` sort."""

    def __init__(self, r: np.ndarray, w_mean: np.ndarray, w_var: np.ndarray, kappa: float, b_max: float) -> None:
        order = np.argsort(r, kind="stable")
        r, wm, wv = (np.asarray(a, dtype=float)[order] for a in (r, w_mean, w_var))
        self.u, first = np.unique(r, return_index=True)
        agg = [np.add.reduceat(x, first) if r.size else np.zeros(0) for x in (wm, wm * r, wv, wv * r, wv * r * r)]
        # suffix sums from index k (kinks >= u_k), with a zero row at the end
        self.suf = [np.concatenate([np.cumsum(a[::-1])[::-1], [0.0]]) for a in agg]
        self.kappa, self.b_max = float(kappa), float(b_max)

    def moments(self, b: np.ndarray | float) -> tuple[Any, Any, Any]:
        r"""``(mean, variance)`` of :math:`\sum_i D_i` and the noise term :math:`\kappa b^2` at ``b`` (clamped to
        :math:`[0, b_{max}]`: beyond it nothing changes)."""
        b = np.clip(np.atleast_1d(np.asarray(b, dtype=float)), 0.0, self.b_max)
        k = np.searchsorted(self.u, b, side="right")  # kinks strictly above b
        a0, a1, v0, v1, v2 = (s[k] for s in self.suf)
        return a1 - b * a0, np.maximum(v2 - 2 * b * v1 + b * b * v0, 0.0), self.kappa * b * b

    def __call__(self, b: np.ndarray | float) -> np.ndarray:
        mean, var, noise = self.moments(b)
        return mean * mean + var + noise

    def candidates(self) -> np.ndarray:
        """0, the kinks, ``b_max`` and each piece's stationary point inside it."""
        ends = np.unique(np.concatenate([[0.0], self.u[(self.u > 0) & (self.u < self.b_max)], [self.b_max]]))
        lo, hi = ends[:-1], ends[1:]
        k = np.searchsorted(self.u, lo, side="right")  # active on (lo, hi]: kinks > lo
        a0, a1, v0, v1, _ = (s[k] for s in self.suf)
        den = a0 * a0 + v0 + self.kappa
        with np.errstate(divide="ignore", invalid="ignore"):
            stat = np.where(den > 0, (a1 * a0 + v1) / den, np.nan)
        inside = stat[(stat > lo) & (stat < hi)]
        return np.unique(np.concatenate([ends, inside]))


def minimise(f: PiecewiseQuadratic) -> Tuned:
    r"""The exact minimiser of a :class:`PiecewiseQuadratic` over :math:`[0, b_{max}]` (the smallest on ties).

    .. math:: b^\dagger = \min\arg\min_{b \in [0, b_{max}]} F(b)

    Source: the convex pieces of :math:`F` (defined here); each piece's minimum is at an end or at its
    stationary point.

    Examples
    --------
    >>> f = PiecewiseQuadratic(np.array([4.0]), np.array([-1.0]), np.array([0.0]), 1.0, 4.0)
    >>> minimise(f).bound  # (4 - b)^2 + b^2: b = 2
    2.0
    """
    c = f.candidates()
    v = f(c)
    i = int(np.argmin(v))
    return Tuned(float(c[i]), float(v[i]), c, v)


def _kappa(eps: float) -> float:
    return 2.0 / (eps * eps)  # Var(Lap(b/ε)) = 2 b²/ε²


def sum_cap(data: CentralData, eps: float) -> PiecewiseQuadratic:
    r""":math:`M^2\,\mathrm{MSE}` of the one-sided cap of each user's sum at ``C`` (release
    :math:`\sum_i \min(S_i, C)/M + \mathrm{Lap}(C/(\varepsilon M))`), as a function of ``C``.

    .. math:: D_i = -(S_i - C)_+:\quad \text{synthetic: } E D_i = -q(Um_i - C)_+,\
              \mathrm{Var} D_i = q(1-q)(Um_i - C)_+^2

    Source: the per-user contribution bound of a Laplace sum (Dwork & Roth, 2014, §3.3), here exactly.

    Examples
    --------
    >>> d = from_values(np.array([1, 4]), np.array([1.0, 4.0]), np.array([1.0, 4.0]), U=1.0)
    >>> float(sum_cap(d, 1.0)(1.0)[0])  # bias (4 - 1)^2 + noise 2·1²
    11.0
    """
    if data.kind == "values":
        s = data.S
        return PiecewiseQuadratic(s, -np.ones_like(s), np.zeros_like(s), _kappa(eps), data.U * data.m_max)
    q = (1 + data.theta) / 2
    v, c = data.U * data.counts.astype(float), data.users.astype(float)
    return PiecewiseQuadratic(v, -q * c, q * (1 - q) * c, _kappa(eps), data.U * data.m_max)


def window(data: CentralData, eps: float) -> PiecewiseQuadratic:
    r""":math:`M^2\,\mathrm{MSE}` of Rameshwar & Tandon's projection of each user's sum onto the window
    :math:`[Um_i/2 - T/2,\ Um_i/2 + T/2]`, as a function of ``T`` (sensitivity :math:`\min(T, Um^*)/M`).

    With :math:`r_i = |2S_i - Um_i|`, :math:`D_i = -\mathrm{sign}(2S_i - Um_i)(r_i - T)_+/2`; synthetic:
    :math:`E D_i = -\theta(Um_i - T)_+/2`, :math:`\mathrm{Var} D_i = (1-\theta^2)(Um_i - T)_+^2/4`.

    Source: Rameshwar and Tandon (2025), Theorem III.1 (its symmetric clipping, applied here to the sum: the
    same sensitivity; equal to per-sample clipping when a user's values are equal), eq. (14) (the release).

    Examples
    --------
    >>> d = from_values(np.array([4]), np.array([4.0]), np.array([4.0]), U=1.0)
    >>> float(window(d, 1.0)(2.0)[0])  # moved by (4 - 2)/2 = 1, noise 2·2²
    9.0
    """
    if data.kind == "values":
        t = 2 * data.S - data.U * data.counts
        return PiecewiseQuadratic(np.abs(t), -np.sign(t) / 2, np.zeros_like(t), _kappa(eps), data.U * data.m_max)
    th = data.theta
    v, c = data.U * data.counts.astype(float), data.users.astype(float)
    return PiecewiseQuadratic(v, -th * c / 2, (1 - th * th) * c / 4, _kappa(eps), data.U * data.m_max)


def no_clipping(data: CentralData, eps: float) -> float:
    r""":math:`M^2\,\mathrm{MSE}` with no clipping: the sensitivity is :math:`Um^*/M`, the release unbiased.

    .. math:: M^2\,\mathrm{MSE} = 2 (U m^*)^2/\varepsilon^2

    Source: the Laplace mechanism (Dwork & Roth, 2014, Theorem 3.6) at the largest contribution.

    Examples
    --------
    >>> no_clipping(synthetic(Histogram.of_counts([1, 3]), U=1.0, theta=0.0), 1.0)
    18.0
    """
    return _kappa(eps) * (data.U * data.m_max) ** 2


def _k_grid(data: CentralData) -> np.ndarray:
    m = data.m_max
    return np.arange(1, m + 1, dtype=float) if m <= MAX_K_GRID else np.unique(data.counts).astype(float)


def record_cap(data: CentralData, eps: float, k: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(k, M² MSE)`` of the record cap: see :func:`record_cap_parts`.

    Examples
    --------
    >>> d = synthetic(Histogram.of_counts([1, 3]), U=1.0, theta=0.0)
    >>> record_cap(d, 1.0, np.array([3.0]))[1].tolist()  # k = m*: no reweighting, noise 2·3²
    [18.0]
    """
    ks, mean, var, noise = record_cap_parts(data, eps, k)
    return ks, mean * mean + var + noise


def record_cap_parts(data: CentralData, eps: float,
                     k: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    r"""``(k, M² MSE)``: keep at most ``k`` records per user (uniformly, without replacement) and release
    :math:`\sum_i \text{kept}_i / K + \mathrm{Lap}(Uk/(\varepsilon K))`, :math:`K = \sum_i \min(m_i, k)`.

    With :math:`g_i = \min(m_i,k)/K - m_i/M` and :math:`\bar x_i` the user's mean, the error is
    :math:`\sum_i g_i \bar x_i` plus the sampling error of the kept records:

    .. math:: M^2\,\mathrm{MSE} = M^2\Big[\Big(\sum_i g_i E\bar x_i\Big)^2 + \sum_i g_i^2 \mathrm{Var}\,\bar x_i
              + \sum_{m_i > k} \frac{k(m_i - k)}{m_i - 1}\frac{\sigma_i^2}{K^2} + \frac{2U^2k^2}{\varepsilon^2K^2}\Big]

    (:math:`\sigma_i^2` the user's within variance; synthetic: :math:`E\bar x_i = qU`,
    :math:`\mathrm{Var}\,\bar x_i = U^2q(1-q)`, :math:`\sigma_i = 0`).  ``k`` defaults to every integer up
    to :math:`m^*` (at most :data:`MAX_K_GRID`), else the distinct counts.

    Source: sampling without replacement (Cochran, 1977, Theorem 2.2) and the Laplace mechanism.

    Examples
    --------
    Returns ``(k, M·mean error, M²·variance of the data term, M²·noise variance)``.

    Examples
    --------
    >>> d = synthetic(Histogram.of_counts([1, 3]), U=1.0, theta=0.0)
    >>> [x.tolist() for x in record_cap_parts(d, 1.0, np.array([3.0]))]
    [[3.0], [0.0], [0.0], [18.0]]
    """
    ks = _k_grid(data) if k is None else np.asarray(k, dtype=float)
    U = data.U
    d, c = data.counts.astype(float), data.users.astype(float)
    M = float(np.dot(d, c))
    if data.kind == "values":
        m1, vb, W = data.S / d, np.zeros_like(d), data.W / d
    else:
        q = (1 + data.theta) / 2
        m1, vb, W = c * q * U, c * U * U * q * (1 - q), np.zeros_like(d)
    order = np.argsort(d, kind="stable")
    d, c, m1, vb, W = d[order], c[order], m1[order], vb[order], W[order]

    def prefix(a: np.ndarray) -> np.ndarray:
        return np.concatenate([[0.0], np.cumsum(a)])

    def split(a: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = prefix(a)
        return p[j], p[-1] - p[j]

    j = np.searchsorted(d, ks, side="right")  # groups with d <= k: [0, j)
    cL, cH = split(c * d, j)[0], split(c, j)[1]
    K = cL + ks * cH
    dm_L, m_H = split(d * m1, j)[0], split(m1, j)[1]
    mean = (dm_L + ks * m_H) / K - float(np.dot(d, m1)) / M
    d2v_L, d2v_H = split(d * d * vb, j)
    v_H, dv_H = split(vb, j)[1], split(d * vb, j)[1]
    var = (1 / K - 1 / M) ** 2 * d2v_L + ks * ks / (K * K) * v_H - 2 * ks / (K * M) * dv_H + d2v_H / (M * M)
    with np.errstate(divide="ignore", invalid="ignore"):
        wd = np.where(d > 1, W * d / (d - 1), 0.0)
        w1 = np.where(d > 1, W / (d - 1), 0.0)
    samp = (ks * split(wd, j)[1] - ks * ks * split(w1, j)[1]) / (K * K)
    noise = _kappa(eps) * (U * np.minimum(ks, data.m_max)) ** 2 / (K * K)
    return ks, M * mean, M * M * (var + samp), M * M * noise


def trivial_mse(data: CentralData) -> float:
    r"""MSE of the midpoint :math:`U/2` as an estimate of the dataset's mean (the trivial estimator).

    .. math:: \text{values: } (U/2 - \bar x)^2;\qquad \text{synthetic: } \frac{U^2\theta^2}{4}
              + U^2 q(1-q)\frac{\sum_i m_i^2}{M^2}

    Source: the variance of the dataset's mean under the synthetic law (defined here).

    Examples
    --------
    >>> trivial_mse(synthetic(Histogram.of_counts([1, 1]), U=1.0, theta=0.0))  # 1/4 · 2/4
    0.125
    """
    M = data.records
    if data.kind == "values":
        return (data.U / 2 - float(data.S.sum()) / M) ** 2
    q = (1 + data.theta) / 2
    d2 = float(np.dot(data.counts.astype(float) ** 2, data.users.astype(float)))
    return data.U ** 2 * (data.theta ** 2 / 4 + q * (1 - q) * d2 / (M * M))


def rel(mse_times_m2: float | np.ndarray, data: CentralData) -> float | np.ndarray:
    """``M² MSE`` → RMSE / U.

    Examples
    --------
    >>> rel(8.0, synthetic(Histogram.of_counts([1, 1]), U=2.0, theta=0.0))  # √8 / (2·2)
    0.7071067811865476
    """
    return np.sqrt(np.maximum(mse_times_m2, 0.0)) / (data.records * data.U) if isinstance(mse_times_m2, np.ndarray) \
        else math.sqrt(max(mse_times_m2, 0.0)) / (data.records * data.U)
