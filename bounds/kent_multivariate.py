"""Temporary home of the multivariate Kent estimators."""
from __future__ import annotations
import math
from dataclasses import dataclass, field
import numpy as np
from scipy import stats
from . import kent, mechanisms
from .numerics import check_integer, check_positive, warn_assumption
from .simulate import _localise, _bin_ends, _map_blocks

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


def coordinatewise(xbar, *, tau, alpha, rng) -> Release:
    r"""Kent et al.'s ℓ∞ procedure, Steps 2–3, given the users' local means, coordinate by coordinate.

    ``xbar`` has shape (replications, coordinates, 2g): coordinate ``j``'s localisation group
    :math:`\mathcal G_j` is ``xbar[:, j, :g]``, its refinement group :math:`\mathcal G'_j` is
    ``xbar[:, j, g:]``; each user reports one coordinate of its own mean.  Per coordinate this is
    the univariate procedure of §3.1 (three-bin votes with keep probability
    :math:`e^{\alpha/6}/(1 + e^{\alpha/6})`, the elected bin enlarged by :math:`6\tau` each side,
    projection and Laplace noise of scale :math:`14\tau/\alpha`):

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
    x = np.asarray(xbar, dtype=float)
    if x.ndim != 3 or x.shape[2] < 2 or x.shape[2] % 2:
        raise ValueError("xbar must have shape (replications, coordinates, 2g) with g >= 1")
    tau, alpha = check_positive("tau", tau), check_positive("alpha", alpha)
    rng = np.random.default_rng(rng)
    B, d, two_g = x.shape
    g = two_g // 2
    rows = x.reshape(B * d, two_g)
    j = _localise(rows[:, :g], np.ones((B * d, g), dtype=bool), tau, alpha, g, rng)
    lo, hi = _bin_ends(j, tau)
    lower, upper = lo - 6 * tau, hi + 6 * tau
    scale = 14 * tau / alpha
    z = np.clip(rows[:, g:], lower[:, None], upper[:, None]) + mechanisms.laplace(scale, rng, size=(B * d, g))
    return Release(z.mean(axis=1).reshape(B, d), lower.reshape(B, d), upper.reshape(B, d), scale,
                   mechanisms.rr_keep_probability(alpha, k=3), tau, g)


# --------------------------------------------------------------------------- the random rotation


def fwht(x, axis: int = -1) -> np.ndarray:
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
    a = np.moveaxis(np.array(x, dtype=float), axis, -1)
    d = a.shape[-1]
    if d < 1 or d & (d - 1):
        raise ValueError(f"the Hadamard transform needs a power-of-2 length, got {d}")
    lead = a.shape[:-1]
    h = 1
    while h < d:
        v = a.reshape(*lead, d // (2 * h), 2, h)
        top, bottom = v[..., 0, :], v[..., 1, :]
        a = np.stack((top + bottom, top - bottom), axis=-2).reshape(*lead, d)
        h *= 2
    return np.moveaxis(a, -1, axis)


def padded_dimension(d: int) -> int:
    """The smallest power of 2 at least ``d`` (the rotation's dimension).

    Examples
    --------
    >>> padded_dimension(5), padded_dimension(8)
    (8, 8)
    """
    d = check_integer("d", d, minimum=1)
    return 1 << (d - 1).bit_length()


def rotate(x, signs) -> np.ndarray:
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
    s = np.asarray(signs, dtype=float)
    x = np.asarray(x, dtype=float)
    pad = s.shape[-1] - x.shape[-1]
    if pad < 0:
        raise ValueError("the signs are shorter than the vectors")
    if pad:
        x = np.concatenate([x, np.zeros(x.shape[:-1] + (pad,))], axis=-1)
    return fwht(x * s) / math.sqrt(s.shape[-1])


def rotate_back(y, signs) -> np.ndarray:
    r""":math:`U^\top y = D H_d y/\sqrt d`, the inverse of :func:`rotate` (eq. (37)).

    .. math:: \hat\theta = U^\top\sum_j \hat\theta_j e_j

    Source: Kent et al. (2024), §3.3, eq. (37).

    Examples
    --------
    >>> rotate_back(np.array([1.0, 1.0]), np.array([1.0, 1.0])).round(12).tolist()  # (H (1, 1))/√2
    [1.414213562373, 0.0]
    """
    s = np.asarray(signs, dtype=float)
    return fwht(np.asarray(y, dtype=float)) * s / math.sqrt(s.shape[-1])


def l2_tau(*, n, T, alpha, d, K: float = 1.0) -> tuple[int, float]:
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
    >>> l2_tau(n=100, T=54, alpha=0.2, d=1) == kent.estimator_cap(n=100, T=54, alpha=0.2)
    True
    """
    d = check_integer("d", d, minimum=1)
    t_star, tau = kent.estimator_cap(n=n, T=T, alpha=alpha, K=K, d=d)
    return t_star, tau * math.sqrt(math.log(max(math.e, 2.0 * d)) / d)


def l2_mean(xbar, *, tau, alpha, signs, rng) -> Release:
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
    x = np.asarray(xbar, dtype=float)
    s = np.asarray(signs, dtype=float)
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
    s = check_integer("s", s, minimum=1)
    lam = float(lam)
    if not lam >= 0:
        raise ValueError(f"lam must be non-negative, got {lam!r}")
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


def hashed_selection(votes, signs, *, s: int, alpha, truncation, vote_threshold: float = 0.5, rng) -> Selection:
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
    rng = np.random.default_rng(rng)
    B, h, d = V.shape
    scale = 2 * t / alpha
    hashed = np.einsum("bij,bij->bi", R, V, dtype=np.int64)
    Z = np.clip(hashed, -t, t) + mechanisms.laplace(scale, rng, size=(B, h))
    stat = np.einsum("bij,bi->bj", R, Z) / h
    order = np.argsort(-stat, axis=1, kind="stable")[:, :s]
    top = np.take_along_axis(stat, order, axis=1)
    return Selection(np.where(top > vote_threshold, order, -1), stat, t, scale)


def local_vote_probability(theta, *, T_star: int, threshold) -> np.ndarray:
    r"""Exact :math:`P(|\bar X_{ij}| > \tau)` for a user's mean of ``T_star`` two-point samples (eq. (40)).

    Under the product two-point law (coordinate ``j`` is :math:`\pm1` with mean :math:`\theta_j`),
    :math:`T^*\bar X_{ij} = 2S - T^*`, :math:`S \sim \mathrm{Bin}(T^*, (1 + \theta_j)/2)`:

    .. math:: P(|\bar X_{ij}| > \tau) = P\Big(S > \frac{T^*(1 + \tau)}{2}\Big) + P\Big(S < \frac{T^*(1 - \tau)}{2}\Big)

    Source: Kent et al. (2024), §4.1.1, eq. (40) (the local selection), with exact binomial tails.

    Examples
    --------
    >>> local_vote_probability(np.array([0.0]), T_star=1, threshold=0.5).tolist()  # |±1| > 1/2 always
    [1.0]
    """
    th = np.asarray(theta, dtype=float)
    T_star = check_integer("T_star", T_star, minimum=1)
    q = (1 + th) / 2
    hi = np.floor(T_star * (1 + threshold) / 2)  # S > hi_real  ⇔  S >= floor(hi_real) + 1
    lo = np.ceil(T_star * (1 - threshold) / 2) - 1  # S < lo_real  ⇔  S <= ceil(lo_real) - 1
    return stats.binom.sf(hi, T_star, q) + stats.binom.cdf(lo, T_star, q)


# --------------------------------------------------------------------------- the Sobolev density


def trig_basis(x, k: int) -> np.ndarray:
    r"""The trigonometric basis :math:`\varphi_1, \dots, \varphi_k` on [0, 1] at ``x`` (shape ``x.shape + (k,)``).

    .. math:: \varphi_1 = 1,\quad \varphi_{2m}(x) = \sqrt2\cos(2\pi m x),\quad \varphi_{2m+1}(x) = \sqrt2\sin(2\pi m x)

    For odd ``k``, :math:`\sum_{j \le k}\varphi_j(x)^2 = k` at every ``x``.

    Source: Kent et al. (2024), eq. (18) (Tsybakov's basis).

    Examples
    --------
    >>> round(float((trig_basis(np.array([0.3]), 5) ** 2).sum()), 12)
    5.0
    """
    k = check_integer("k", k, minimum=1)
    x = np.asarray(x, dtype=float)[..., None]
    j = np.arange(1, k + 1)
    m = j // 2
    out = np.where(j % 2 == 0, math.sqrt(2) * np.cos(2 * np.pi * m * x), math.sqrt(2) * np.sin(2 * np.pi * m * x))
    return np.where(j == 1, 1.0, out)


def density_cutoff(*, n, T, alpha, beta, C: float = 1.0) -> int:
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
    x = n * alpha * alpha
    log_k = min(math.log(x * T) / (2 * beta + 2), math.log(x) - math.log(C * math.log(max(math.e, x))))
    k = math.floor(math.exp(log_k) + 1e-9) if log_k > 0 else 1
    return max(1, k - (1 - k % 2))


@dataclass(frozen=True)
class TrigDensity:
    r"""A density :math:`f = 1 + \sum_{j \ge 2}\theta_j\varphi_j` on [0, 1] with finitely many coefficients.

    ``coefficients`` maps ``j >= 2`` to :math:`\theta_j`; :math:`\sqrt2\sum|\theta_j| \le 1` guarantees
    :math:`f \ge 0`.  Samples are drawn on the midpoint grid :math:`x_g = (g + 1/2)/G` with
    probabilities :math:`f(x_g)/G`: for every trigonometric polynomial of degree below ``G`` the
    midpoint rule is exact, so the grid law has the same coefficients :math:`\theta_j` and the
    same second moments :math:`E\varphi_j\varphi_l(X)` as ``f`` for every ``j, l`` the estimator
    uses (``grid`` is chosen for that), and a user's :math:`\sum_t\varphi(X_t)` is a multinomial
    count vector times the basis — exact in ``T``.

    .. math:: P(X = x_g) = \frac{f(x_g)}{G},\qquad \sum_g \frac{f(x_g)}{G}\varphi_j(x_g) = \int_0^1 f\varphi_j = \theta_j

    Source: Kent et al. (2024), eqs. (18)–(20) (the class); Tsybakov (2009), eq. (1.91) (the weights :math:`a_j`).

    Examples
    --------
    >>> f = TrigDensity({2: 0.4, 5: 0.2})
    >>> f.theta(5).round(12).tolist()
    [1.0, 0.4, 0.0, 0.0, 0.2]
    """

    coefficients: dict

    def __post_init__(self):
        c = {}
        for j, v in dict(self.coefficients).items():
            if isinstance(j, bool) or not isinstance(j, (int, np.integer)) or j < 2:
                raise ValueError(f"coefficient indices must be integers >= 2, got {j!r}")
            c[int(j)] = float(v)
            if not math.isfinite(c[int(j)]):
                raise ValueError(f"coefficient {j} must be finite, got {v!r}")
        if math.sqrt(2) * sum(abs(v) for v in c.values()) > 1:
            raise ValueError("need sqrt(2) * sum |theta_j| <= 1 (so that f >= 0)")
        object.__setattr__(self, "coefficients", c)

    @property
    def degree(self) -> int:
        """The highest frequency of ``f``."""
        return max((j // 2 for j in self.coefficients), default=0)

    def theta(self, k: int) -> np.ndarray:
        """The first ``k`` coefficients :math:`(\\theta_1 = 1, \\theta_2, \\dots)`."""
        out = np.zeros(k)
        out[0] = 1.0
        for j, v in self.coefficients.items():
            if j <= k:
                out[j - 1] = v
        return out

    def tail(self, k: int) -> float:
        """:math:`\\sum_{j > k}\\theta_j^2`, the truncation bias."""
        return float(sum(v * v for j, v in self.coefficients.items() if j > k))

    def sobolev_norm(self, beta: float) -> float:
        """:math:`(\\sum_j a_j^2\\theta_j^2)^{1/2}` with Tsybakov's :math:`a_j = 2\\lfloor j/2\\rfloor^\\beta`-type weights (:math:`a_{2m} = a_{2m+1} = (2\\pi m)^\\beta`)."""
        return math.sqrt(sum(((2 * math.pi * (j // 2)) ** beta * v) ** 2 for j, v in self.coefficients.items()))

    def grid(self, k: int) -> int:
        """The grid size: a power of 2 above every frequency of :math:`f\\varphi_j\\varphi_l`, :math:`j, l \\le k`."""
        return max(64, padded_dimension(2 * (self.degree + k + 1)))

    def grid_law(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The grid points and their probabilities."""
        G = self.grid(k)
        x = (np.arange(G) + 0.5) / G
        f = 1.0 + sum(v * trig_basis(x, j)[..., j - 1] for j, v in self.coefficients.items())
        p = np.clip(f, 0.0, None) / G
        return x, p / p.sum()


# --------------------------------------------------------------------------- simulation, block by block

PROBLEMS = ("linf", "l2", "sparse", "density")


@dataclass(frozen=True)
class _Plan:
    problem: str
    n: int
    alpha: float
    T_star: int
    tau: float
    theta: np.ndarray  # the mean (means), the first k coefficients (density)
    d: int  # coordinates estimated (the padded dimension for l2 / density)
    g: int  # users per group
    s: int = 0
    procedure: int = 0
    lam_C: float = 1.0
    select_tau: float = 0.0
    truncation: float = 0.0
    h: int = 0
    density: TrigDensity | None = None
    k: int = 0


def _two_point_means(rng, T_star: int, q, shape) -> np.ndarray:
    """Users' means of ``T_star`` ±1 samples with P(+1) = q: (2 Bin(T*, q) − T*)/T*, exactly."""
    return (2.0 * rng.binomial(T_star, np.broadcast_to(q, shape)) - T_star) / T_star


def _kent_block(plan: _Plan, seed_seq, size: int) -> np.ndarray:
    """Squared errors of one block of replications (the loss of each problem)."""
    rng = np.random.default_rng(seed_seq)
    th, d, g, Ts = plan.theta, plan.d, plan.g, plan.T_star
    if plan.problem == "linf" or (plan.problem == "sparse" and plan.procedure == 2):
        x = _two_point_means(rng, Ts, ((1 + th) / 2)[None, :, None], (size, d, 2 * g))
        r = coordinatewise(x, tau=plan.tau, alpha=plan.alpha, rng=rng)
        est = r.estimate
        if plan.problem == "sparse":
            est = sparse_threshold(r, s=plan.s, lam=sparse_lambda(r, d=d, C_lambda=plan.lam_C))
        return ((est - th) ** 2).sum(axis=1)
    if plan.problem == "sparse":  # Procedure 1, one replication at a time (h × d votes each)
        p = local_vote_probability(th, T_star=Ts, threshold=plan.select_tau)
        sel = np.empty((size, plan.s), dtype=np.int64)
        for b in range(size):
            V = (rng.random((1, plan.h, th.size)) < p).astype(np.int8)
            R = (2 * rng.integers(0, 2, size=(1, plan.h, th.size), dtype=np.int8) - 1).astype(np.int8)
            sel[b] = hashed_selection(V, R, s=plan.s, alpha=plan.alpha, truncation=plan.truncation, rng=rng).selected[0]
        q = (1 + th[np.maximum(sel, 0)]) / 2
        x = _two_point_means(rng, Ts, q[:, :, None], (size, plan.s, 2 * g))
        r = coordinatewise(x, tau=plan.tau, alpha=plan.alpha, rng=rng)
        est = np.zeros((size, th.size))
        rows, slots = np.nonzero(sel >= 0)
        est[rows, sel[rows, slots]] = r.estimate[rows, slots]
        return ((est - th) ** 2).sum(axis=1)
    signs = 2.0 * rng.integers(0, 2, size=(size, d)) - 1
    users = 2 * d * g
    if plan.problem == "l2":  # the hypercube {±1/√d₀}^{d₀}, coordinates independent
        d0 = th.size
        q = (1 + math.sqrt(d0) * th) / 2
        x = _two_point_means(rng, Ts, q, (size, users, d0)) / math.sqrt(d0)
        est = l2_mean(x, tau=plan.tau, alpha=plan.alpha, signs=signs, rng=rng).estimate
        return ((est - th) ** 2).sum(axis=1)
    k, f = plan.k, plan.density  # density: Y = φ(X)/√k, by multinomial counts on the grid
    xg, pg = f.grid_law(k)
    counts = rng.multinomial(Ts, pg, size=(size, users))
    y = counts @ trig_basis(xg, k) / (Ts * math.sqrt(k))
    coef = math.sqrt(k) * l2_mean(y, tau=plan.tau, alpha=plan.alpha, signs=signs, rng=rng).estimate
    return ((coef - th) ** 2).sum(axis=1) + f.tail(k)


@dataclass(frozen=True)
class KentRisk:
    r"""Simulated risk of one of Kent et al.'s multivariate procedures: ``risk ± stderr`` and the settings.

    ``risk`` is :math:`E\|\hat\theta - \theta\|_2^2` (means) or :math:`E\|\hat f - f\|_{L^2}^2` (density).
    """

    problem: str
    risk: float
    stderr: float
    losses: np.ndarray = field(repr=False)
    settings: dict = field(repr=False)


def _theta_vector(theta, name="theta") -> np.ndarray:
    th = np.atleast_1d(np.asarray(theta, dtype=float))
    if th.ndim != 1 or th.size == 0 or not np.all(np.isfinite(th)):
        raise ValueError(f"{name} must be a non-empty finite vector, got {theta!r}")
    return th


def _plan(problem, n, T, alpha, theta, density, s, beta, K, procedure, C_lambda, C_k, truncation) -> _Plan:
    if problem not in PROBLEMS:
        raise ValueError(f"problem must be one of {', '.join(PROBLEMS)}, got {problem!r}")
    n = check_integer("n", n, minimum=2)
    T = check_integer("T", T, minimum=1)
    alpha, K = check_positive("alpha", alpha), check_positive("K", K)
    if alpha > 1:
        warn_assumption(f"alpha = {alpha} > 1: Kent et al. (2024) v1 assume alpha in (0, 1]")
    if problem == "density":
        if not isinstance(density, TrigDensity):
            raise ValueError(f"the density problem needs a TrigDensity, got {density!r}")
        beta = check_positive("beta", beta)
        k = density_cutoff(n=n, T=T, alpha=alpha, beta=beta, C=C_k)
        dp = padded_dimension(k)
        g = n // (2 * dp)
        if g < 1:
            raise ValueError(f"n = {n} users cannot fill 2d = {2 * dp} groups")
        t_star, tau = l2_tau(n=n, T=T, alpha=alpha, d=dp, K=K)
        return _Plan(problem, n, alpha, t_star, tau, density.theta(k), dp, g, density=density, k=k)
    th = _theta_vector(theta)
    if np.any(np.abs(th) > 1):
        raise ValueError("every coordinate of theta must lie in [-1, 1]")
    d = th.size
    if problem == "l2":
        if np.any(np.abs(th) * math.sqrt(d) > 1):
            raise ValueError("the hypercube law needs |theta_j| <= 1/sqrt(d) (so that ||X||_2 = 1)")
        dp = padded_dimension(d)
        g = n // (2 * dp)
        if g < 1:
            raise ValueError(f"n = {n} users cannot fill 2d = {2 * dp} groups")
        t_star, tau = l2_tau(n=n, T=T, alpha=alpha, d=dp, K=K)
        return _Plan(problem, n, alpha, t_star, tau, th, dp, g)
    if problem == "linf" or procedure == 2:
        if problem == "sparse":
            s = check_integer("s", s, minimum=1)
        g = n // (2 * d)
        if g < 1:
            raise ValueError(f"n = {n} users cannot fill 2d = {2 * d} groups")
        t_star, tau = kent.estimator_cap(n=n, T=T, alpha=alpha, K=K, d=d)
        return _Plan(problem, n, alpha, t_star, tau, th, d, g, s=s or 0, procedure=2, lam_C=float(C_lambda))
    if procedure != 1:
        raise ValueError(f"procedure must be 1 or 2, got {procedure!r}")
    s = check_integer("s", s, minimum=1)
    h = n // 2
    g = (n - h) // (2 * s)
    if g < 1:
        raise ValueError(f"n = {n} users cannot fill the selection half and 2s = {2 * s} groups")
    t_star, tau = kent.estimator_cap(n=n, T=T, alpha=alpha, K=K, d=s)
    x = n * alpha * alpha
    select_tau = math.sqrt(2 * math.log(max(math.e, d * x * t_star)) / t_star)
    t = min(float(s), math.sqrt(2 * s * math.log(max(math.e, x)))) if truncation is None else truncation
    return _Plan(problem, n, alpha, t_star, tau, th, s, g, s=s, procedure=1, select_tau=select_tau,
                 truncation=check_positive("truncation", t), h=h)


def kent_risk(problem, *, n, T, alpha, reps, seed, theta=None, density=None, s=None, beta=None, K: float = 1.0,
              procedure: int = 2, C_lambda: float = 1.0, C_k: float = 1.0, truncation=None, executor=None,
              progress: bool = False) -> KentRisk:
    r"""Simulated risk of Kent et al.'s procedure for one of the four multivariate problems.

    * ``"linf"`` — the ℓ∞ ball (§3.2): data from the product two-point law (coordinate ``j`` is
      :math:`\pm1` with mean ``theta[j]``), ``n // (2d)`` users in each of the 2d groups,
      :math:`T^* = \min\{T, e^{n\alpha^2/(Kd)}\}`; with ``d = 1`` it is the univariate procedure.
    * ``"l2"`` — the ℓ2 ball (§3.3): data from the hypercube :math:`\{\pm1/\sqrt d\}^d` with mean
      ``theta`` (:math:`|\theta_j| \le 1/\sqrt d`), a fresh rotation per replication, τ of :func:`l2_tau`.
    * ``"sparse"`` — the s-sparse mean: ``procedure=2`` (§4.1.2: the ℓ∞ estimate thresholded at
      :func:`sparse_lambda` with ``C_lambda``, then the ``s`` largest) or ``procedure=1`` (§4.1.1:
      local selection at :math:`\sqrt{2\log(e \vee dn\alpha^2T^*)/T^*}` [R], :func:`hashed_selection` with
      truncation ``min{s, √(2s log(e ∨ nα²))}`` [R] unless given, then the s-dimensional ℓ∞
      procedure on the selected coordinates with :math:`T^* = \min\{T, e^{n\alpha^2/(Ks)}\}`).
    * ``"density"`` — the Sobolev density (§5.1): ``density`` (a :class:`TrigDensity`), cut-off
      :func:`density_cutoff` with ``beta`` and ``C_k``, the ℓ2 procedure on :math:`Y = \varphi(X)/\sqrt k`,
      :math:`\hat f = \sum_{j \le k}\sqrt k\,\hat\theta_j\varphi_j`, risk in :math:`L^2` by Parseval.

    Every user's data enter through exact sufficient statistics (one binomial per reported
    coordinate; multinomial grid counts for the density; the exact binomial tail for a
    local selection bit), so ``T`` up to :math:`10^{12}` costs nothing more.  Replications run in
    fixed blocks seeded from ``SeedSequence(seed).spawn``: the result does not depend on
    ``executor``.

    .. math:: \widehat R = \frac1R\sum_r \|\hat\theta_r - \theta\|_2^2 \pm \frac{\mathrm{sd}}{\sqrt R}

    Source: Kent et al. (2024), §§3.2, 3.3, 4.1, 5.1 (eqs. (31)–(50)).

    Examples
    --------
    >>> r = kent_risk("linf", n=800, T=100, alpha=1.0, theta=[0.2, -0.5], reps=64, seed=0, K=50)
    >>> r.risk < 1 and r.stderr > 0
    True
    """
    plan = _plan(problem, n, T, alpha, theta, density, s, beta, K, procedure, C_lambda, C_k, truncation)
    losses = np.concatenate(_map_blocks(_kent_block, plan, reps, seed, executor, progress))
    R = losses.size
    settings = {"problem": problem, "n": plan.n, "T": int(T), "alpha": plan.alpha, "K": float(K), "T_star": plan.T_star,
                "tau": plan.tau, "group_size": plan.g, "dimension": plan.d, "reps": R, "seed": seed}
    if problem == "sparse":
        settings.update(s=plan.s, procedure=plan.procedure, C_lambda=plan.lam_C, selection_tau=plan.select_tau,
                        truncation=plan.truncation)
    if problem == "density":
        settings.update(k=plan.k, beta=float(beta), C_k=float(C_k), grid=density.grid(plan.k))
    se = float(losses.std(ddof=1) / math.sqrt(R)) if R > 1 else math.inf
    return KentRisk(problem, float(losses.mean()), se, losses, settings)


@dataclass(frozen=True)
class RateCheck:
    r"""Simulated risks beside Kent et al.'s lower and upper rates across a sweep in ``T``.

    ``rows``: one dict per ``T`` (``T``, ``T_star``, ``risk``, ``stderr``, ``lower``, ``upper``,
    ``risk_over_lower``, ``risk_over_upper``); ``lower_constant`` :math:`\hat c = \min_T R/\text{lower}`
    and ``upper_constant`` :math:`\hat C = \max_T R/\text{upper}` — the empirical constants for which
    :math:`\hat c\cdot\text{lower} \le R \le \hat C\cdot\text{upper}` across the sweep.
    """

    problem: str
    rows: tuple = field(repr=False)
    lower_constant: float
    upper_constant: float
    settings: dict = field(repr=False)


def _rate(problem, *, n, T, alpha, d, s, beta, constants):
    if problem == "linf":
        return kent.rate("mean", n=n, T=T, alpha=alpha, d=d, ball="linf", constants=constants)
    if problem == "l2":
        return kent.rate("mean", n=n, T=T, alpha=alpha, d=d, ball="l2", constants=constants)
    if problem == "sparse":
        return kent.rate("sparse", n=n, T=T, alpha=alpha, d=d, s=s, constants=constants)
    return kent.rate("density", n=n, T=T, alpha=alpha, beta=beta, constants=constants)


def check_kent(problem, *, n, alpha, Ts, reps, seed, constants=None, executor=None, **options) -> RateCheck:
    r"""Kent et al.'s simulated risk, with standard errors, beside the lower and upper rates, across ``Ts``.

    Runs :func:`kent_risk` at each ``T`` (same ``seed``; ``options`` are passed on) and evaluates
    :func:`bounds.kent.rate` (``constants``, default all 1) at the same point.  The fitted
    constants are the extreme ratios over the sweep:

    .. math:: \hat c = \min_T \frac{\widehat R(T)}{\text{lower}(T)},\qquad
              \hat C = \max_T \frac{\widehat R(T)}{\text{upper}(T)}

    Source: Kent et al. (2024), Theorems 6, 8, 9 (the rates, ``bounds.kent``) and §§3–5 (the procedures).

    Examples
    --------
    >>> c = check_kent("linf", n=800, alpha=1.0, Ts=[10, 1000], reps=64, seed=0, theta=[0.3, -0.3], K=50)
    >>> [r["T"] for r in c.rows], c.lower_constant > 1
    ([10, 1000], True)
    """
    rows = []
    d = s = beta = None
    for T in Ts:
        r = kent_risk(problem, n=n, T=T, alpha=alpha, reps=reps, seed=seed, executor=executor, **options)
        d = len(np.atleast_1d(options["theta"])) if problem != "density" else None
        s, beta = options.get("s"), options.get("beta")
        rt = _rate(problem, n=n, T=int(T), alpha=alpha, d=d or 1, s=s, beta=beta, constants=constants)
        rows.append({"T": int(T), "T_star": r.settings["T_star"], "risk": r.risk, "stderr": r.stderr,
                     "lower": rt.lower, "upper": rt.upper, "risk_over_lower": r.risk / rt.lower,
                     "risk_over_upper": r.risk / rt.upper, "regime": rt.regime})
    settings = {"n": n, "alpha": alpha, "reps": reps, "seed": seed, "constants": repr(constants or kent.RateConstants()),
                **{k: v for k, v in options.items() if k not in ("theta", "density")}}
    return RateCheck(problem, tuple(rows), min(r["risk_over_lower"] for r in rows),
                     max(r["risk_over_upper"] for r in rows), settings)


def loglog_slope(x, risk, stderr) -> tuple[float, float]:
    r"""Weighted least-squares slope of :math:`\log R` on :math:`\log x`, with its standard error.

    Each point's weight is :math:`1/\mathrm{se}(\log R)^2`, :math:`\mathrm{se}(\log R) = \mathrm{se}/R`
    (delta method); the slope's standard error is :math:`(\sum_i w_i(\log x_i - \overline{\log x})^2)^{-1/2}`.

    .. math:: \hat b = \frac{\sum_i w_i(u_i - \bar u)(y_i - \bar y)}{\sum_i w_i(u_i - \bar u)^2},\quad u = \log x,\ y = \log R

    Source: the slopes of Kent et al. (2024)'s rates in T: −1 below the phase transition, 0 above (Theorem 6).

    Examples
    --------
    >>> b, se = loglog_slope([1, 10, 100], [1.0, 0.1, 0.01], [0.01, 0.001, 0.0001])
    >>> round(b, 12), se > 0
    (-1.0, True)
    """
    u = np.log(np.asarray(x, dtype=float))
    y = np.log(np.asarray(risk, dtype=float))
    w = (np.asarray(risk, dtype=float) / np.asarray(stderr, dtype=float)) ** 2
    if u.size < 2 or np.ptp(u) == 0:
        raise ValueError("a slope needs at least two distinct x")
    ub, yb = np.average(u, weights=w), np.average(y, weights=w)
    sxx = float(np.sum(w * (u - ub) ** 2))
    return float(np.sum(w * (u - ub) * (y - yb)) / sxx), 1.0 / math.sqrt(sxx)
