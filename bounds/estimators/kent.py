r"""Kent, Berrett & Yu's estimators under user-level LDP (the theory is :mod:`bounds.kent`).

Pure functions on sufficient statistics: each user's local mean over its first
:math:`T^*` samples (arrays of replications × users) and a ``numpy.random.Generator``.

Examples
--------
>>> import numpy as np
>>> from bounds.estimators import kent
>>> T, tau = kent.cap(n=400, T=50, alpha=1.0)
>>> x = np.full((1, 400), 0.25)
>>> kent.univariate(x, tau=tau, alpha=1.0, rng=np.random.default_rng(0)).shape
(1,)
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from .. import kent as theory
from .. import mechanisms
from ..numerics import check_integer, check_positive, check_real, check_rng, format_value
from . import localisation
from ._inputs import MAX_EXACT, of_type, reals, same_shape, split, whole
from ..mechanisms import RNGLike

__all__ = [
    "cap", "interval", "laplace_scale", "localise", "refine", "univariate",
    "Release", "coordinatewise", "fwht", "padded_dimension", "rotate", "rotate_back", "l2_tau", "l2_mean",
    "sparse_threshold", "sparse_lambda", "Selection", "hashed_selection", "trig_basis", "density_cutoff",
]


# =========================================================================== univariate procedure, eqs. (25)-(30)


def cap(*, n: int, T: int, alpha: float, K: float = 1.0) -> tuple[int, float]:
    r"""Step 1: the cap :math:`T^*` on the samples each user keeps, and the bins' half-width :math:`\tau`.

    .. math:: T^* = \min\{T, e^{n\alpha^2/K}\},\qquad \tau = \sqrt{\frac{2\log(nT^*\alpha^2)}{T^*}}

    Source: Kent et al. (2024), eq. (25) (:func:`bounds.kent.estimator_cap`).

    Examples
    --------
    >>> cap(n=100, T=10**6, alpha=0.2)
    (54, 0.4461887330...)
    """
    try:
        t_star, tau = theory.estimator_cap(n=n, T=T, alpha=alpha, K=K)
    except ValueError as e:  # the inputs are valid but eq. (25) needs nT*α² > 1: say which inputs
        if not str(e).startswith("nT*"):
            raise
        raise ValueError(f"alpha = {format_value(alpha)}, n = {format_value(n)}, T = {format_value(T)}, "
                         f"K = {format_value(K)}: {e}") from None
    return int(t_star), tau


def interval(j: ArrayLike, tau: float) -> tuple[np.ndarray, np.ndarray]:
    r"""The enlarged interval :math:`\tilde I = [\hat L - 6\tau, \hat U + 6\tau]` (within :math:`[-1, 1]`, same clip).

    .. math:: \tilde I = [\hat L - 6\tau,\ \hat U + 6\tau]

    Source: Kent et al. (2024), eq. (29) (:func:`~bounds.estimators.localisation.enlarged_interval`).

    Examples
    --------
    >>> [round(float(v), 12) for v in interval(3, 0.1)]  # bin 3 is [-0.4, -0.2)
    [-1.0, 0.4]
    """
    return localisation.enlarged_interval(j, tau)


def laplace_scale(tau: float, alpha: float) -> float:
    r"""The refinement's Laplace scale: the enlarged interval's width :math:`14\tau` over :math:`\alpha`.

    .. math:: b = \frac{14\tau}{\alpha}

    Source: Kent et al. (2024), eq. (30).

    Examples
    --------
    >>> laplace_scale(0.5, 7.0)
    1.0
    """
    return localisation.refinement_scale(tau, alpha)


def localise(xbar: ArrayLike, *, tau: float, alpha: float, rng: RNGLike) -> np.ndarray:
    r"""Step 2: every user of the first half votes; the elected bin of each replication.

    .. math:: \hat j = \arg\max_j \sum_{i \le n/2}\tilde V_{ij},\qquad V_{ij} = \mathbb 1\{\bar X_i \in I_{j-1} \cup I_j \cup I_{j+1}\}

    Source: Kent et al. (2024), eqs. (26)–(28).

    Examples
    --------
    >>> j = localise(np.full((1, 30), -0.95), tau=0.2, alpha=1e3, rng=np.random.default_rng(0))
    >>> int(j[0]) in (0, 1)  # bins 0 and 1 both hold 30 ones (each voter's bin and its neighbour): a tie
    True
    """
    xbar = reals("xbar", xbar, ndim=2, low=-1, high=1)
    every = np.broadcast_to(np.True_, xbar.shape)  # everyone votes (no mask in memory)
    return localisation.localise_checked(xbar, every, tau, alpha, max(xbar.shape[1], 1), rng)


def refine(xbar: ArrayLike, j: ArrayLike, *, tau: float, alpha: float, rng: RNGLike) -> np.ndarray:
    r"""Step 3: the second half's clipped local means plus Laplace noise, averaged.

    .. math:: \hat\theta = \frac2n\sum_{i > n/2}\Big(\Pi_{\tilde I}(\bar X_i) + \frac{14\tau}{\alpha}\ell_i\Big),\qquad \ell_i \sim \mathrm{Lap}(1)

    The users' noises enter only through their sum, drawn exactly by
    :func:`~bounds.mechanisms.laplace_sum`.

    Source: Kent et al. (2024), eq. (30).

    Examples
    --------
    >>> refine(np.full((1, 8), 0.9), np.array([0]), tau=0.1, alpha=1e12, rng=np.random.default_rng(0)).round(6).tolist()
    [-0.2]
    """
    xbar = reals("xbar", xbar, ndim=2, low=-1, high=1)
    j = same_shape("j", whole("j", j, ndim=1), xbar.shape[:1])
    if xbar.shape[1] == 0:
        raise ValueError("xbar must hold at least one releasing user")
    interval(j, tau)  # j within the bins of tau
    return refine_checked(xbar, j, float(tau), float(check_positive("alpha", alpha)), check_rng("rng", rng))


def release_checked(j: np.ndarray, tau: float, alpha: float, shape: tuple[int, int],
                    rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`refine_checked`'s interval ``(L, U)`` and summed noise of rows × users ``shape`` (the noise drawn here,
    as there): the estimate is each row's clipped mean plus ``noise / h``."""
    L, U = localisation.enlarged_checked(*localisation.bin_ends_checked(j, tau), tau)  # interval(j, tau)
    # the users' noises, summed exactly (mechanisms.laplace_sum at laplace_scale(tau, alpha))
    noise = mechanisms.laplace_sum_checked(localisation.refinement_scale_checked(tau, alpha), shape[1], rng, shape[0])
    return L, U, noise


def refine_checked(xbar: np.ndarray, j: np.ndarray, tau: float, alpha: float, rng: np.random.Generator) -> np.ndarray:
    """:func:`refine` of checked inputs: local means in [-1, 1], at least one user a row, bins of ``tau``."""
    L, U, noise = release_checked(j, tau, alpha, xbar.shape, rng)
    B, h = xbar.shape
    if h > localisation.BLOCK_USERS:  # a long row block by block: the same values, summed in numpy's order
        buf = localisation.block_buffers()[0]  # each block clipped into it, then summed
        return localisation.row_sums(lambda r, a, e: np.clip(xbar[r, a:e], L[r], U[r], out=buf[:e - a]), B, h) / h \
            + noise / h
    return localisation.clipped_row_means(xbar, L, U) + noise / h


def univariate(xbar: ArrayLike, *, tau: float, alpha: float, rng: RNGLike) -> np.ndarray:
    r"""The univariate two-phase procedure on local means over :math:`T^*` samples (replications × n, n even).

    .. math:: \hat\theta = \frac2n\sum_{i > n/2}\Big(\Pi_{\tilde I}(\bar X_i) + \frac{14\tau}{\alpha}\ell_i\Big)

    Source: Kent et al. (2024), eqs. (25)–(30).

    Examples
    --------
    >>> univariate(np.full((1, 200), 0.5), tau=0.2, alpha=1e9, rng=np.random.default_rng(0)).round(6).tolist()
    [0.5]
    """
    rng = check_rng("rng", rng)
    xbar = split("xbar", xbar, ndim=2, low=-1, high=1)  # each half is checked by the step that receives it
    if xbar.shape[1] < 2:
        raise ValueError(f"xbar must hold at least two users (a voting and a releasing half), got {xbar.shape[1]}")
    h = xbar.shape[1] // 2
    j = localise(xbar[:, :h], tau=tau, alpha=alpha, rng=rng)
    return refine(xbar[:, h:], j, tau=tau, alpha=alpha, rng=rng)


def univariate_checked(xbar: np.ndarray, tau: float, alpha: float, rng: np.random.Generator) -> np.ndarray:
    """:func:`univariate` of local means valid by construction (the simulation's: in [-1, 1], at least two users a
    row): the same steps without reading them to check them."""
    h = xbar.shape[1] // 2
    every = np.broadcast_to(np.True_, (xbar.shape[0], h))
    j = localisation.localise_checked(xbar[:, :h], every, tau, alpha, max(h, 1), rng)
    return refine_checked(xbar[:, h:], j, tau, alpha, rng)


# =========================================================================== Kent et al.: the multivariate problems
#
# The ℓ∞- and ℓ2-ball means, the s-sparse mean (Procedures 1 and 2) and the Sobolev density
# of Kent et al. (2024), §§3.2–3.3, 4.1, 5.1, each fed with exact sufficient statistics, and
# ``check_kent``, which puts their simulated risks beside the rates of ``bounds.kent``.


@dataclass(frozen=True)
class Release:
    r"""What the coordinatewise two-phase procedure released, with its privacy calibration.

    ``estimate`` (replications × coordinates), the clip ends :math:`[\hat L_j - 6\tau, \hat U_j + 6\tau]`
    of each coordinate's refinement, the Laplace scale, the randomised-response keep
    probability of the localisation votes, ``tau`` and the users per group.
    """

    estimate: np.ndarray = field(repr=False)
    clip_lower: np.ndarray = field(repr=False)
    clip_upper: np.ndarray = field(repr=False)
    laplace_scale: float
    rr_keep: float
    tau: float
    group_size: int


def coordinatewise(xbar: ArrayLike, *, tau: float, alpha: float, rng: RNGLike) -> Release:
    r"""Kent et al.'s ℓ∞ procedure, Steps 2–3, given the users' local means, coordinate by coordinate.

    ``xbar`` has shape (replications, coordinates, 2g): coordinate ``j``'s localisation group
    :math:`\mathcal G_j` is ``xbar[:, j, :g]``, its refinement group :math:`\mathcal G'_j` is
    ``xbar[:, j, g:]``; each user reports one coordinate of its own mean.  Per coordinate this is
    the univariate procedure of §3.1 — :func:`localise`, :func:`interval`, :func:`refine` on the
    rows (three-bin votes with keep probability :math:`e^{\alpha/6}/(1 + e^{\alpha/6})`, the elected
    bin enlarged by :math:`6\tau` each side within [−1, 1], projection and Laplace noise of scale
    :math:`14\tau/\alpha`):

    .. math:: \hat\theta_j = \frac1g\sum_{i \in \mathcal G'_j}\Big(\Pi_{[\hat L_j - 6\tau,\ \hat U_j + 6\tau]}(\bar X_{ij})
              + \frac{14\tau}{\alpha}\ell_i\Big)

    Source: Kent et al. (2024), §3.2, eqs. (31)–(32), and §3.1, eqs. (25)–(30).

    Examples
    --------
    >>> x = np.full((1, 2, 40), 0.3)
    >>> r = coordinatewise(x, tau=0.2, alpha=1e6, rng=0)  # no noise to speak of
    >>> np.round(r.estimate, 6).tolist(), round(r.laplace_scale * 1e6, 12)
    ([[0.3, 0.3]], 2.8)
    """
    x = reals("xbar", xbar, ndim=3, allow_empty=True)
    if x.shape[2] < 2 or x.shape[2] % 2:
        raise ValueError("xbar must have shape (replications, coordinates, 2g) with g >= 1")
    tau, alpha = check_positive("tau", tau), check_positive("alpha", alpha)
    rng = check_rng("rng", rng)
    B, d, two_g = x.shape
    g = two_g // 2
    rows = x.reshape(B * d, two_g)
    j = localise(rows[:, :g], tau=tau, alpha=alpha, rng=rng)
    lower, upper = interval(j, tau)
    est = refine(rows[:, g:], j, tau=tau, alpha=alpha, rng=rng)
    return Release(est.reshape(B, d), lower.reshape(B, d), upper.reshape(B, d), laplace_scale(tau, alpha),
                   mechanisms.rr_keep_probability(alpha, k=localisation.VOTE_ONES), tau, g)


# --------------------------------------------------------------------------- the random rotation

MAX_BASIS_TERMS = 10**6
"""The largest number of trigonometric basis terms :func:`trig_basis` evaluates (as a dense array,
one column per term) and so the largest cut-off :func:`density_cutoff` returns."""
CUTOFF_ROUNDING = 1e-9  # added before flooring the cut-off, so that an exact integer computed as 142.99999… stays 143


def _signs(signs) -> np.ndarray:
    """The rotation's Rademacher diagonal(s): a non-empty array of ±1 whose last length is a power of 2."""
    s = reals("signs", signs)
    if s.ndim == 0 or s.shape[-1] & (s.shape[-1] - 1) or np.any(np.abs(s) != 1):
        raise ValueError(f"signs must be an array of ±1 whose last length is a power of 2, got {format_value(signs)}")
    return s



def fwht(x: ArrayLike, axis: int = -1) -> np.ndarray:
    r"""The Sylvester–Hadamard transform :math:`H_d x` along ``axis``, in :math:`O(d\log d)` (unnormalised).

    :math:`H_1 = (1)`, :math:`H_{2m} = \begin{pmatrix}H_m & H_m\\ H_m & -H_m\end{pmatrix}`; ``d`` must
    be a power of 2.  :math:`H_d^2 = d I`.

    .. math:: (H_d x)_j = \sum_k (-1)^{\langle j, k\rangle} x_k \quad(\text{bits of } j, k)

    Source: Kent et al. (2024), §3.3, the rotation of eq. (33).

    Examples
    --------
    >>> fwht(np.array([1.0, 0.0, 0.0, 0.0])).tolist()
    [1.0, 1.0, 1.0, 1.0]
    >>> fwht(np.array([1.0, 2.0])).tolist()
    [3.0, -1.0]
    """
    a = reals("x", x, allow_empty=True).copy()
    if a.ndim == 0:
        raise ValueError(f"x must be an array of at least one dimension, got {format_value(x)}")
    axis = check_integer("axis", axis, minimum=-a.ndim, maximum=a.ndim - 1)
    a = np.moveaxis(a, axis, -1)
    d = a.shape[-1]
    if d < 1 or d & (d - 1):
        raise ValueError(f"x must have a power-of-2 length along axis (the Hadamard transform), got {d}")
    with np.errstate(over="ignore"):
        l1 = np.abs(a).sum(axis=-1)
    if a.size and not np.all(np.isfinite(l1)):  # every output is bounded by the sum of |x|: refuse what could overflow
        raise ValueError("x must have entries whose absolute sum along axis stays in the float64 range")
    lead = a.shape[:-1]
    h = 1
    while h < d:
        v = a.reshape(*lead, d // (2 * h), 2, h)
        top, bottom = v[..., 0, :], v[..., 1, :]
        a = np.stack((top + bottom, top - bottom), axis=-2).reshape(*lead, d)
        h *= 2
    return np.moveaxis(a, -1, axis)


def padded_dimension(d: int) -> int:
    r"""The smallest power of 2 at least ``d`` (the rotation's dimension, Kent et al. (2024), eq. (33)).

    .. math:: d' = 2^{\lceil \log_2 d\rceil}

    Source: Kent et al. (2024), §3.3, eq. (33) (the Walsh–Hadamard matrix :math:`H_{d'}` needs :math:`d'` a power of 2).

    Examples
    --------
    >>> padded_dimension(5), padded_dimension(8)
    (8, 8)
    """
    d = check_integer("d", d, minimum=1)
    return 1 << (d - 1).bit_length()


def rotate(x: ArrayLike, signs: ArrayLike) -> np.ndarray:
    r"""The rotation :math:`U x = H_d D x/\sqrt d` of eq. (33) on the last axis (``signs`` is D's diagonal).

    ``x`` is zero-padded to ``len(signs)`` (a power of 2).  :math:`U^\top = D H_d/\sqrt d` is
    :func:`rotate_back`.

    .. math:: U = \frac{1}{\sqrt d}H_d D,\qquad D = \mathrm{diag}(\pm 1)\ \text{i.i.d. Rademacher}

    Source: Kent et al. (2024), §3.3, eq. (33).

    Examples
    --------
    >>> s = np.array([1.0, -1.0, 1.0, 1.0])
    >>> np.allclose(rotate_back(rotate(np.array([0.1, 0.2, 0.3]), s), s)[:3], [0.1, 0.2, 0.3])
    True
    """
    s = _signs(signs)
    x = reals("x", x)
    if x.ndim == 0:
        raise ValueError(f"x must be an array of at least one dimension, got {format_value(x)}")
    pad = s.shape[-1] - x.shape[-1]
    if pad < 0:
        raise ValueError("the signs are shorter than the vectors")
    if pad:
        x = np.concatenate([x, np.zeros(x.shape[:-1] + (pad,))], axis=-1)
    return fwht(x * s) / math.sqrt(s.shape[-1])


def rotate_back(y: ArrayLike, signs: ArrayLike) -> np.ndarray:
    r""":math:`U^\top y = D H_d y/\sqrt d`, the inverse of :func:`rotate` (eq. (37)).

    .. math:: \hat\theta = U^\top\sum_j \hat\theta_j e_j

    Source: Kent et al. (2024), §3.3, eq. (37).

    Examples
    --------
    >>> rotate_back(np.array([1.0, 1.0]), np.array([1.0, 1.0])).round(12).tolist()  # (H (1, 1))/√2
    [1.414213562373, 0.0]
    """
    s = _signs(signs)
    y = reals("y", y)
    if y.ndim == 0 or y.shape[-1] != s.shape[-1]:
        raise ValueError(f"y must have last dimension {s.shape[-1]} (that of signs), got {format_value(y)}")
    return fwht(y) * s / math.sqrt(s.shape[-1])


def l2_tau(*, n: int, T: int, alpha: float, d: int, K: float = 1.0) -> tuple[int, float]:
    r"""The ℓ2 procedure's cap :math:`T^*` and half-width τ of eq. (34), in the form used here [R].

    With :math:`d` the padded (power-of-2) dimension:

    .. math:: T^* = \min\{T, e^{n\alpha^2/(Kd)}\},\qquad
              \tau = \sqrt{\frac{2\log(nT^*\alpha^2)\,\log(e \vee 2d)}{d\,T^*}}

    — the univariate :math:`\tau` of eq. (25) times :math:`\sqrt{\log(e\vee 2d)/d}`, the
    concentration of a rotated coordinate (Lemma 7); it equals eq. (25) at ``d = 1``.
    The paper gives only the order of (34); this is the simplest form of that order.

    Source: Kent et al. (2024), §3.3, eq. (34), Lemma 7.

    Examples
    --------
    >>> l2_tau(n=100, T=54, alpha=0.2, d=1) == cap(n=100, T=54, alpha=0.2)
    True
    """
    d = check_integer("d", d, minimum=1)
    t_star, tau = theory.estimator_cap(n=n, T=T, alpha=alpha, K=K, d=d)
    return int(t_star), tau * math.sqrt(math.log(max(math.e, 2.0 * d)) / d)


def l2_mean(xbar: ArrayLike, *, tau: float, alpha: float, signs: ArrayLike, rng: RNGLike) -> Release:
    r"""Kent et al.'s ℓ2 procedure given the users' local mean vectors: rotate, run :func:`coordinatewise`, rotate back.

    ``xbar`` has shape (replications, 2 d g, d₀) with ``d`` = ``signs.shape[-1]`` a power of 2 at
    least d₀; ``signs`` (replications × d) is the Rademacher diagonal of each replication's
    rotation.  Users ``2gj .. 2g(j+1) - 1`` form coordinate ``j``'s two groups and report
    :math:`(U\bar X_i)_j` only.  The release's ``estimate`` is :math:`U^\top\hat\theta^{rot}`
    truncated to the first d₀ coordinates; its clip ends are those of the rotated coordinates.

    .. math:: \hat\theta = U^\top \sum_{j \le d}\hat\theta_j e_j,\qquad \hat\theta_j \text{ from } \{(U\bar X_i)_j\}

    Source: Kent et al. (2024), §3.3, eqs. (33)–(37).

    Examples
    --------
    >>> x = np.tile([0.3, -0.2], (1, 8, 1))  # 8 users, d = 2 (g = 2)
    >>> r = l2_mean(x, tau=0.2, alpha=1e6, signs=np.ones((1, 2)), rng=0)
    >>> np.round(r.estimate, 6).tolist()
    [[0.3, -0.2]]
    """
    x = reals("xbar", xbar, ndim=3)
    s = _signs(signs)
    B, users, d0 = x.shape
    d = s.shape[-1]
    if s.shape != (B, d) or d & (d - 1) or d < d0:
        raise ValueError("signs must have shape (replications, d) with d a power of 2 at least the dimension")
    if users % (2 * d):
        raise ValueError(f"the number of users ({users}) must be a multiple of 2d = {2 * d}")
    two_g = users // d
    y = rotate(x, s[:, None, :]).reshape(B, d, two_g, d)
    idx = np.arange(d)
    own = y[:, idx, :, idx].transpose(1, 0, 2)  # (B, d, 2g): group j reports coordinate j
    r = coordinatewise(own, tau=tau, alpha=alpha, rng=rng)
    est = rotate_back(r.estimate, s)[:, :d0]
    return Release(est, r.clip_lower, r.clip_upper, r.laplace_scale, r.rr_keep, r.tau, r.group_size)


# --------------------------------------------------------------------------- sparse means


def sparse_threshold(release: Release, *, s: int, lam: float) -> np.ndarray:
    r"""Procedure 2's last steps: hard-threshold the ℓ∞ estimate at λ (47), keep the ``s`` largest (48).

    .. math:: \tilde\theta_j = \hat\theta_j\,\mathbb 1\{|\hat\theta_j| > \lambda\},\qquad
              \hat\theta^{(2)} = \sum_{j \in \hat S}\tilde\theta_j e_j,\ \hat S = \text{the } s \text{ largest } |\tilde\theta_j|

    Source: Kent et al. (2024), §4.1.2, eqs. (43)–(48).

    Examples
    --------
    >>> r = Release(np.array([[0.9, -0.05, 0.4, -0.7]]), None, None, 1.0, 0.5, 0.1, 1)
    >>> sparse_threshold(r, s=2, lam=0.1).tolist()
    [[0.9, 0.0, 0.0, -0.7]]
    """
    release = of_type("release", release, Release)
    s = check_integer("s", s, minimum=1)
    lam = check_real("lam", lam, low=0)
    est = np.where(np.abs(release.estimate) > lam, release.estimate, 0.0)
    if s < est.shape[1]:
        drop = np.argsort(-np.abs(est), axis=1, kind="stable")[:, s:]
        np.put_along_axis(est, drop, 0.0, axis=1)
    return est


def sparse_lambda(release: Release, *, d: int, C_lambda: float = 1.0) -> float:
    r"""Procedure 2's threshold λ of (43)–(44), in the form used here [R]: a multiple of the noise's tail.

    The refined coordinates carry Laplace noise averaged over ``g`` users, of standard
    deviation :math:`\sigma = \sqrt2\,b/\sqrt g` (:math:`b` the Laplace scale); the threshold is its
    Gaussian tail over ``d`` coordinates:

    .. math:: \lambda = C_\lambda\,\sigma\sqrt{2\log(2d)},\qquad \sigma = \frac{\sqrt2\, b}{\sqrt g}

    Source: Kent et al. (2024), §4.1.2, eqs. (43)–(44) (order only; the constant is ``C_lambda``).

    Examples
    --------
    >>> r = Release(None, None, None, 1.0, 0.5, 0.1, 2)
    >>> round(sparse_lambda(r, d=1), 12)  # σ = 1, √(2 log 2)
    1.177410022515
    """
    release = of_type("release", release, Release)
    d = check_integer("d", d, minimum=1)
    C_lambda = check_positive("C_lambda", C_lambda)
    sigma = math.sqrt(2.0) * release.laplace_scale / math.sqrt(release.group_size)
    return C_lambda * sigma * math.sqrt(2 * math.log(2 * d))


@dataclass(frozen=True)
class Selection:
    r"""Procedure 1's hashed vote: the selected coordinates and its calibration.

    ``selected`` (replications × s, ``-1`` for empty slots), ``statistic`` (replications × d,
    :math:`\frac1h\sum_i R_{ij}Z_i`), the truncation ``t`` and the Laplace scale :math:`2t/\alpha`.
    """

    selected: np.ndarray = field(repr=False)
    statistic: np.ndarray = field(repr=False)
    truncation: float
    laplace_scale: float


def hashed_selection(votes: ArrayLike, signs: ArrayLike, *, s: int, alpha: float, truncation: float,
                     vote_threshold: float = 0.5, rng: RNGLike) -> Selection:
    r"""Procedure 1's Step 2: hashed, truncated, Laplace-noised votes, then the selected coordinates (41).

    ``votes`` :math:`V_{ij} \in \{0, 1\}` and public Rademacher ``signs`` :math:`R_{ij}` have shape
    (replications, h users, d).  User ``i`` releases one number; the server correlates it with
    each coordinate's signs and selects the coordinates whose statistic exceeds
    ``vote_threshold``, at most ``s`` of them (the largest).  [R]: the truncation
    :math:`[-t, t]` and the threshold 1/2 are the simplest forms consistent with the text.

    .. math:: Z_i = \Pi_{[-t, t]}\Big(\sum_j R_{ij}V_{ij}\Big) + \frac{2t}{\alpha}\ell_i,\qquad
              \hat S = \Big\{j : \frac1h\sum_i R_{ij}Z_i > \tfrac12\Big\}

    Source: Kent et al. (2024), §4.1.1, eqs. (40)–(41).

    Examples
    --------
    >>> v = np.zeros((1, 50, 3), dtype=np.int8); v[..., 1] = 1
    >>> R = np.random.default_rng(0).choice([-1, 1], size=(1, 50, 3)).astype(np.int8)
    >>> hashed_selection(v, R, s=1, alpha=1e6, truncation=1.0, rng=0).selected.tolist()
    [[1]]
    """
    V = np.asarray(votes)
    R = np.asarray(signs)
    if V.shape != R.shape or V.ndim != 3:
        raise ValueError("votes and signs must have the same shape (replications, users, d)")
    s = check_integer("s", s, minimum=1)
    alpha, t = check_positive("alpha", alpha), check_positive("truncation", truncation)
    rng = check_rng("rng", rng)
    B, h, d = V.shape
    scale = 2 * t / alpha
    hashed = np.einsum("bij,bij->bi", R, V, dtype=np.int64)
    Z = np.clip(hashed, -t, t) + mechanisms.laplace(scale, rng, size=(B, h))
    stat = np.einsum("bij,bi->bj", R, Z) / h
    order = np.argsort(-stat, axis=1, kind="stable")[:, :s]
    top = np.take_along_axis(stat, order, axis=1)
    return Selection(np.where(top > vote_threshold, order, -1), stat, t, scale)


# --------------------------------------------------------------------------- the Sobolev density


def trig_basis(x: ArrayLike, k: int) -> np.ndarray:
    r"""The trigonometric basis :math:`\varphi_1, \dots, \varphi_k` on [0, 1] at ``x`` (shape ``x.shape + (k,)``).

    .. math:: \varphi_1 = 1,\quad \varphi_{2m}(x) = \sqrt2\cos(2\pi m x),\quad \varphi_{2m+1}(x) = \sqrt2\sin(2\pi m x)

    For odd ``k``, :math:`\sum_{j \le k}\varphi_j(x)^2 = k` at every ``x``.

    Source: Kent et al. (2024), eq. (18) (Tsybakov's basis).

    Examples
    --------
    >>> round(float((trig_basis(np.array([0.3]), 5) ** 2).sum()), 12)
    5.0
    """
    k = check_integer("k", k, minimum=1, maximum=MAX_BASIS_TERMS, why="the basis is evaluated as a dense array")
    x = reals("x", x, allow_empty=True)[..., None]
    x = np.where(np.abs(x) <= 1, x, np.mod(x, 1.0))  # the basis has period 1; 2πmx overflows for |x| near 1e308
    j = np.arange(1, k + 1)
    m = j // 2
    out = np.where(j % 2 == 0, math.sqrt(2) * np.cos(2 * np.pi * m * x), math.sqrt(2) * np.sin(2 * np.pi * m * x))
    return np.where(j == 1, 1.0, out)


def density_cutoff(*, n: int, T: int, alpha: float, beta: float, C: float = 1.0) -> int:
    r"""The cut-off ``k`` of eq. (49), rounded down to an odd integer (at least 1).

    .. math:: k = \min\Big\{(nT\alpha^2)^{1/(2\beta+2)},\ \frac{n\alpha^2}{C\log(e \vee n\alpha^2)}\Big\}

    Odd, so that :math:`\|(\varphi_1, \dots, \varphi_k)(x)\|_2^2 = k` exactly and
    :math:`Y = (\varphi_j(X))_{j \le k}/\sqrt k` lies on the unit sphere.

    Source: Kent et al. (2024), §5.1, eq. (49).

    Examples
    --------
    >>> density_cutoff(n=1000, T=10**6, alpha=1.0, beta=1.0)  # min(10^{9/4} ≈ 177.8, 1000/log 1000 ≈ 144.8)
    143
    """
    n, T = check_integer("n", n, minimum=1), check_integer("T", T, minimum=1)
    alpha, beta, C = check_positive("alpha", alpha), check_positive("beta", beta), check_positive("C", C)
    x = n * alpha * alpha if n <= MAX_EXACT else math.inf
    if T <= sys.float_info.max and 0 < x * T < math.inf:
        log_k = min(math.log(x * T) / (2 * beta + 2), math.log(x) - math.log(C * math.log(max(math.e, x))))
    else:  # the same in log space, where n α² T over- or underflows a float
        log_x = math.log(n) + 2 * math.log(alpha)
        log_k = min((log_x + math.log(T)) / (2 * beta + 2), log_x - math.log(C) - math.log(max(1.0, log_x)))
    if log_k > math.log(MAX_BASIS_TERMS):
        raise ValueError(f"the cut-off k exceeds {MAX_BASIS_TERMS} basis terms (the array limit of trig_basis) "
                         f"for n={format_value(n)}, T={format_value(T)}, alpha={alpha!r}, beta={beta!r}")
    k = math.floor(math.exp(log_k) + CUTOFF_ROUNDING) if log_k > 0 else 1
    return max(1, k - (1 - k % 2))
