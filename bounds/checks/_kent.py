r"""Kent et al. (2024) simulated: the multivariate problems' risks beside their rates, and log-log slopes."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from .. import kent, simulate
from .._lazy import lazy
from ..estimators import kent as kent_estimators
from ..mechanisms import SeedLike
from ..numerics import (MAX_ARRAY, check_array, check_choice, check_integer, check_positive, check_real, format_value,
                        warn_assumption)

if TYPE_CHECKING:
    from scipy import stats
else:
    stats = lazy("scipy.stats")  # imported at first use: not at the command line's start-up

MAX_EXACT_INT = 2**53  # the largest count a float64 holds exactly (scipy's binomial tails work in float64)
MAX_INT64_COUNT = 2**62  # samples per user numpy draws binomially (int64), with room for the sums

# =========================================================================== Kent et al.: the multivariate problems simulated

def local_vote_probability(theta: ArrayLike, *, T_star: int, threshold: float) -> np.ndarray:
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
    if isinstance(theta, (list, tuple, np.ndarray)):
        th = _theta_vector(theta)
    else:
        th = np.asarray(check_real("theta", theta))
    if np.any(np.abs(th) > 1):
        raise ValueError(f"theta must lie in [-1, 1], got {format_value(theta)}")
    T_star = check_integer("T_star", T_star, minimum=1, maximum=MAX_EXACT_INT, why="binomial tails in float64")
    threshold = check_real("threshold", threshold, low=0)
    q = (1 + th) / 2
    hi = np.floor(T_star * (1 + threshold) / 2)  # S > hi_real  ⇔  S >= floor(hi_real) + 1
    lo = np.ceil(T_star * (1 - threshold) / 2) - 1  # S < lo_real  ⇔  S <= ceil(lo_real) - 1
    return stats.binom.sf(hi, T_star, q) + stats.binom.cdf(lo, T_star, q)



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

    def __post_init__(self) -> None:
        if not isinstance(self.coefficients, Mapping):
            raise ValueError(f"coefficients must be a mapping from indices j >= 2 to reals, "
                             f"got {format_value(self.coefficients)}")
        c = {}
        for j, v in self.coefficients.items():
            if isinstance(j, bool) or not isinstance(j, (int, np.integer)) or j < 2:
                raise ValueError(f"coefficients must have integer indices >= 2, got index {format_value(j)}")
            c[int(j)] = check_real(f"coefficients[{j}]", v)
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
        return kent_estimators.padded_dimension(2 * (self.degree + k + 1))

    def grid_law(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The grid points and their probabilities."""
        G = self.grid(k)
        x = (np.arange(G) + 0.5) / G
        f = 1.0 + sum(v * kent_estimators.trig_basis(x, j)[..., j - 1] for j, v in self.coefficients.items())
        p = np.clip(f, 0.0, None) / G
        return x, p / p.sum()


# --------------------------------------------------------------------------- blocks

KENT_PROBLEMS = ("linf", "l2", "sparse", "density")


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
        r = kent_estimators.coordinatewise(x, tau=plan.tau, alpha=plan.alpha, rng=rng)
        est = r.estimate
        if plan.problem == "sparse":
            est = kent_estimators.sparse_threshold(r, s=plan.s, lam=kent_estimators.sparse_lambda(r, d=d, C_lambda=plan.lam_C))
        return ((est - th) ** 2).sum(axis=1)
    if plan.problem == "sparse":  # Procedure 1, one replication at a time (h × d votes each)
        p = local_vote_probability(th, T_star=Ts, threshold=plan.select_tau)
        sel = np.empty((size, plan.s), dtype=np.int64)
        for b in range(size):
            V = (rng.random((1, plan.h, th.size)) < p).astype(np.int8)
            R = (2 * rng.integers(0, 2, size=(1, plan.h, th.size), dtype=np.int8) - 1).astype(np.int8)
            sel[b] = kent_estimators.hashed_selection(V, R, s=plan.s, alpha=plan.alpha, truncation=plan.truncation, rng=rng).selected[0]
        q = (1 + th[np.maximum(sel, 0)]) / 2
        x = _two_point_means(rng, Ts, q[:, :, None], (size, plan.s, 2 * g))
        r = kent_estimators.coordinatewise(x, tau=plan.tau, alpha=plan.alpha, rng=rng)
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
        est = kent_estimators.l2_mean(x, tau=plan.tau, alpha=plan.alpha, signs=signs, rng=rng).estimate
        return ((est - th) ** 2).sum(axis=1)
    k, f = plan.k, plan.density  # density: Y = φ(X)/√k, by multinomial counts on the grid
    if f is None:
        raise ValueError(f"the {plan.problem!r} problem has no density")
    xg, pg = f.grid_law(k)
    counts = rng.multinomial(Ts, pg, size=(size, users))
    y = counts @ kent_estimators.trig_basis(xg, k) / (Ts * math.sqrt(k))
    coef = math.sqrt(k) * kent_estimators.l2_mean(y, tau=plan.tau, alpha=plan.alpha, signs=signs, rng=rng).estimate
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
    """A non-empty finite vector of at most :data:`~bounds.numerics.MAX_ARRAY` coordinates (a scalar is one)."""
    return check_array(name, [theta] if np.ndim(theta) == 0 and not isinstance(theta, (str, bytes)) else theta,
                       max_size=MAX_ARRAY)


MAX_SETTINGS = 1000
"""Largest number of settings (``thetas`` of :func:`check_dame`, ``Ts`` of :func:`check_kent`) one check
simulates: each is a full simulation of ``reps`` replications."""


def _sequence(name: str, values) -> list:
    """``values`` as a list, if it is a sequence or an array (not a string or a scalar) of at most :data:`MAX_SETTINGS`."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple, range, np.ndarray)) \
            or np.ndim(values) != 1:
        raise ValueError(f"{name} must be a sequence of values, got {format_value(values)}")
    if len(values) > MAX_SETTINGS:
        raise ValueError(f"{name} must hold at most {MAX_SETTINGS} settings (checks.MAX_SETTINGS: each is a "
                         f"simulation), got {len(values)}")
    return list(values)


def _plan(problem, n, T, alpha, theta, density, s, beta, K, procedure, C_lambda, C_k, truncation) -> _Plan:
    problem = check_choice("problem", problem, KENT_PROBLEMS)
    procedure = check_integer("procedure", procedure, minimum=1, maximum=2)  # every argument checked, used or not
    C_lambda, C_k = check_positive("C_lambda", C_lambda), check_positive("C_k", C_k)
    n = check_integer("n", n, minimum=2)
    T = check_integer("T", T, minimum=1)
    alpha, K = check_positive("alpha", alpha), check_positive("K", K)
    if alpha > 1:
        warn_assumption(f"alpha = {alpha} > 1: Kent et al. (2024) v1 assume alpha in (0, 1]")
    if problem == "density":
        if not isinstance(density, TrigDensity):
            raise ValueError(f"the density problem needs a TrigDensity, got {density!r}")
        beta = check_positive("beta", beta)
        k = kent_estimators.density_cutoff(n=n, T=T, alpha=alpha, beta=beta, C=C_k)
        dp = kent_estimators.padded_dimension(k)
        g = n // (2 * dp)
        if g < 1:
            raise ValueError(f"n = {n} users cannot fill 2d = {2 * dp} groups")
        t_star, tau = kent_estimators.l2_tau(n=n, T=T, alpha=alpha, d=dp, K=K)
        return _Plan(problem, n, alpha, t_star, tau, density.theta(k), dp, g, density=density, k=k)
    th = _theta_vector(theta)
    if np.any(np.abs(th) > 1):
        raise ValueError("every coordinate of theta must lie in [-1, 1]")
    d = th.size
    if problem == "l2":
        if np.any(np.abs(th) * math.sqrt(d) > 1):
            raise ValueError("the hypercube law needs |theta_j| <= 1/sqrt(d) (so that ||X||_2 = 1)")
        dp = kent_estimators.padded_dimension(d)
        g = n // (2 * dp)
        if g < 1:
            raise ValueError(f"n = {n} users cannot fill 2d = {2 * dp} groups")
        t_star, tau = kent_estimators.l2_tau(n=n, T=T, alpha=alpha, d=dp, K=K)
        return _Plan(problem, n, alpha, t_star, tau, th, dp, g)
    if problem == "sparse":
        s = check_integer("s", s, minimum=1)
        if s > d:
            raise ValueError(f"s = {s} exceeds d = {d}")
    if problem == "linf" or procedure == 2:
        g = n // (2 * d)
        if g < 1:
            raise ValueError(f"n = {n} users cannot fill 2d = {2 * d} groups")
        t_cap, tau = kent.estimator_cap(n=n, T=T, alpha=alpha, K=K, d=d)
        t_star = int(t_cap)  # an integer: min(T, ⌊e^{nα²/(Kd)}⌋)
        return _Plan(problem, n, alpha, t_star, tau, th, d, g, s=s or 0, procedure=2, lam_C=float(C_lambda))
    if procedure != 1:
        raise ValueError(f"procedure must be 1 or 2, got {procedure!r}")
    h = n // 2
    g = (n - h) // (2 * s)
    if g < 1:
        raise ValueError(f"n = {n} users cannot fill the selection half and 2s = {2 * s} groups")
    t_cap, tau = kent.estimator_cap(n=n, T=T, alpha=alpha, K=K, d=s)
    t_star = int(t_cap)  # an integer: min(T, ⌊e^{nα²/(Kd)}⌋)
    x = n * alpha * alpha
    select_tau = math.sqrt(2 * math.log(max(math.e, d * x * t_star)) / t_star)
    t = min(float(s), math.sqrt(2 * s * math.log(max(math.e, x)))) if truncation is None else truncation
    return _Plan(problem, n, alpha, t_star, tau, th, s, g, s=s, procedure=1, select_tau=select_tau,
                 truncation=check_positive("truncation", t), h=h)


def kent_risk(problem: str, *, n: int, T: int, alpha: float, reps: int, seed: SeedLike, theta: ArrayLike | None = None,
              density: TrigDensity | None = None, s: int | None = None, beta: float | None = None, K: float = 1.0,
              procedure: int = 2, C_lambda: float = 1.0, C_k: float = 1.0, truncation: float | None = None,
              executor: Executor | None = None, progress: bool = False) -> KentRisk:
    r"""Simulated risk of Kent et al.'s procedure for one of the four multivariate problems.

    * ``"linf"`` — the ℓ∞ ball (§3.2): data from the product two-point law (coordinate ``j`` is
      :math:`\pm1` with mean ``theta[j]``), ``n // (2d)`` users in each of the 2d groups,
      :math:`T^* = \min\{T, e^{n\alpha^2/(Kd)}\}`; with ``d = 1`` it is the univariate procedure.
    * ``"l2"`` — the ℓ2 ball (§3.3): data from the hypercube :math:`\{\pm1/\sqrt d\}^d` with mean
      ``theta`` (:math:`|\theta_j| \le 1/\sqrt d`), a fresh rotation per replication, τ of :func:`~bounds.estimators.kent.l2_tau`.
    * ``"sparse"`` — the s-sparse mean: ``procedure=2`` (§4.1.2: the ℓ∞ estimate thresholded at
      :func:`~bounds.estimators.kent.sparse_lambda` with ``C_lambda``, then the ``s`` largest) or ``procedure=1`` (§4.1.1:
      local selection at :math:`\sqrt{2\log(e \vee dn\alpha^2T^*)/T^*}` [R], :func:`~bounds.estimators.kent.hashed_selection` with
      truncation ``min{s, √(2s log(e ∨ nα²))}`` [R] unless given, then the s-dimensional ℓ∞
      procedure on the selected coordinates with :math:`T^* = \min\{T, e^{n\alpha^2/(Ks)}\}`).
    * ``"density"`` — the Sobolev density (§5.1): ``density`` (a :class:`TrigDensity`), cut-off
      :func:`~bounds.estimators.kent.density_cutoff` with ``beta`` and ``C_k``, the ℓ2 procedure on :math:`Y = \varphi(X)/\sqrt k`,
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
    if plan.T_star > MAX_INT64_COUNT:
        raise ValueError(f"T* = {plan.T_star} exceeds 2^62: a user's binomial sum would overflow int64 (lower T or raise K)")
    losses = np.concatenate(simulate.map_blocks(_kent_block, plan, reps, seed, executor, progress))
    R = losses.size
    settings = {"problem": problem, "n": plan.n, "T": int(T), "alpha": plan.alpha, "K": float(K), "T_star": plan.T_star,
                "tau": plan.tau, "group_size": plan.g, "dimension": plan.d, "reps": R, "seed": seed}
    if problem == "sparse":
        settings.update(s=plan.s, procedure=plan.procedure, C_lambda=plan.lam_C, selection_tau=plan.select_tau,
                        truncation=plan.truncation)
    if problem == "density":
        assert density is not None and beta is not None  # _plan refuses a density problem without them
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


def check_kent(problem: str, *, n: int, alpha: float, Ts: Sequence[int], reps: int, seed: SeedLike,
               constants: Any = None, executor: Executor | None = None, **options: Any) -> RateCheck:
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
    Ts = [check_integer("Ts", T, minimum=1) for T in _sequence("Ts", Ts)]
    if not Ts:
        raise ValueError("Ts must hold at least one T, got []")
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


def loglog_slope(x: ArrayLike, risk: ArrayLike, stderr: ArrayLike) -> tuple[float, float]:
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
    xs = check_array("x", x, low=0, low_open=True)
    rs = check_array("risk", risk, low=0, low_open=True)
    ses = check_array("stderr", stderr, low=0, low_open=True)
    if not xs.shape == rs.shape == ses.shape:
        raise ValueError(f"x, risk and stderr must have the same length, got {xs.size}, {rs.size} and {ses.size}")
    u, y = np.log(xs), np.log(rs)
    with np.errstate(over="ignore"):
        w = (rs / ses) ** 2
    if not np.all(np.isfinite(w)):
        raise ValueError(f"risk / stderr must be finite, got risk={format_value(risk)}, stderr={format_value(stderr)}")
    if u.size < 2 or np.ptp(u) == 0:
        raise ValueError("a slope needs at least two distinct x")
    ub, yb = np.average(u, weights=w), np.average(y, weights=w)
    sxx = float(np.sum(w * (u - ub) ** 2))
    return float(np.sum(w * (u - ub) * (y - yb)) / sxx), 1.0 / math.sqrt(sxx)
