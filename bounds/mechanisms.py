r"""Privacy mechanisms, once: Laplace noise, randomised response on sparse binary vectors,
Duchi et al.'s one-dimensional mechanism, and the exponential-mechanism private quantile.

Each local randomiser has two paths with the same law: an explicit one (one draw
per user, per bit) and a sufficient-statistic one (the total the server uses,
drawn exactly in one go) — the Monte Carlo layer uses the second, the tests check
they agree.  Every random function takes a seed or a ``numpy.random.Generator``.

Examples
--------
>>> from bounds import mechanisms
>>> round(mechanisms.rr_keep_probability(0.6, k=3), 6)  # e^{0.1} / (1 + e^{0.1})
0.524979
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Sequence
from typing import TYPE_CHECKING, Union, cast

import numpy as np
from numpy.typing import ArrayLike

from ._lazy import lazy
from .numerics import MAX_COUNT, check_array, check_integer, check_positive, check_real, check_rng, format_value

if TYPE_CHECKING:
    from scipy import special
else:
    special = lazy("scipy.special")

__all__ = [
    "seed_sequence",
    "laplace",
    "laplace_sum",
    "rr_keep_probability",
    "randomized_response",
    "noisy_vote_totals",
    "rr_privacy_loss",
    "duchi_bound",
    "duchi",
    "duchi_plus_count",
    "private_quantile",
]

RNGLike = Union[np.random.Generator, np.random.BitGenerator, np.random.SeedSequence, int, None]
"""What a ``rng`` parameter accepts (:func:`bounds.numerics.check_rng`): a ``Generator`` or anything seeding one."""
SeedLike = Union[int, Sequence[int], np.random.SeedSequence, np.random.Generator, None]
"""What a ``seed`` parameter accepts (:func:`seed_sequence`)."""

MAX_DRAWS = 10**8  # variables one call draws (``size``): 800 MB of float64, beyond any sweep's block
MAX_EXACT_INT = 2**53  # the largest integer a float64 holds exactly
MAX_ENUMERATED_BINS = 14  # rr_privacy_loss enumerates 2**N outputs against every input: 2**14 is already 10**8 pairs


def _is_boolean(value: object) -> bool:
    """Whether ``value`` is a Python or numpy boolean (a number to ``isinstance``, never one here)."""
    return isinstance(value, (bool, np.bool_))


def _real_array(name: str, values) -> np.ndarray:
    """``values`` as a finite float64 array of its own shape (a real scalar gives a 0-D array)."""
    if isinstance(values, numbers.Real) and not _is_boolean(values):
        return np.asarray(check_real(name, values))
    try:
        ndim = np.ndim(values)
    except (ValueError, TypeError):  # ragged nesting: check_array names it
        ndim = 1
    return check_array(name, values, ndim=ndim, allow_empty=True)


def _size(size) -> tuple[int, ...] | None:
    """A numpy ``size`` (None, an int or a tuple of ints) holding at most :data:`MAX_DRAWS` variables."""
    if size is None:
        return None
    dims = size if isinstance(size, tuple) else (size,)
    out = tuple(check_integer("size", d, minimum=0, maximum=MAX_DRAWS) for d in dims)
    if math.prod(out) > MAX_DRAWS:
        raise ValueError(f"size {out} holds more than {MAX_DRAWS} variables")
    return out


def _laplace_scale(scale) -> np.ndarray:
    """The Laplace scale b (a scalar or an array): finite and non-negative."""
    b = _real_array("scale", scale)
    if np.any(b < 0):
        raise ValueError(f"scale (the Laplace scale) must be non-negative, got {format_value(scale)}")
    return b


def seed_sequence(seed: SeedLike) -> np.random.SeedSequence:
    r"""The ``SeedSequence`` whose children seed parallel streams, for any seed SPEC 7 allows.

    An int or a sequence of ints gives ``SeedSequence(seed)``; a ``SeedSequence`` gives a fresh
    copy of it (same entropy and spawn key, so passing it twice gives the same streams, and
    ``SeedSequence(5)`` acts as ``5``); a ``Generator`` gives its next child
    (``Generator.spawn``: a second call continues the stream rather than repeating it);
    ``None`` fresh entropy.  Anything else raises ``ValueError``.

    .. math:: \text{seed} \mapsto \text{SeedSequence},\qquad \text{block } b \text{ draws from child } b

    Source: Scientific Python SPEC 7; ``numpy.random.SeedSequence.spawn``.

    Examples
    --------
    >>> seed_sequence(5).entropy, seed_sequence(np.random.SeedSequence(5)).entropy
    (5, 5)
    """
    if isinstance(seed, np.random.Generator):
        return cast(np.random.SeedSequence, seed.spawn(1)[0].bit_generator.seed_seq)  # spawn needs a SeedSequence
    if isinstance(seed, np.random.SeedSequence):
        return np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size)
    flat = seed if isinstance(seed, (list, tuple)) else [seed]
    if seed is None or (flat and all(isinstance(v, numbers.Integral) and not _is_boolean(v)
                                     and int(v) >= 0 for v in flat)):
        return np.random.SeedSequence(seed if seed is None or isinstance(seed, list) else
                                      list(seed) if isinstance(seed, tuple) else int(cast(int, seed)))
    raise ValueError(f"seed must be None, a non-negative int (or a list of them), a SeedSequence or a "
                     f"Generator, got {format_value(seed)}")


def laplace(scale: ArrayLike, rng: RNGLike, size: int | tuple[int, ...] | None = None) -> np.ndarray:
    r"""Laplace noise :math:`\mathrm{Lap}(b)`, density :math:`e^{-|z|/b}/(2b)`, variance :math:`2b^2`.

    .. math:: Z \sim \mathrm{Lap}(b),\qquad E|Z| = b,\qquad \mathrm{Var}\,Z = 2b^2

    Source: the noise of Pla et al. (2024), eq. (8), Cummings et al. (2022), eq. (3),
    Rameshwar and Tandon (2025), eq. (2).

    Examples
    --------
    >>> laplace(0.0, rng=1, size=2).tolist()
    [0.0, 0.0]
    """
    rng = check_rng("rng", rng)
    scale = _laplace_scale(scale)
    return rng.laplace(0.0, 1.0, size=_size(size)) * scale


def laplace_sum(scale: ArrayLike, count: int, rng: RNGLike, size: int | tuple[int, ...] | None = None) -> np.ndarray:
    r"""Sufficient-statistic path: the sum of ``count`` independent :math:`\mathrm{Lap}(b)` variables, drawn exactly.

    A Laplace variable is a difference of two unit exponentials, so a sum of ``count`` of
    them is a difference of two independent :math:`\Gamma(\text{count}, 1)` variables:

    .. math:: \sum_{u=1}^{k} Z_u \overset{d}{=} b\,(G - G'),\qquad G, G' \sim \Gamma(k, 1),\qquad \mathrm{Var} = 2kb^2

    ``scale`` may be an array (one scale per sum, broadcast against ``size``).

    Source: the noise of Pla et al. (2024), eq. (8) and Kent et al. (2024), eq. (30), summed by the server.

    Examples
    --------
    >>> laplace_sum(0.0, 10, rng=1, size=2).tolist()
    [0.0, 0.0]
    """
    count = check_integer("count", count, minimum=1, maximum=MAX_EXACT_INT)
    rng = check_rng("rng", rng)
    size = _size(size)
    return laplace_sum_checked(_laplace_scale(scale), count, rng, size)


def laplace_sum_checked(scale: float | np.ndarray, count: int, rng: np.random.Generator,
                 size: int | tuple[int, ...] | None) -> np.ndarray:
    """:func:`laplace_sum` of checked inputs."""
    return (rng.standard_gamma(count, size=size) - rng.standard_gamma(count, size=size)) * scale


def rr_keep_probability(alpha: float, *, k: int) -> float:
    r"""Keep probability of bitwise randomised response on binary vectors with at most ``k`` ones.

    .. math:: \pi_\alpha = \frac{e^{\alpha/(2k)}}{1 + e^{\alpha/(2k)}}

    (DAME's votes have ``k = 3``: :math:`e^{\alpha/6}`, eq. (6); Kent's CoverSelect ``k = 1``).

    Source: Kent et al. (2024), Lemma 16; Pla et al. (2024), eq. (6).

    Examples
    --------
    >>> rr_keep_probability(2.0, k=1)  # e / (1 + e)
    0.7310585786300049
    """
    return float(special.expit(_rr_log_odds(alpha, k)))


def _rr_log_odds(alpha, k) -> float:
    """The keep/flip log-odds α/(2k) of randomised response, for any positive ``alpha`` and integer ``k``."""
    alpha = check_positive("alpha", alpha)
    k = check_integer("k", k, minimum=1)
    return alpha / (2 * k) if k <= MAX_EXACT_INT else math.exp(math.log(alpha) - math.log(2 * k))


def randomized_response(bits: ArrayLike, *, alpha: float, k: int, rng: RNGLike) -> np.ndarray:
    r"""Explicit path: flip each bit of each user's vote independently with probability :math:`1-\pi_\alpha`.

    .. math:: \tilde V_j = U_j V_j + (1 - U_j)(1 - V_j),\qquad U_j \sim \mathrm{Bern}(\pi_\alpha)

    ``bits`` is a 0/1 array (users × bins), each row with at most ``k`` ones.

    Source: Kent et al. (2024), Lemma 16, eq. (148); Pla et al. (2024), Algorithm 1.

    Examples
    --------
    >>> randomized_response([[1, 0, 0]], alpha=1e3, k=1, rng=0).tolist()  # keep probability ≈ 1
    [[1, 0, 0]]
    """
    k = check_integer("k", k, minimum=1)
    v = _real_array("bits", bits)
    if v.ndim != 2 or not np.all((v == 0) | (v == 1)):
        raise ValueError(f"bits must be a 2-D 0/1 array (users × bins), got {format_value(bits)}")
    v = v.astype(np.int64)
    if np.any(v.sum(axis=1) > k):
        raise ValueError(f"a vote vector has more than k = {k} ones")
    rng = check_rng("rng", rng)
    keep = rng.random(v.shape) < rr_keep_probability(alpha, k=k)
    return np.where(keep, v, 1 - v).astype(np.int64)


def noisy_vote_totals(counts: ArrayLike, n_users: int, *, alpha: float, k: int, rng: RNGLike) -> np.ndarray:
    r"""Sufficient-statistic path: each bin's total of randomised votes, drawn exactly.

    Bin ``j`` has :math:`c_j` true ones among ``n_users`` voters; its noisy total is

    .. math:: \sum_u \tilde V_{uj} \sim \mathrm{Bin}(c_j, \pi_\alpha) + \mathrm{Bin}(n - c_j, 1 - \pi_\alpha),

    independently across bins (each bit is flipped independently).

    Source: Pla et al. (2024), eqs. (6)–(7) (the vote and its randomisation);
    Kent et al. (2024), Lemma 16 (independent bitwise flips).

    Examples
    --------
    >>> noisy_vote_totals([5, 0], 5, alpha=1e3, k=1, rng=0).tolist()
    [5, 0]
    """
    n_users = check_integer("n_users", n_users, minimum=0, maximum=MAX_COUNT, why="numpy's binomial takes int64")
    c = _real_array("counts", counts)
    if np.any(c < 0) or np.any(c > n_users) or np.any(c != np.floor(c)):
        raise ValueError(f"counts must hold integers in [0, n_users = {n_users}], got {format_value(counts)}")
    c = c.astype(np.int64)
    rng = check_rng("rng", rng)
    pi = rr_keep_probability(alpha, k=k)
    return rng.binomial(c, pi) + rng.binomial(n_users - c, 1 - pi)


def rr_privacy_loss(n_bins: int, *, alpha: float, k: int) -> float:
    r"""Exact worst-case privacy loss of randomised response on vectors with at most ``k`` ones.

    Exhaustive over all pairs of inputs :math:`v, v' \in \{0,1\}^N` with
    :math:`\|v\|_0, \|v'\|_0 \le k` and all outputs :math:`z \in \{0,1\}^N`:

    .. math:: \max_{v, v', z} \log\frac{P(\tilde V = z \mid v)}{P(\tilde V = z \mid v')}
              = d_H^{\max}\,\log\frac{\pi_\alpha}{1-\pi_\alpha} = \min(2k, N)\frac{\alpha}{2k}

    which is α when :math:`N \ge 2k` (Lemma 16's claim).  Meant for small ``N`` (``2^N`` outputs).

    Source: Kent et al. (2024), Lemma 16.

    Examples
    --------
    >>> round(rr_privacy_loss(6, alpha=0.9, k=3), 12)
    0.9
    """
    n_bins = check_integer("n_bins", n_bins, minimum=1, maximum=MAX_ENUMERATED_BINS,
                           why="the enumeration covers 2**n_bins outputs")
    x = _rr_log_odds(alpha, k)
    lk, lf = float(special.log_expit(x)), float(special.log_expit(-x))  # log π, log(1 - π), exact as π → 1
    inputs = [v for v in itertools.product((0, 1), repeat=n_bins) if sum(v) <= k]
    outputs = np.array(list(itertools.product((0, 1), repeat=n_bins)))
    # log P(z | v) = (#agreements) log π + (#disagreements) log(1 - π), for every (v, z)
    V = np.array(inputs)
    agree = (outputs[None, :, :] == V[:, None, :]).sum(axis=2)
    logp = agree * lk + (n_bins - agree) * lf
    return float(np.max(logp.max(axis=0) - logp.min(axis=0)))


def duchi_bound(alpha: float) -> float:
    r"""The output magnitude of Duchi et al.'s one-dimensional mechanism.

    .. math:: B = \frac{e^\alpha + 1}{e^\alpha - 1}

    Source: Duchi, Jordan & Wainwright (2018), as the baseline of Pla et al. (2024), §4.2.

    Examples
    --------
    >>> round(duchi_bound(math.log(3)), 12)  # (3 + 1) / (3 - 1)
    2.0
    """
    alpha = check_positive("alpha", alpha)
    t = math.tanh(alpha / 2)
    if t == 0 or math.isinf(1 / t):  # 1/t overflows from alpha ~ 1.1e-308 (a subnormal t)
        raise ValueError(f"alpha = {alpha!r} is too small: B = coth(alpha/2) overflows")
    return 1 / t


def duchi(x: ArrayLike, *, alpha: float, rng: RNGLike) -> np.ndarray:
    r"""Explicit path: each value :math:`x \in [-1, 1]` becomes :math:`\pm B`.

    .. math:: P(Z = +B \mid x) = \frac12 + \frac{x}{2B},\qquad E[Z \mid x] = x

    Source: Duchi et al. (2018), the baseline of Pla et al. (2024), §4.2, Fig. 1b.

    Examples
    --------
    >>> set(duchi(np.zeros(4), alpha=1.0, rng=0).tolist()) <= {duchi_bound(1.0), -duchi_bound(1.0)}
    True
    """
    x = _real_array("x", x)
    if np.any(np.abs(x) > 1):
        raise ValueError(f"x must lie in [-1, 1] (Duchi's mechanism), got {format_value(x)}")
    B = duchi_bound(alpha)
    rng = check_rng("rng", rng)
    return np.where(rng.random(x.shape) < 0.5 + x / (2 * B), B, -B)


def duchi_plus_count(n_users: int, mean: ArrayLike, *, alpha: float, rng: RNGLike,
                     size: int | tuple[int, ...] | None = None) -> np.ndarray:
    r"""Sufficient-statistic path: the number of :math:`+B` outputs among i.i.d. users.

    Users' inputs are i.i.d. with mean :math:`\theta`, so each output is :math:`+B` with
    probability :math:`\tfrac12 + \theta/(2B)` unconditionally, independently across users:

    .. math:: K = \#\{u : Z_u = +B\} \sim \mathrm{Bin}\big(n, \tfrac12 + \tfrac{\theta}{2B}\big)

    Source: Duchi et al. (2018) mechanism; the DAME paper's Fig. 1b baseline.

    Examples
    --------
    >>> duchi_plus_count(10, 0.0, alpha=1e3, rng=0, size=3).shape
    (3,)
    """
    n_users = check_integer("n_users", n_users, minimum=0, maximum=MAX_COUNT, why="numpy's binomial takes int64")
    theta = _real_array("mean", mean)
    if np.any(np.abs(theta) > 1):
        raise ValueError(f"mean must lie in [-1, 1], got {format_value(mean)}")
    B = duchi_bound(alpha)
    rng = check_rng("rng", rng)
    return rng.binomial(n_users, 0.5 + theta / (2 * B), size=_size(size))


def private_quantile(data: ArrayLike, rank_from_top: int, *, lower: float, upper: float, eps: float,
                     rng: RNGLike) -> float | np.ndarray:
    r"""Smith (2011)'s exponential-mechanism quantile: an ε-DP estimate of the ``rank_from_top``-th largest.

    With the data sorted and clipped to :math:`[\ell, u]`, :math:`z_0 = \ell \le z_1 \le \dots \le
    z_L \le z_{L+1} = u`, the target index (ascending) is :math:`t = L - r + 1`; interval
    :math:`[z_i, z_{i+1}]` is chosen with probability

    .. math:: \propto (z_{i+1} - z_i)\,\exp\!\big(-\tfrac{\varepsilon}{2}\,|i - t|\big)

    (utility :math:`-|i - t|`, sensitivity 1), then a point uniformly inside it.  Computed
    in log space; the interval is drawn by the Gumbel-max trick, so a 2-D ``data``
    (replications × L) gives one independent estimate per row in one vectorised draw.
    A rank beyond ``L`` targets the lower end.

    Source: Smith (2011), Algorithm 2, as used by Rameshwar and Tandon (2025), §IV-A (the AKMV baseline, whose
    :func:`bounds.estimators.rameshwar.akmv_threshold` draws this same law by inversion of its CDF).

    Examples
    --------
    >>> q = private_quantile(np.arange(1, 101), 1, lower=0, upper=100, eps=50.0, rng=0)
    >>> 99 <= q <= 100
    True
    """
    lower, upper = check_real("lower", lower), check_real("upper", upper)
    if not upper > lower:
        raise ValueError(f"need lower < upper, got lower={lower!r}, upper={upper!r}")
    # one dataset repeated (a broadcast view, rows 0 bytes apart): sorted once, the same draws and values
    copies = data.shape[0] if isinstance(data, np.ndarray) and data.ndim == 2 and data.strides[0] == 0 else 0
    repeated = copies > 1
    z = np.clip(_real_array("data", cast(np.ndarray, data)[:1] if repeated else data), lower, upper)
    if z.ndim not in (1, 2) or z.shape[-1] == 0:
        raise ValueError(f"data must be a non-empty 1-D array (or 2-D: replications × values), "
                         f"got {format_value(data)}")
    eps = check_positive("eps", eps)
    r = check_integer("rank_from_top", rank_from_top, minimum=1)
    rng = check_rng("rng", rng)
    rows = np.sort(np.atleast_2d(z), axis=1)
    D, L = rows.shape
    B = copies if repeated else D
    edges = np.concatenate([np.full((D, 1), float(lower)), rows, np.full((D, 1), float(upper))], axis=1)
    widths = np.diff(edges, axis=1)
    t = max(L - r + 1, 0)
    with np.errstate(divide="ignore"):
        logits = np.log(widths) - 0.5 * eps * np.abs(np.arange(L + 1) - t)
    i = np.argmax(logits + rng.gumbel(size=(B, L + 1)), axis=1)
    pick = np.zeros(B, dtype=np.intp) if repeated else np.arange(B)
    out = edges[pick, i] + rng.random(B) * widths[pick, i]
    return float(out[0]) if z.ndim == 1 else out
