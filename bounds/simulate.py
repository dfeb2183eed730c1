r"""The Monte Carlo layer: every estimator, simulated exactly and fast, beside its bound.

Exactness.  Users' data enter every estimator through sufficient statistics drawn
from their exact laws: under the two-point :math:`\mu` on :math:`\{-1, 1\}` (mean
``theta``) a user's sum of ``m`` samples is one binomial; a prefix of ``T`` samples
and the rest are two (:math:`S_m = S_T + \mathrm{Bin}(m - T, q)`); a bin's noisy vote
total is :func:`~bounds.mechanisms.noisy_vote_totals`; Duchi's :math:`+B` count is one
binomial.  An explicit per-user, per-sample path (:class:`Sampler`, any :math:`\mu`)
has the same law (tested).

Reproducibility.  Replications run in fixed blocks of :data:`BLOCK`; block ``b``
draws from the ``b``-th child of ``numpy.random.SeedSequence(seed).spawn``, so the
estimates for a seed are identical whatever the executor (none, a process pool, a
``dask.distributed`` client's executor) and however blocks are spread over workers.

Examples
--------
>>> from bounds import simulate, sizes
>>> r = simulate.risk("duchi", theta=0.3, sizes=sizes.point(10), n=1000, alpha=0.5, reps=200, seed=1)
>>> r.estimates.shape, r.mse < 0.2
((200,), True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np
from scipy import stats
from tqdm.auto import tqdm

from . import cummings, dame, kent, mechanisms, rameshwar
from .numerics import check_integer, check_positive
from .sizes import SizeLaw

__all__ = [
    "BLOCK",
    "TwoPoint",
    "Sampler",
    "RiskResult",
    "risk",
    "compare",
    "dame_clip_widths",
    "cummings_risk",
    "rameshwar_errors",
    "akmv_worst_case",
    "Check",
    "check_dame",
    "check_duchi",
    "empirical_constant",
    "check_cummings",
    "check_rameshwar",
]

BLOCK = 64  # replications per random stream: part of the seed contract
ESTIMATORS = ("duchi", "kent", "dame")


# =========================================================================== populations


@dataclass(frozen=True)
class TwoPoint:
    r"""The two-point law :math:`\mu(1) = (1+\theta)/2`, :math:`\mu(-1) = (1-\theta)/2` (mean :math:`\theta`).

    Sums of ``m`` samples are :math:`2\,\mathrm{Bin}(m, (1+\theta)/2) - m`, drawn exactly.

    .. math:: \bar X_m = \frac{2 S_m - m}{m},\quad S_m = S_T + \mathrm{Bin}(m - T, q),\quad q = \frac{1+\theta}{2}

    Source: ``001_ac3274d7ce9a5d72.txt`` §4.2, Fig. 1b (:math:`\mu(1) = \mu(-1) = 1/2`) and the lower-bound
    construction of (S22) (two-point laws with mean :math:`\pm\delta`).

    Examples
    --------
    >>> TwoPoint(1.0).nested_means(np.array([4]), np.array([2]), np.random.default_rng(0))
    (array([1.]), array([1.]))
    """

    theta: float

    def __post_init__(self):
        if not (-1 <= self.theta <= 1) or math.isnan(self.theta):
            raise ValueError(f"theta must be in [-1, 1], got {self.theta!r}")

    @property
    def mean(self) -> float:
        return self.theta

    def nested_means(self, m: np.ndarray, T: np.ndarray, rng) -> tuple[np.ndarray, np.ndarray]:
        """Local means over each user's first ``T`` samples and over all ``m`` (``T <= m``)."""
        q = (1 + self.theta) / 2
        s_T = rng.binomial(T, q)
        s_m = s_T.copy()
        more = m > T
        s_m[more] += rng.binomial((m - T)[more], q)
        return (2 * s_T - T) / T, (2 * s_m - m) / m


@dataclass(frozen=True)
class Sampler:
    r"""Any :math:`\mu` on :math:`[-1, 1]`, through a user-supplied sampler ``draw(rng, size)``.

    Every sample of every user is drawn (the explicit path); ``mean`` is :math:`E_\mu X`.

    .. math:: \bar X_m = \frac1m\sum_{t \le m} X_t,\qquad X_t \overset{iid}{\sim} \mu \text{ on } [-1, 1]

    Source: ``001_ac3274d7ce9a5d72.txt`` §2 (H2: :math:`\mu` supported on [−1, 1]).

    Examples
    --------
    >>> s = Sampler(lambda g, k: np.zeros(k), 0.0)
    >>> s.nested_means(np.array([3, 5]), np.array([2, 2]), np.random.default_rng(0))
    (array([0., 0.]), array([0., 0.]))
    """

    draw: Callable
    mean: float

    def nested_means(self, m: np.ndarray, T: np.ndarray, rng) -> tuple[np.ndarray, np.ndarray]:
        shape = m.shape
        m, T = m.ravel(), T.ravel()
        x = np.asarray(self.draw(rng, int(m.sum())), dtype=float)
        if np.any(np.abs(x) > 1):
            raise ValueError("the sampler must return values in [-1, 1]")
        starts = np.concatenate([[0], np.cumsum(m)[:-1]])
        csum = np.concatenate([[0.0], np.cumsum(x)])
        mean_T = (csum[starts + T] - csum[starts]) / T
        mean_m = (csum[starts + m] - csum[starts]) / m
        return mean_T.reshape(shape), mean_m.reshape(shape)


def _population(theta, population):
    if population is not None:
        if theta is not None and not math.isclose(theta, population.mean, abs_tol=1e-15):
            raise ValueError("theta differs from the population's mean")
        return population
    if theta is None:
        raise ValueError("give theta (the two-point law's mean) or a population")
    return TwoPoint(float(theta))


# =========================================================================== results


@dataclass(frozen=True)
class RiskResult:
    """Replicated estimates of one estimator: ``mse`` with its ``stderr``, ``bias`` with ``bias_stderr``."""

    estimator: str
    theta: float
    estimates: np.ndarray = field(repr=False)
    mse: float
    stderr: float
    bias: float
    bias_stderr: float
    settings: dict = field(repr=False)

    def ci(self, level: float = 0.95) -> tuple[float, float]:
        """Normal-approximation confidence interval for the risk (MSE).

        Examples
        --------
        >>> r = RiskResult("x", 0.0, np.zeros(3), 1.0, 0.1, 0.0, 0.0, {})
        >>> tuple(round(v, 4) for v in r.ci(0.95))
        (0.804, 1.196)
        """
        if not 0 < level < 1:
            raise ValueError(f"level must be in (0, 1), got {level!r}")
        z = float(stats.norm.ppf(0.5 + level / 2))
        return (self.mse - z * self.stderr, self.mse + z * self.stderr)


def _result(name, theta, est, settings) -> RiskResult:
    err = est - theta
    sq = err * err
    R = est.size
    return RiskResult(
        name, float(theta), est, float(sq.mean()), float(sq.std(ddof=1) / math.sqrt(R)) if R > 1 else math.inf,
        float(err.mean()), float(err.std(ddof=1) / math.sqrt(R)) if R > 1 else math.inf, settings,
    )


# =========================================================================== the estimators


def _bins(tau: float) -> int:
    return math.ceil(1 / tau)


def _localise(xbar, voting, tau: float, alpha: float, n_voters: int, rng) -> np.ndarray:
    r"""The elected bin :math:`\hat j` of each replication (rows), from local means and a voting mask.

    Voters put ones on the bins :math:`j-1, j, j+1` around theirs (eq. (5)); everybody's bits
    are randomised with :math:`k = 3` (eq. (6)); ties are broken uniformly at random (eq. (7)).
    """
    B = xbar.shape[0]
    N = _bins(tau)
    b = np.clip(np.floor((xbar + 1) / (2 * tau)).astype(np.int64), 0, N - 1)
    rows = np.broadcast_to(np.arange(B)[:, None], b.shape)
    h = np.bincount((rows * N + b)[voting], minlength=B * N).reshape(B, N)
    c = h.copy()
    c[:, 1:] += h[:, :-1]
    c[:, :-1] += h[:, 1:]
    totals = mechanisms.noisy_vote_totals(c, n_voters, alpha=alpha, k=3, rng=rng)
    return np.argmax(totals + 0.5 * rng.random(totals.shape), axis=1)


def _bin_ends(j: np.ndarray, tau: float) -> tuple[np.ndarray, np.ndarray]:
    lo = -1 + 2 * tau * j
    return lo, np.minimum(lo + 2 * tau, 1.0)


@dataclass(frozen=True)
class _Plan:
    """Everything a block needs, picklable: the law, the budget, and per-estimator settings."""

    sizes: SizeLaw
    n: int
    alpha: float
    population: object
    estimators: tuple
    m_tilde: int
    dame_denominator: str
    dame_correction: float
    dame_mean_sqrt_min: float
    kent_T: int
    kent_tau: float


def _block(plan: _Plan, seed_seq, size: int) -> dict:
    """One block of replications of every requested estimator, on shared data."""
    rng = np.random.default_rng(seed_seq)
    n, alpha, h = plan.n, plan.alpha, plan.n // 2
    out = {}
    if "duchi" in plan.estimators:  # exact: each output is +B w.p. 1/2 + θ/(2B), independently
        B = mechanisms.duchi_bound(alpha)
        k = mechanisms.duchi_plus_count(n, plan.population.mean, alpha=alpha, rng=rng, size=size)
        out["duchi"] = B * (2 * k / n - 1)
    if not {"kent", "dame"} & set(plan.estimators):
        return out
    m = plan.sizes.sample(size * 2 * h, rng).reshape(size, 2 * h)
    T = np.minimum(m, plan.kent_T)
    xbar_T, xbar_m = plan.population.nested_means(m, T, rng)
    if "kent" in plan.estimators:  # Kent et al. §6: every user uses T* samples
        tau = plan.kent_tau
        j = _localise(xbar_T[:, :h], np.ones((size, h), dtype=bool), tau, alpha, h, rng)
        lo, hi = _bin_ends(j, tau)
        z = np.clip(xbar_T[:, h:], (lo - 6 * tau)[:, None], (hi + 6 * tau)[:, None])
        z = z + mechanisms.laplace(14 * tau / alpha, rng, size=z.shape)
        out["kent"] = z.mean(axis=1)
    if "dame" in plan.estimators:  # DAME, Algorithm 1
        mt = plan.m_tilde
        tau = dame.tau(mt, n_alpha2=n * alpha * alpha)
        voting = m[:, :h] >= mt
        j = _localise(xbar_m[:, :h], voting, tau, alpha, h, rng)
        lo, hi = _bin_ends(j, tau)
        s = (lo + hi) / 2
        L, U = np.maximum(lo - 6 * tau, -1.0), np.minimum(hi + 6 * tau, 1.0)
        m2 = m[:, h:]
        w = np.sqrt(np.minimum(m2, mt) / mt)
        xhat = w * xbar_m[:, h:] + (1 - w) * s[:, None]
        theta_u = np.clip(xhat, L[:, None], U[:, None]) + mechanisms.laplace(14 * tau / alpha, rng, size=xhat.shape)
        if plan.dame_denominator == "canonical":
            denom = plan.dame_mean_sqrt_min
        else:  # the official code's mean(min(M, sqrt(m̃))) over the users
            denom = np.minimum(m2, math.sqrt(mt)).mean(axis=1)
        out["dame"] = (math.sqrt(mt) * theta_u.mean(axis=1) - plan.dame_correction * s) / denom
    return out


def _plan(estimators, sizes, n, alpha, population, m_tilde, constants, denominator, T, K) -> _Plan:
    if not isinstance(sizes, SizeLaw):
        raise ValueError(f"sizes must be a law from bounds.sizes, got {sizes!r}")
    priv = dame._privacy(n, alpha, None)  # validates n >= 2 and α > 0, warns when H3 fails
    n, alpha = priv.n, priv.alpha
    n -= n % 2  # n even: drop one user if odd (Algorithm 1)
    for e in estimators:
        if e not in ESTIMATORS:
            raise ValueError(f"estimator must be one of {', '.join(ESTIMATORS)}, got {e!r}")
    if denominator not in ("canonical", "official"):
        raise ValueError(f"denominator must be 'canonical' or 'official', got {denominator!r}")
    mt, corr, dsm = 1, 0.0, 1.0
    if "dame" in estimators:
        mt = m_tilde if m_tilde is not None else dame.m_tilde(sizes, n=n, alpha=alpha, constants=constants)
        mt = check_integer("m_tilde", mt, minimum=1)
        # Σ_{i <= m̃} (√m̃ − √i) M(i) = √m̃ P(m <= m̃) − E[√m 1{m <= m̃}], and E[√(m ∧ m̃)]
        corr = math.sqrt(mt) * (1 - float(sizes.prob_gt(mt))) - float(sizes.partial_sqrt_mean(mt))
        dsm = float(sizes.sqrt_min_mean(mt))
    kT, ktau = 1, 1.0
    if "kent" in estimators:
        base = check_integer("T", T, minimum=1) if T is not None else sizes.support_min
        kT, ktau = kent.estimator_cap(n=n, T=base, alpha=alpha, K=K)
    return _Plan(sizes, n, alpha, population, tuple(estimators), mt, denominator, corr, dsm, kT, ktau)


def _map_blocks(block, plan, reps, seed, executor, progress: bool) -> list:
    """Run ``block(plan, seed_seq, size)`` over fixed blocks of :data:`BLOCK` replications.

    Block ``b`` draws from the ``b``-th child of ``SeedSequence(seed).spawn``: the results do
    not depend on the executor (``None``: in process) nor on how it spreads the blocks.
    """
    reps = check_integer("reps", reps, minimum=1)
    n_blocks = -(-reps // BLOCK)
    children = np.random.SeedSequence(seed).spawn(n_blocks)
    sizes_ = [min(BLOCK, reps - b * BLOCK) for b in range(n_blocks)]
    mapper = map if executor is None else executor.map
    parts = mapper(block, [plan] * n_blocks, children, sizes_)
    return list(tqdm(parts, total=n_blocks, disable=None if progress else True, desc="replications"))


def compare(*, theta=None, sizes, n, alpha, reps, seed, estimators: Sequence[str] = ESTIMATORS, population=None,
            m_tilde=None, constants="paper", denominator="canonical", T=None, K=1.0, executor=None,
            progress=False) -> dict:
    r"""Several user-level LDP estimators on the **same** simulated data, replication by replication.

    Users :math:`u = 1..n` draw :math:`m_u \sim M` and their samples from :math:`\mu`
    (two-point with mean ``theta``, or ``population``).  Estimators:

    * ``"duchi"`` — each user privatises its local mean with Duchi et al.'s ±B mechanism;
      the server averages (formula sheet §1.5);
    * ``"kent"`` — Kent et al.'s univariate two-phase procedure with ``T`` samples per user
      (default: the smallest dataset size, every user truncating to it) and the cap
      :math:`T^* = \min(T, e^{n\alpha^2/K})` (``kent.md`` §6, eqs. (25)–(30));
    * ``"dame"`` — DAME, Algorithm 1 (eqs. (4)–(9)), with ``m_tilde`` from Theorem 2 under
      ``constants`` unless given; ``denominator="official"`` swaps eq. (9)'s
      :math:`E[\sqrt{m \wedge \tilde m}]` for the official code's ``mean(min(M, sqrt(m̃)))``.

    .. math:: \hat\theta_{DAME} = \frac{\sqrt{\tilde m}\,\bar\theta - \sum_{i \le \tilde m}(\sqrt{\tilde m} - \sqrt i) M(i)\, s_{\hat j}}
              {E[\sqrt{m \wedge \tilde m}]}

    Returns ``{name: RiskResult}``.

    Source: ``001_ac3274d7ce9a5d72.txt`` Algorithm 1 and Figure 1b; ``kent.md`` §6.

    Examples
    --------
    >>> from bounds import sizes
    >>> res = compare(theta=0.0, sizes=sizes.point(50), n=200, alpha=0.5, reps=64, seed=0)
    >>> sorted(res)
    ['dame', 'duchi', 'kent']
    """
    pop = _population(theta, population)
    plan = _plan(tuple(estimators), sizes, n, alpha, pop, m_tilde, constants, denominator, T, K)
    parts = _map_blocks(_block, plan, reps, seed, executor, progress)
    est = {e: np.concatenate([p[e] for p in parts]) for e in plan.estimators}
    settings = {"n": plan.n, "alpha": plan.alpha, "sizes": repr(sizes), "m_tilde": plan.m_tilde,
                "kent_T": plan.kent_T, "reps": reps, "seed": seed, "block": BLOCK}
    return {e: _result(e, pop.mean, est[e], settings) for e in plan.estimators}


def risk(estimator, *, theta, sizes, n, alpha, reps, seed, executor=None, progress=False, **options) -> RiskResult:
    r"""Simulated risk :math:`E(\hat\theta - \theta)^2` of one user-level LDP estimator.

    ``estimator`` is ``"dame"``, ``"duchi"`` or ``"kent"``; ``theta`` is the mean of the
    two-point :math:`\mu` on :math:`\{-1, 1\}`.  ``options``: ``m_tilde``, ``constants``,
    ``denominator`` (DAME); ``T``, ``K`` (Kent); ``population`` (a :class:`Sampler`, then
    ``theta`` must equal its mean).  See :func:`compare`.

    .. math:: \widehat{R} = \frac1R \sum_{r=1}^R (\hat\theta_r - \theta)^2 \pm \frac{\mathrm{sd}}{\sqrt R}

    Source: ``001_ac3274d7ce9a5d72.txt`` eq. (3) (the risk) and Algorithm 1.

    Examples
    --------
    >>> from bounds import sizes
    >>> r = risk("dame", theta=0.4, sizes=sizes.point(1000), n=4000, alpha=0.6, reps=128, seed=3)
    >>> abs(r.bias) < 4 * r.bias_stderr
    True
    """
    return compare(theta=theta, sizes=sizes, n=n, alpha=alpha, reps=reps, seed=seed, estimators=(estimator,),
                   executor=executor, progress=progress, **options)[estimator]


def dame_clip_widths(m_tilde: int, *, n_alpha2, alpha) -> tuple[np.ndarray, float]:
    r"""DAME's clip interval :math:`[L_{\hat j}, U_{\hat j}]` width for every bin, and the Laplace scale × α.

    The Laplace step is :math:`\alpha`-LDP iff the width is at most the sensitivity the
    noise is calibrated to: :math:`U - L \le 14\tau` with scale :math:`14\tau/\alpha` (eq. (8)).

    .. math:: U_j - L_j = (u_j + 6\tau) \wedge 1 - (l_j - 6\tau) \vee (-1) \le 14\tau

    Source: ``001_ac3274d7ce9a5d72.txt`` Algorithm 1, eq. (8).

    Examples
    --------
    >>> widths, sens = dame_clip_widths(100, n_alpha2=1e4, alpha=0.5)
    >>> bool(np.all(widths <= sens + 1e-12))
    True
    """
    tau = dame.tau(m_tilde, n_alpha2=n_alpha2)
    alpha = check_positive("alpha", alpha)
    lo, hi = _bin_ends(np.arange(_bins(tau)), tau)
    widths = np.minimum(hi + 6 * tau, 1.0) - np.maximum(lo - 6 * tau, -1.0)
    return widths, (14 * tau / alpha) * alpha


# =========================================================================== Cummings et al.


def _beta_meta(p: float, sigma_p2: float, rng, size) -> np.ndarray:
    """p_i ~ D: the Beta law with mean p and variance σ_p² (a point mass if σ_p² = 0)."""
    if sigma_p2 == 0:
        return np.full(size, p)
    nu = p * (1 - p) / sigma_p2 - 1
    if nu <= 0:
        raise ValueError("sigma_p2 must be below p(1-p) for a Beta meta-distribution")
    return rng.beta(p * nu, (1 - p) * nu, size=size)


@dataclass(frozen=True)
class _CummingsPlan:
    k: np.ndarray
    p: float
    sigma_p2: float
    eps: float
    beta: float
    estimator: str
    weights: np.ndarray
    a: np.ndarray
    b: np.ndarray
    scale: float


def _cummings_block(plan: _CummingsPlan, seed_seq, size: int) -> np.ndarray:
    rng = np.random.default_rng(seed_seq)
    k = plan.k
    p_i = _beta_meta(plan.p, plan.sigma_p2, rng, (size, k.size))
    phat = rng.binomial(k, p_i) / k
    if plan.estimator == "ideal":  # eq. (3)
        est = (plan.weights * np.clip(phat, plan.a, plan.b)).sum(axis=1)
        return est + mechanisms.laplace(plan.scale, rng, size=size)
    out = np.empty(size)
    var_g, _, mean_g = cummings.groups(k)
    for r in range(size):  # Algorithm 2 with the default private initial estimators
        first = rng.binomial(1, p_i[r, mean_g])  # x_i^1 of the n/10 fewest-data users
        m_mean = first.size
        p0 = float(np.clip(first.mean() + mechanisms.laplace(1 / (m_mean * plan.eps), rng), 1e-3, 1 - 1e-3))
        top = phat[r, var_g]
        mv = top.size
        var = float(top.var(ddof=1)) if mv > 1 else 0.0
        var = float(np.clip(var + mechanisms.laplace(1 / (mv * plan.eps), rng), 0.0, p0 * (1 - p0)))
        alpha_err = math.log(2 / plan.beta) / (m_mean * plan.eps) + math.sqrt(math.log(4 / plan.beta) / (2 * m_mean))
        pl = cummings.realisable_plan(k, p_initial=p0, sigma_p2_hat=var, alpha=alpha_err, eps=plan.eps, beta=plan.beta)
        clipped = np.clip(phat[r, pl.final_group], pl.a_hat, pl.b_hat)
        out[r] = float(pl.weights @ clipped) + float(mechanisms.laplace(pl.Lambda / plan.eps, rng))
    return out


def cummings_risk(k, *, p, sigma_p2, eps, reps, seed, estimator="ideal", beta=0.05, executor=None,
                  progress=False) -> RiskResult:
    r"""Simulated risk of Cummings et al.'s private estimators (central user-level ε-DP).

    User ``i`` draws :math:`p_i \sim \mathcal D` (Beta with mean ``p``, variance
    :math:`\sigma_p^2`), then :math:`\hat p_i = \mathrm{Bin}(k_i, p_i)/k_i` (exact).

    * ``"ideal"`` — eq. (3): weights (4) at the exact :math:`T^*` of eq. (6), intervals
      :math:`p \mp f_i` (:func:`~bounds.cummings.concentration`), noise
      :math:`\mathrm{Lap}(\max_i w_i|b_i - a_i|/\epsilon)`;
    * ``"realisable"`` — Algorithm 2 with default initial estimators: the Laplace-noised mean
      of the first samples of the :math:`n/10` fewest-data users, and the Laplace-noised
      sample variance of the :math:`\lceil\log n\rceil` most-data users' means (each ε-DP on
      disjoint users); ``α`` from Laplace and Hoeffding tails at level ``beta``.

    .. math:: \hat p^{ideal}_\epsilon = \sum_i w_i^* [\hat p_i]_{a_i}^{b_i} + \mathrm{Lap}\Big(\frac{\max_i w_i^*|b_i - a_i|}{\epsilon}\Big)

    Source: ``003_5683c9a67e132c7f.txt`` eqs. (3)–(6), Algorithm 2.

    Examples
    --------
    >>> r = cummings_risk([50, 20, 10, 5, 5], p=0.5, sigma_p2=0.01, eps=1.0, reps=64, seed=0)
    >>> r.estimator
    'cummings-ideal'
    """
    kk = cummings._k(k)
    eps = check_positive("eps", eps)
    if estimator not in ("ideal", "realisable"):
        raise ValueError(f"estimator must be 'ideal' or 'realisable', got {estimator!r}")
    s2 = cummings.user_variance(kk, p=p, sigma_p2=sigma_p2)
    f = cummings.concentration(kk, p=p, sigma_p2=sigma_p2, beta=beta)
    trunc = cummings.optimal_truncation(s2, 2 * f, eps=eps)
    scale = float(np.max(trunc.weights * 2 * f)) / eps
    plan = _CummingsPlan(kk, float(p), float(sigma_p2), eps, float(beta), estimator, trunc.weights, p - f, p + f, scale)
    parts = _map_blocks(_cummings_block, plan, reps, seed, executor, progress)
    settings = {"k": kk.tolist(), "eps": eps, "T_star": trunc.T, "reps": int(reps), "seed": seed, "block": BLOCK}
    return _result(f"cummings-{estimator}", float(p), np.concatenate(parts), settings)


# =========================================================================== Rameshwar & Tandon


@dataclass(frozen=True)
class _RTPlan:
    m: np.ndarray
    U: float
    eps: float
    kind: str
    rank: int
    a: np.ndarray  # Theorem III.1's clipping
    b: np.ndarray
    sens: dict


def _rt_block(plan: _RTPlan, seed_seq, size):
    """One block of §IV-D's three mechanisms, vectorised over the block's replications."""
    rng = np.random.default_rng(seed_seq)
    m, U, eps, kind, rank, sens = plan.m, plan.U, plan.eps, plan.kind, plan.rank, plan.sens
    total = float(m.sum())
    if kind == "worst":
        x = np.full((size, int(total)), float(U))
    else:
        x = rameshwar.samples(m, U=U, kind=kind, rng=rng, size=size)
    starts = np.concatenate([[0], np.cumsum(m)[:-1]])
    sums = np.add.reduceat(x, starts, axis=1)  # each user's sum; pre-processing: average = sum / m
    xbar = sums / m
    f = sums.sum(axis=1) / total
    lap = mechanisms.laplace(1.0, rng, size=(3, size))
    errs = {"laplace": np.abs(lap[0] * sens["vanilla"] / eps)}
    fstar = (np.clip(xbar, plan.a, plan.b) @ m) / total
    errs["opt_wc"] = np.abs(fstar + lap[1] * sens["opt_wc"] / eps - f)
    T = mechanisms.private_quantile(sums, rank, lower=0.0, upper=U * float(m.max()), eps=eps / 2, rng=rng)
    T = np.atleast_1d(T)
    g = np.minimum(sums, T[:, None]).sum(axis=1) / total
    errs["akmv"] = np.abs(g + lap[2] * 2 * T / (eps * total) - f)
    return errs


def rameshwar_errors(m, *, U, eps, samples="uniform", reps, seed, rule="section-IV-A", executor=None,
                     progress=False) -> dict:
    r"""Average-case errors :math:`E|M(\mathcal D) - f(\mathcal D)|` of §IV-D's three mechanisms.

    * ``"laplace"`` — :math:`f + \mathrm{Lap}(\Delta_f/\varepsilon)`, :math:`\Delta_f = Um^*/\sum m` (14);
    * ``"opt_wc"`` — :math:`f^*` (Theorem III.1's clipping of users' averages) :math:`+\ \mathrm{Lap}(\Delta_{f^*}/\varepsilon)`;
    * ``"akmv"`` — user sums clipped at a threshold ``T`` estimated with :math:`\varepsilon' = \varepsilon/2`
      by the exponential-mechanism quantile (rank :func:`~bounds.rameshwar.akmv_rank` with
      :math:`\varepsilon'' = \varepsilon/2`, ``rule``), then :math:`\mathrm{Lap}(2T/(\varepsilon\sum m))` (15).

    ``samples``: ``"uniform"``, ``"gaussian"`` (§IV-B) or ``"worst"`` (every sample ``U``).
    Returns ``{mechanism: (mean error, stderr)}``.

    .. math:: \bar E = \frac1R\sum_r |M(\mathcal D_r) - f(\mathcal D_r)|

    Source: ``002_b4d2a69fdbee0cc3.txt`` §IV-A, §IV-D, eqs. (14)–(15).

    Examples
    --------
    >>> out = rameshwar_errors(rameshwar.geometric(3), U=65, eps=1.0, reps=64, seed=0)
    >>> sorted(out)
    ['akmv', 'laplace', 'opt_wc']
    """
    mm = rameshwar._counts(m)
    U, eps = check_positive("U", U), check_positive("eps", eps)
    if samples not in ("uniform", "gaussian", "worst"):
        raise ValueError(f"samples must be 'uniform', 'gaussian' or 'worst', got {samples!r}")
    rank = rameshwar.akmv_rank(eps / 2, rule=rule)
    c = rameshwar.clipping(mm, U=U, eps=eps)
    plan = _RTPlan(mm, U, eps, samples, rank, c.a, c.b, rameshwar.sensitivities(mm, U=U, eps=eps))
    parts = _map_blocks(_rt_block, plan, reps, seed, executor, progress)
    out = {}
    for key in ("laplace", "opt_wc", "akmv"):
        e = np.concatenate([p[key] for p in parts])
        out[key] = (float(e.mean()), float(e.std(ddof=1) / math.sqrt(e.size)) if e.size > 1 else math.inf)
    return out


def akmv_worst_case(m, *, U, eps, reps, seed, rule="section-IV-A") -> tuple[float, float]:
    r""":math:`E_{AKMV}` on the worst-case dataset (every sample ``U``), Monte Carlo over the private ``T``.

    .. math:: E_{AKMV} = \frac{1}{\sum m}\sum_\ell E[\max\{0, U m_\ell - T\}] + \frac{2E[T]}{\varepsilon \sum m}

    Returns ``(mean, stderr)``.

    Source: ``002_b4d2a69fdbee0cc3.txt`` §IV-C (Figure 1).

    Examples
    --------
    >>> mean, se = akmv_worst_case(rameshwar.geometric(6), U=65, eps=0.5, reps=200, seed=0)
    >>> mean > rameshwar.optimal_error(rameshwar.geometric(6), U=65, eps=0.5)
    True
    """
    mm = rameshwar._counts(m)
    U, eps = check_positive("U", U), check_positive("eps", eps)
    reps = check_integer("reps", reps, minimum=1)
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    rank = rameshwar.akmv_rank(eps / 2, rule=rule)
    sums = np.broadcast_to(U * mm.astype(float), (reps, mm.size))
    T = np.atleast_1d(mechanisms.private_quantile(sums, rank, lower=0.0, upper=float(sums.max()), eps=eps / 2, rng=rng))
    e = rameshwar.akmv_worst_case_error(mm, U=U, eps=eps, T=T)
    return float(e.mean()), float(e.std(ddof=1) / math.sqrt(reps)) if reps > 1 else math.inf


# =========================================================================== bounds beside their estimators


@dataclass(frozen=True)
class Check:
    """A simulated quantity beside its theoretical counterpart: ``simulated ± stderr`` vs ``theory``."""

    name: str
    simulated: float
    stderr: float
    theory: dict
    holds: bool
    note: str = ""


def check_dame(sizes, *, n, alpha, thetas=(-0.9, -0.5, 0.0, 0.4, 0.8), reps, seed, executor=None) -> Check:
    r"""DAME's simulated worst-case risk (max over two-point :math:`\mu`) beside Theorems 1 and 2.

    ``holds`` is ``LB <= risk`` (within 4 standard errors) and, where the paper-constant
    upper bound is below its cap 4, ``risk <= UB``.

    .. math:: \max_{\theta \in \text{grid}} \widehat R(\theta) \quad\text{vs}\quad LB(M, n\alpha^2),\ UB(M, n\alpha^2)

    Source: ``001_ac3274d7ce9a5d72.txt`` eq. (3), Theorems 1–2.

    Examples
    --------
    >>> from bounds import sizes
    >>> c = check_dame(sizes.point(100), n=2000, alpha=0.5, thetas=(0.0, 0.5), reps=64, seed=0)
    >>> c.holds
    True
    """
    risks = [risk("dame", theta=t, sizes=sizes, n=n, alpha=alpha, reps=reps, seed=seed, executor=executor) for t in thetas]
    worst = max(risks, key=lambda r: r.mse)
    lb = dame.lower_bound(sizes, n=n, alpha=alpha)
    ub = dame.upper_bound(sizes, n=n, alpha=alpha)
    ok = lb.value <= worst.mse + 4 * worst.stderr and (ub.capped or worst.mse - 4 * worst.stderr <= ub.value)
    return Check("dame worst-case risk", worst.mse, worst.stderr,
                 {"lower_bound": lb.value, "upper_bound": ub.value, "upper_capped": ub.capped, "theta": worst.theta,
                  "m_tilde": ub.m_tilde}, bool(ok))


def _variance_with_se(e: np.ndarray) -> tuple[float, float]:
    """Unbiased sample variance of ``e`` and its standard error (from the squared deviations)."""
    dev = (e - e.mean()) ** 2
    return float(dev.mean() * e.size / (e.size - 1)), float(dev.std(ddof=1) / math.sqrt(e.size))


def check_duchi(*, theta, n, alpha, reps, seed) -> Check:
    r"""Duchi's simulated variance beside its closed form.

    .. math:: \mathrm{Var}(\hat\theta) = \frac{B^2 - \theta^2}{n},\qquad B = \frac{e^\alpha + 1}{e^\alpha - 1}

    (each output is ±B with mean θ).  ``holds``: within 4 standard errors.

    Source: Duchi et al. (2018), the DAME paper's baseline (formula sheet §1.5).

    Examples
    --------
    >>> check_duchi(theta=0.3, n=500, alpha=0.5, reps=2000, seed=0).holds
    True
    """
    from .sizes import point

    r = risk("duchi", theta=theta, sizes=point(1), n=n, alpha=alpha, reps=reps, seed=seed)
    n_eff = n - n % 2
    B = mechanisms.duchi_bound(alpha)
    var = (B * B - theta * theta) / n_eff
    sim, se = _variance_with_se(r.estimates)
    return Check("duchi variance", sim, se, {"closed_form": var}, abs(sim - var) <= 4 * se)


def empirical_constant(estimator, *, theta, sizes, n, alpha, reps, seed, **options) -> Check:
    r"""Simulated risk divided by the rate without constants, with its standard error.

    DAME: eq. (11) with :math:`c_3 = 1` and the log as :math:`\log(e \vee \sqrt{\tilde m n\alpha^2})`:
    :math:`\log(\cdot)/(n\alpha^2 E[\sqrt{m \wedge \tilde m}]^2)`.  Kent: Theorem 6's upper
    rate :math:`\log(nT^*\alpha^2)/(nT^*\alpha^2) + e^{-n\alpha^2}`.

    .. math:: \hat c = \widehat R / \text{rate}

    Source: ``001_ac3274d7ce9a5d72.txt`` eq. (11); ``kent.md`` §5 (eq. (24)).

    Examples
    --------
    >>> from bounds import sizes
    >>> c = empirical_constant("kent", theta=0.2, sizes=sizes.point(100), n=2000, alpha=0.5, reps=64, seed=0)
    >>> c.simulated > 0
    True
    """
    r = risk(estimator, theta=theta, sizes=sizes, n=n, alpha=alpha, reps=reps, seed=seed, **options)
    x = r.settings["n"] * alpha * alpha
    if estimator == "dame":
        mt = r.settings["m_tilde"]
        rate = math.log(max(math.e, math.sqrt(mt * x))) / (x * float(sizes.sqrt_min_mean(mt)) ** 2)
    elif estimator == "kent":
        u = x * r.settings["kent_T"]
        rate = math.log(max(u, math.e)) / u + math.exp(-x)
    else:
        raise ValueError("empirical constants are defined for 'dame' and 'kent'")
    return Check(f"{estimator} empirical constant", r.mse / rate, r.stderr / rate, {"rate": rate, "risk": r.mse}, True)


def check_cummings(k, *, p, sigma_p2, eps, reps, seed, beta=1e-6) -> Check:
    r"""The ideal estimator's simulated variance beside eq. (5), as printed and with :math:`\mathrm{Var}(\mathrm{Lap}(b)) = 2b^2`.

    With a small ``beta`` clipping is rare, so :math:`\mathrm{Var}([\hat p_i]) \approx \sigma_i^2`.
    ``holds``: the exact-Laplace value is within 4 standard errors.

    .. math:: \sum_i w_i^2\sigma_i^2 + \kappa\max_i \frac{w_i^2|b_i - a_i|^2}{\epsilon^2},\quad \kappa \in \{1, 2\}

    Source: ``003_5683c9a67e132c7f.txt`` eq. (5) (formula sheet §3, audit item).

    Examples
    --------
    >>> c = check_cummings([40, 20, 10, 5, 2, 1], p=0.5, sigma_p2=0.02, eps=0.5, reps=4000, seed=0)
    >>> c.holds
    True
    """
    r = cummings_risk(k, p=p, sigma_p2=sigma_p2, eps=eps, reps=reps, seed=seed, beta=beta)
    kk = cummings._k(k)
    s2 = cummings.user_variance(kk, p=p, sigma_p2=sigma_p2)
    widths = 2 * cummings.concentration(kk, p=p, sigma_p2=sigma_p2, beta=beta)
    T = r.settings["T_star"]
    printed = cummings.ideal_variance(s2, widths, eps=eps, T=T, laplace="printed")
    exact = cummings.ideal_variance(s2, widths, eps=eps, T=T, laplace="exact")
    sim, se = _variance_with_se(r.estimates)
    return Check("cummings ideal variance", sim, se, {"eq5_printed": printed, "eq5_exact_laplace": exact},
                 abs(sim - exact) <= 4 * se)


def check_rameshwar(m, *, U, eps, reps, seed) -> Check:
    r"""OPT-wc's simulated error on the all-``U`` dataset beside Lemma III.1.

    On that dataset :math:`M - f = \text{bias} + Z` with a fixed bias, so
    :math:`E|M - f| \le \text{bias} + E|Z|` = Lemma III.1's value (triangle inequality), with
    equality when the bias dominates.  ``holds``: the simulated error is at most Lemma
    III.1's value plus 4 standard errors.

    .. math:: E|f^*(\mathcal D_U) + Z - U| \le E^{OPT}(\varepsilon)

    Source: ``002_b4d2a69fdbee0cc3.txt`` Lemma III.1 and the remark after it.

    Examples
    --------
    >>> check_rameshwar(rameshwar.geometric(4), U=65, eps=0.5, reps=256, seed=0).holds
    True
    """
    out = rameshwar_errors(m, U=U, eps=eps, samples="worst", reps=reps, seed=seed)
    sim, se = out["opt_wc"]
    lemma = rameshwar.optimal_error(m, U=U, eps=eps)
    return Check("rameshwar worst-case error", sim, se, {"lemma_iii_1": lemma}, sim <= lemma + 4 * se)
