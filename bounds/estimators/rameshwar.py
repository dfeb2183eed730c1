r"""The three mechanisms of Rameshwar and Tandon (2025), §IV: Laplace, OPT-wc (Theorem III.1), AKMV.

Pure functions on sufficient statistics: each user's sum of samples (replications ×
users), the users' sample counts ``m``, and a ``numpy.random.Generator``.  Each releases
a private estimate of the sample mean :math:`f = \sum_\ell S_\ell / \sum_\ell m_\ell`
(users pre-process by averaging their samples).

Examples
--------
>>> import numpy as np
>>> from bounds.estimators import rameshwar
>>> s = rameshwar.setting([4, 2, 1], U=65, eps=1.0)
>>> sums = np.array([[130.0, 65.0, 10.0]])
>>> rameshwar.laplace_mechanism(sums, s, rng=np.random.default_rng(0)).shape
(1,)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .. import mechanisms
from .. import rameshwar as theory
from ..numerics import MAX_ARRAY, check_counts, check_positive, check_rng, total
from ._inputs import of_type, reals
from ..mechanisms import RNGLike

MAX_SCALE = 1e300  # bound on U·Σm/ε: the mechanisms multiply and add a few such terms, which must stay below 1.8e308

__all__ = ["Setting", "setting", "sample_mean", "laplace_mechanism", "opt_wc", "akmv_threshold", "akmv_scale", "akmv"]


@dataclass(frozen=True)
class Setting:
    """The collection ``m``, the range ``U``, the budget ``eps``, Theorem III.1's clipping ``a``, ``b``,
    the Laplace and OPT-wc noise scales, and AKMV's rank."""

    m: np.ndarray
    U: float
    eps: float
    a: np.ndarray
    b: np.ndarray
    laplace_scale: float
    opt_wc_scale: float
    rank: int


def setting(m: ArrayLike, *, U: float, eps: float, rule: str = "section-IV-A") -> Setting:
    r"""The deterministic pieces of §IV's mechanisms: clipping, noise scales (sensitivity over ε), AKMV's rank.

    .. math:: b_{Lap} = \frac{U m^*}{\varepsilon\sum_\ell m_\ell},\qquad
              b_{OPT} = \frac{\max_\ell \sum_j (b_j^{(\ell)} - a_j^{(\ell)})}{\varepsilon\sum_\ell m_\ell},\qquad
              r = \lceil 1/\varepsilon'' \rceil,\ \varepsilon'' = \varepsilon/2

    (the rank read as in §IV-A step 2, or ``rule="after-fig1"``: :math:`\lceil 2/\varepsilon''\rceil`).

    Source: Rameshwar and Tandon (2025), eqs. (14)–(15), Theorem III.1, §IV-A.

    Examples
    --------
    >>> s = setting([1, 4], U=10, eps=2.0)
    >>> s.laplace_scale, s.opt_wc_scale, s.rank
    (4.0, 4.0, 1)
    """
    mm = check_counts("contribution counts m", m, max_size=MAX_ARRAY)
    U, eps = check_positive("U", U), check_positive("eps", eps)
    if not U * float(total(mm)) / eps <= MAX_SCALE:
        raise ValueError(f"U * sum(m) / eps = {U:g} * {total(mm)} / {eps:g} exceeds {MAX_SCALE:g}: the noise scales "
                         f"and worst-case sums would overflow float64 (U={U!r}, eps={eps!r})")
    c = theory.clipping(mm, U=U, eps=eps)
    sens = theory.sensitivities(mm, U=U, eps=eps)
    rank = theory.akmv_rank(eps / 2, rule=rule)
    return Setting(mm, U, eps, c.a, c.b, sens["vanilla"] / eps, sens["opt_wc"] / eps, rank)


def sample_mean(sums: ArrayLike, m: ArrayLike) -> np.ndarray:
    r"""The statistic every mechanism estimates: the mean of all samples of all users.

    .. math:: f(\mathcal D) = \frac{\sum_\ell S_\ell}{\sum_\ell m_\ell}

    Source: Rameshwar and Tandon (2025), §II.

    Examples
    --------
    >>> sample_mean(np.array([[3.0, 5.0]]), np.array([1, 3])).tolist()
    [2.0]
    """
    mm = check_counts("m", m)
    return _mean(_sums(sums, mm), mm)


def _sums(sums: ArrayLike, m: np.ndarray) -> np.ndarray:
    """``sums`` as a finite float array of (replications ×) ``m.size`` users (``m`` checked already)."""
    sums = reals("sums", sums)
    if sums.ndim not in (1, 2) or sums.shape[-1] != m.size:
        raise ValueError(f"sums must be (replications ×) {m.size} users, got shape {sums.shape}")
    return sums


def _mean(sums: np.ndarray, m: np.ndarray) -> np.ndarray:
    """:func:`sample_mean` of checked ``sums`` and ``m`` (a Setting's ``m`` was checked when it was made)."""
    return sums.sum(axis=-1) / float(m.sum())


def laplace_mechanism(sums: ArrayLike, s: Setting, *, rng: RNGLike) -> np.ndarray:
    r"""The vanilla Laplace mechanism: the sample mean plus noise at the user-level sensitivity (14).

    .. math:: M(\mathcal D) = f(\mathcal D) + \mathrm{Lap}\Big(\frac{U m^*}{\varepsilon\sum_\ell m_\ell}\Big)

    Source: Rameshwar and Tandon (2025), eq. (14).

    Examples
    --------
    >>> s = setting([1, 1], U=1.0, eps=1e12)
    >>> laplace_mechanism(np.array([[0.5, 1.0]]), s, rng=np.random.default_rng(0)).round(6).tolist()
    [0.75]
    """
    of_type("s", s, Setting)
    f = _mean(_sums(sums, s.m), s.m)
    return f + mechanisms.laplace(s.laplace_scale, rng, size=f.shape)


def opt_wc(sums: ArrayLike, s: Setting, *, rng: RNGLike) -> np.ndarray:
    r"""OPT-wc: users' averages clipped per sample to Theorem III.1's :math:`[a_j, b_j]`, plus Laplace noise.

    .. math:: M(\mathcal D) = \frac{\sum_\ell m_\ell [\bar x_\ell]_{a_{m_\ell}}^{b_{m_\ell}}}{\sum_\ell m_\ell}
              + \mathrm{Lap}\Big(\frac{\Delta_{f^*}}{\varepsilon}\Big)

    Source: Rameshwar and Tandon (2025), Theorem III.1, eq. (14).

    Examples
    --------
    >>> s = setting([1, 1], U=1.0, eps=1e12)
    >>> opt_wc(np.array([[0.5, 1.0]]), s, rng=np.random.default_rng(0)).round(6).tolist()
    [0.75]
    """
    of_type("s", s, Setting)
    xbar = _sums(sums, s.m) / s.m
    fstar = (np.clip(xbar, s.a, s.b) @ s.m) / float(s.m.sum())
    return fstar + mechanisms.laplace(s.opt_wc_scale, rng, size=fstar.shape)


def akmv_threshold(sums: ArrayLike, s: Setting, *, rng: RNGLike) -> np.ndarray:
    r"""AKMV's private clipping threshold: the rank-:math:`r` largest user sum by the exponential mechanism at :math:`\varepsilon' = \varepsilon/2`.

    With each row's sums clipped to :math:`[0, U m^*]` and sorted, :math:`z_0 = 0 \le z_1 \le \dots \le z_L \le
    z_{L+1} = U m^*`, and the target index :math:`t = L - r + 1`, the interval :math:`[z_i, z_{i+1}]` is chosen with
    probability

    .. math:: p_i = \frac{w_i}{\sum_j w_j},\qquad w_i = (z_{i+1} - z_i)\,e^{-\frac{\varepsilon'}{2}|i - t|},
              \qquad \hat T = z_i + V (z_{i+1} - z_i)

    (the law of :func:`~bounds.mechanisms.private_quantile`), drawn by inversion: two uniforms a row, the first
    ``U`` picking the first :math:`i` whose cumulative weight exceeds :math:`U\sum_j w_j`, the second ``V`` placing
    :math:`\hat T` inside the interval (the weights in log space, relative to a row's largest, where they
    would leave float64's normal range).  One dataset repeated (a broadcast view) is sorted and weighed once.

    Source: Rameshwar and Tandon (2025), §IV-A steps 1–2; Smith (2011), Algorithm 2.

    Examples
    --------
    >>> s = setting([1, 1, 1], U=10.0, eps=200.0)
    >>> 8 <= float(akmv_threshold(np.array([[1.0, 5.0, 9.0]]), s, rng=np.random.default_rng(0))[0]) <= 10
    True
    """
    of_type("s", s, Setting)
    rng = check_rng("rng", rng)
    sums = np.atleast_2d(_sums(sums, s.m))
    n: int = sums.shape[0]
    u = rng.random(n)
    return akmv_threshold_checked(sums, s, u, rng.random(n))


NORMAL_WEIGHT = 1e-280  # a row whose total weight is below this is recomputed in log space (float64's normal range
# starts at 2.2e-308: weights under 1e-25 of the total, whose precision a subnormal loses, weigh nothing)


def akmv_threshold_checked(sums: np.ndarray, s: Setting, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """:func:`akmv_threshold` of checked 2-D ``sums`` given its uniforms ``u`` (the interval) and ``v`` (the point
    inside), one a row; row by row the same operations whatever the number of rows (the replications' chunks rely
    on it)."""
    L = sums.shape[1]
    upper = s.U * float(s.m.max())
    repeated = sums.shape[0] > 1 and sums.strides[0] == 0  # one dataset repeated: its weights computed once
    rows = sums[:1] if repeated else sums
    edges = np.empty((rows.shape[0], L + 2))
    edges[:, 0], edges[:, -1] = 0.0, upper
    inner = edges[:, 1:-1]
    np.clip(rows, 0.0, upper, out=inner)  # clipped and sorted in place: no temporaries of the chunk's size
    inner.sort(axis=1)
    widths = np.subtract(edges[:, 1:], edges[:, :-1])
    distance = np.abs(np.arange(L + 1) - max(L - s.rank + 1, 0))
    w = widths * np.exp(-0.5 * (s.eps / 2) * distance)
    cum = np.cumsum(w, axis=1)
    tiny = cum[:, -1] < NORMAL_WEIGHT
    if tiny.any():  # a huge budget (or tiny widths): each weight relative to the row's largest, in log space
        with np.errstate(divide="ignore"):
            logw = np.log(widths[tiny]) - 0.5 * (s.eps / 2) * distance
        cum[tiny] = np.cumsum(np.exp(logw - logw.max(axis=1, keepdims=True)), axis=1)
    total = cum[:, -1]
    if repeated:
        thr = np.minimum(u * total[0], np.nextafter(total[0], 0.0))  # below the total, whatever the rounding
        i = np.searchsorted(cum[0], thr, side="right")  # the first interval whose cumulative weight exceeds thr
        return edges[0, i] + v * widths[0, i]
    thr = np.minimum(u * total, np.nextafter(total, 0.0))
    i = np.count_nonzero(cum <= thr[:, None], axis=1)  # as searchsorted, row by row: a positive weight is chosen
    every = np.arange(rows.shape[0])
    return edges[every, i] + v * widths[every, i]


def akmv_scale(T: ArrayLike, s: Setting) -> np.ndarray:
    r"""The Laplace scale of AKMV's release at threshold :math:`T` and :math:`\varepsilon/2` of budget (15).

    .. math:: b = \frac{T}{(\varepsilon/2)\sum_\ell m_\ell} = \frac{2T}{\varepsilon\sum_\ell m_\ell}

    Source: Rameshwar and Tandon (2025), eq. (15) and §IV-A.

    Examples
    --------
    >>> akmv_scale(np.array([3.0]), setting([1, 2], U=1.0, eps=0.5)).tolist()  # 3 / (0.25 · 3)
    [4.0]
    """
    of_type("s", s, Setting)
    return reals("T", T, low=0) / ((s.eps / 2) * float(s.m.sum()))


def akmv(sums: ArrayLike, s: Setting, *, rng: RNGLike) -> np.ndarray:
    r"""AKMV: user sums clipped at the private threshold, averaged, plus Laplace noise; :math:`\varepsilon/2` each.

    .. math:: M(\mathcal D) = \frac{\sum_\ell \min(S_\ell, \hat T)}{\sum_\ell m_\ell} + \mathrm{Lap}\Big(\frac{2\hat T}{\varepsilon\sum_\ell m_\ell}\Big)

    Source: Rameshwar and Tandon (2025), §IV-A, eq. (15).

    Examples
    --------
    >>> s = setting([1, 1, 1], U=10.0, eps=1e6)
    >>> akmv(np.array([[1.0, 5.0, 9.0]]), s, rng=np.random.default_rng(0)).shape
    (1,)
    """
    rng = check_rng("rng", rng)
    of_type("s", s, Setting)
    sums = np.atleast_2d(_sums(sums, s.m))
    z = mechanisms.laplace(1.0, rng, size=sums.shape[0])
    T = akmv_threshold(sums, s, rng=rng)
    g = np.minimum(sums, T[:, None]).sum(axis=1) / float(s.m.sum())
    return g + z * akmv_scale(T, s)
