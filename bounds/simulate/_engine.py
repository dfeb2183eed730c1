r"""DAME, Kent and Duchi on shared data: plans, blocks of replications, seeds, executors, risks."""

from __future__ import annotations

import functools
import math
import threading
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any, Callable, Sequence

import numpy as np
from .._progress import tqdm

from .. import dame as dame_theory
from .. import mechanisms
from ..estimators import dame, duchi, kent
from ..mechanisms import SeedLike
from ..numerics import check_choice, check_integer, check_positive, format_value, warn_once_per_call
from ..sizes import SizeLaw
from . import _kernels
from ._kernels import _SCRATCH, _release, _scratch  # noqa: F401  (_SCRATCH: the per-user arrays held)
from ._populations import Sampler, TwoPoint, _population

__all__ = ["BLOCK", "RiskResult", "map_blocks", "compare", "risk"]

BLOCK = 64  # replications per random stream: part of the seed contract
"""Replications per random stream: block ``b`` of a run draws from child ``b`` of the seed's ``SeedSequence``, so
results do not depend on the number of workers (part of the seed contract: changing it changes every simulated
number)."""
MAX_USERS = 10**8  # users per replication (arrays of chunk rows × n)
MAX_REPS = 10**9
CHUNK_USERS = 2**20  # users of Kent and DAME processed in one pass within a block: n // CHUNK_USERS rows (clipped to
# 1 .. the block's size), a function of n and of the path only, so also part of the seed contract
ENTRY_CHUNK_USERS = 2**22  # the same on the entries path (no array of every user where the releases stream; else
# 8 or 16 bytes a releasing user), and the users of a block of compare: a block is one pass there
ESTIMATORS = ("duchi", "kent", "dame")
MAX_BLOCK_REPS = 16 * BLOCK  # replications of a block of compare at most (small n: a pass of them shares its fixed costs)
COUNTED_BLOCK_REPS = 64 * BLOCK  # the same where the releasing users are counted (a replication costs about 1 us)
PROCESS_TASKS = 8  # tasks a process pool's map is cut into (each a chunk of blocks: the plan pickled once a chunk)
BLOCK_USERS = 2**16  # users drawn at a time in a replication of more users (one array per user quantity, reused)
RUN_USERS = 64  # users per run (a half's users of one size) above which a finite law's sizes draw run by run


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
        z = NormalDist().inv_cdf(0.5 + level / 2)
        return (self.mse - z * self.stderr, self.mse + z * self.stderr)


def _result(name, theta, est, settings) -> RiskResult:
    err = est - theta
    sq = err * err
    R = est.size
    return RiskResult(
        name, float(theta), est, float(sq.mean()), float(sq.std(ddof=1) / math.sqrt(R)) if R > 1 else math.inf,
        float(err.mean()), float(err.std(ddof=1) / math.sqrt(R)) if R > 1 else math.inf, settings,
    )


@dataclass(frozen=True)
class _Plan:
    """Everything a block needs, picklable: the law, the budget, and per-estimator settings."""

    sizes: SizeLaw
    n: int
    alpha: float
    population: TwoPoint | Sampler
    estimators: tuple
    size_table: tuple | None  # (support points, masses) of a finite law: sizes drawn as counts per half
    m_tilde: int
    dame_debiasing: dame.Debiasing | None
    dame_scale: str
    kent_T: int
    kent_tau: float
    more_dame: tuple = ()  # (m̃, debiasing) of DAME's further runs on the same users


def _block(plan: _Plan, seed_seq, size: int) -> dict:
    """One block of replications of every requested estimator, on shared data.

    Kent and DAME run on passes of about :data:`CHUNK_USERS` users (:data:`ENTRY_CHUNK_USERS` on the entries
    path: whole replications, 1 to the block's size of them, a function of ``n`` and of the path; the whole block
    where the releasing users are counted per table entry, :func:`_kernels.counted`), so that the fixed cost of a
    pass is
    shared by many replications when ``n`` is small (users are drawn and counted a few
    :math:`2^{16}` at a time within a pass on the entries path); the block's
    stream is consumed chunk after chunk: the users, Kent's noise, DAME's, then that of DAME's
    further runs (``plan.more_dame``, in order).  A replication of more than :data:`BLOCK_USERS`
    users is drawn block by block into arrays reused across replications (:func:`_draw_runs`).
    Where :func:`_kernels.usable` holds, a chunk's votes are counted from the users' draws
    (:func:`_kernels.run`: the same draws in the same order, the same results).
    """
    rng = np.random.default_rng(seed_seq)
    n, alpha = plan.n, plan.alpha
    out = {}
    if "duchi" in plan.estimators:  # exact: each output is +B w.p. 1/2 + θ/(2B), independently
        out["duchi"] = (duchi.estimate_checked(n, plan.population.mean, mechanisms.duchi_bound(alpha), rng, size)
                        if isinstance(plan.population, TwoPoint) else  # theta checked: no check per block
                        duchi.estimate(n, plan.population.mean, alpha=alpha, rng=rng, size=size))
    kent_on, dame_on = "kent" in plan.estimators, "dame" in plan.estimators
    if not (kent_on or dame_on):
        return out
    parts: dict[str, list[np.ndarray]] = {"kent": [], "dame": [], **{_more(mt): [] for mt, _ in plan.more_dame}}
    debias = plan.dame_debiasing if dame_on else None  # set whenever DAME is requested
    on_entries = _kernels.usable(plan)
    chunk = max(1, min(size, (ENTRY_CHUNK_USERS if on_entries else CHUNK_USERS) // n))
    if _kernels.counted(plan):  # releasing users counted per entry, no array of users: a block is one pass
        chunk = size
    # sizes from a finite law's table and two-point sums: valid by construction, not read again to be checked (a
    # Sampler's means, or another law's sizes, go through the estimators' checks)
    built = isinstance(plan.population, TwoPoint) and plan.size_table is not None
    for start in range(0, size, chunk):
        k = min(chunk, size - start)
        counts = None if plan.size_table is None else rng.multinomial(n // 2, plan.size_table[1], size=2 * k)
        tabs = _kernels.tables(plan, counts) if on_entries and counts is not None and \
            counts.size * RUN_USERS <= k * n else None
        if tabs is not None and counts is not None:  # the votes counted from what each size drew (no local means)
            for key, est in _kernels.run(plan, counts, tabs, k, rng).items():
                parts[key].append(est)
            continue
        m, xbar_T, xbar_m = _draw_users(plan, k, rng, counts)
        if kent_on:  # Kent et al. §6: every user uses T* samples
            parts["kent"].append(kent.univariate_checked(xbar_T, plan.kent_tau, alpha, rng) if built else
                                 kent.univariate(xbar_T, tau=plan.kent_tau, alpha=alpha, rng=rng))
        if debias is not None:  # DAME, Algorithm 1; its further runs on the same users, each with its own noise
            for key, mt, d in (("dame", plan.m_tilde, debias), *((_more(mt), mt, d) for mt, d in plan.more_dame)):
                parts[key].append(dame.estimate_checked(m, xbar_m, mt, alpha, d, rng, plan.dame_scale) if built else
                                  dame.estimate(m, xbar_m, m_tilde=mt, alpha=alpha, debias=d, rng=rng,
                                                scale=plan.dame_scale))
    out.update({k: np.concatenate(v) for k, v in parts.items() if v})
    return out


def _block_reps(n: int, counted: bool = False) -> int:
    r"""Replications per random stream of :func:`compare` at ``n`` users: :data:`BLOCK`, or up to 16 times it (a
    multiple of it) where a pass of :data:`ENTRY_CHUNK_USERS` users holds more replications;
    :data:`COUNTED_BLOCK_REPS` (64 times it) where the releasing users are ``counted`` per table entry
    (:func:`_kernels.counted`: a block is one pass, whatever ``n``).  Part of the seed contract: a function of the
    plan alone.

    A pass's fixed costs (the elections, the release's noise, a few dozen numpy calls: about 0.5 to 1 ms at
    n = 10⁴) are shared by the replications of the pass, which cannot outnumber those of the block (a block draws
    from one stream): at n = 10³, 1024 replications a block, against 64; at n = 10⁴, 384.  Where the users are
    counted, a replication costs little more than its share of those fixed costs, at any ``n``.

    .. math:: B(n) = 64 \max\big(1, \min(16, \lfloor \lfloor 2^{22}/n \rfloor / 64 \rfloor)\big)

    Examples
    --------
    >>> _block_reps(1000), _block_reps(10**4), _block_reps(10**5), _block_reps(10**7), _block_reps(10**7, True)
    (1024, 384, 64, 64, 4096)
    """
    return COUNTED_BLOCK_REPS if counted else max(BLOCK, min(MAX_BLOCK_REPS, ENTRY_CHUNK_USERS // n) // BLOCK * BLOCK)


def _more(m_tilde: int) -> str:
    """The key of DAME's further run with ``m_tilde`` in :func:`compare`'s results."""
    return f"dame@{m_tilde}"


def _plan(estimators, sizes, n, alpha, population, m_tilde, constants, denominator, scale, T, K,
          more_m_tildes=()) -> _Plan:
    if not isinstance(sizes, SizeLaw):
        raise ValueError(f"sizes must be a law from bounds.sizes, got {sizes!r}")
    n = check_integer("n", n, minimum=2, maximum=MAX_USERS, why="users per replication")
    alpha = check_positive("alpha", alpha)
    if not 0 < n * alpha * alpha < math.inf:
        raise ValueError(f"alpha = {alpha!r}: n α² = {n * alpha * alpha!r} is not a positive finite number")
    priv = dame_theory.privacy_budget(n, alpha, h3="dame" in estimators)  # H3 is DAME's assumption only
    n, alpha = priv.n, priv.alpha
    n -= n % 2  # n even: drop one user if odd (Algorithm 1)
    for e in estimators:
        if e not in ESTIMATORS:
            raise ValueError(f"estimator must be one of {', '.join(ESTIMATORS)}, got {e!r}")
    scale = check_choice("scale", scale, dame.SCALES)
    mt, debias = 1, None
    more: tuple = ()
    if not isinstance(more_m_tildes, (list, tuple)):
        raise ValueError(f"more_m_tildes must be a sequence of dataset sizes, got {format_value(more_m_tildes)}")
    if "dame" in estimators:
        mt = m_tilde if m_tilde is not None else _theorem_m_tilde(sizes, n, alpha, constants)
        mt = check_integer("m_tilde", mt, minimum=1)
        debias = _of_law(sizes, ("debiasing", mt, denominator),
                         functools.partial(dame.debiasing, sizes, mt, denominator=denominator))
        extra = [check_integer("more_m_tildes", v, minimum=1) for v in more_m_tildes]
        if mt in extra or len(set(extra)) < len(extra):
            raise ValueError(f"more_m_tildes must hold distinct sizes other than m_tilde = {mt}, "
                             f"got {format_value(more_m_tildes)}")
        more = tuple((v, _of_law(sizes, ("debiasing", v, denominator),
                                 functools.partial(dame.debiasing, sizes, v, denominator=denominator))) for v in extra)
    else:
        if denominator not in ("canonical", "official"):
            raise ValueError(f"denominator must be 'canonical' or 'official', got {denominator!r}")
        if more_m_tildes:
            raise ValueError("more_m_tildes needs DAME among the estimators")
    kT, ktau = 1, 1.0
    if "kent" in estimators:
        base = check_integer("T", T, minimum=1) if T is not None else sizes.support_min
        kT, ktau = kent.cap(n=n, T=base, alpha=alpha, K=K)
    table = _of_law(sizes, "size table", functools.partial(_size_table, sizes))
    return _Plan(sizes, n, alpha, population, tuple(estimators), table, mt, debias, scale, kT, ktau, more)


def _theorem_m_tilde(sizes: SizeLaw, n: int, alpha: float, constants: Any) -> int:
    """Theorem 2's m̃ (:func:`bounds.dame.m_tilde`), searched once per law object, ``n``, ``alpha`` and ``constants``
    (of a hashable kind; others at every call).  Its one warning, hypothesis H3's, is the privacy budget's, which
    :func:`_plan` checks at every call before asking for m̃."""
    search = functools.partial(dame_theory.m_tilde, sizes, n=n, alpha=alpha, constants=constants)
    return _of_law(sizes, ("m_tilde", n, alpha, type(constants), constants), search)


LAWS_KEPT = 8  # laws whose size table and eq. (9)'s constants are kept between calls (the last used)
_LAWS: dict[int, tuple[SizeLaw, dict]] = {}
_LAWS_LOCK = threading.Lock()


def _of_law(sizes: SizeLaw, key: Any, make: Callable[[], Any]) -> Any:
    """``make()`` for this law object and ``key``, computed at its first call and kept (a law is immutable; each
    entry holds its law, so its id is not reused while kept): a call's set-up reads nothing of the law again
    when the same law is simulated again (the figures' loops; 0.4 of the plan's 0.7 ms at Figure 1b's law).  A key
    that cannot be hashed (an option given as a list, which ``make`` checks and refuses by name) is not kept."""
    try:
        hash(key)
    except TypeError:
        return make()
    with _LAWS_LOCK:
        hit = _LAWS.get(id(sizes))
        if hit is not None and hit[0] is sizes and key in hit[1]:
            return hit[1][key]
    value = make()  # outside the lock: it may raise (a bad option), and then nothing is kept
    with _LAWS_LOCK:
        hit = _LAWS.pop(id(sizes), None)
        entry = hit if hit is not None and hit[0] is sizes else (sizes, {})
        entry[1][key] = value
        _LAWS[id(sizes)] = entry  # the most recent last
        while len(_LAWS) > LAWS_KEPT:
            del _LAWS[next(iter(_LAWS))]
    return value


def _size_table(sizes: SizeLaw, max_points: int = 4096):
    """A finite law's support and masses, for drawing each half's sizes as multinomial counts."""
    if not sizes.is_finite:
        return None
    try:
        pts = sizes.support_points()
        if pts.size > max_points:
            return None
        p = np.asarray(sizes.pmf(pts), dtype=float)
    except NotImplementedError:  # laws whose queries are not available: draw user by user
        return None
    return pts, p / math.fsum(p)


def _draw_users(plan: _Plan, size: int, rng, counts: np.ndarray | None = None) -> tuple:
    r"""Sizes ``m`` (``size`` × ``n``) and the local means Kent (over :math:`T^* \wedge m`) and DAME (over ``m``) use.

    Only what the requested estimators read is drawn.  For a finite law, each half's sizes are
    multinomial counts (every estimator is a symmetric function of the users within a half,
    so the multiset of sizes in a half is what matters: :math:`\mathrm{Mult}(n/2, M)`), laid out
    sorted within each half.  With few support points the users of each size draw their sums
    in one call, :math:`S_m = S_T + \mathrm{Bin}(m - T, q)` (independent parts, the second only
    where :math:`m > T`), and the runs of each half are put together (no per-user gather);
    otherwise every user draws in place.  Sizes of other laws are drawn user by user.
    """
    pop, n, kT = plan.population, plan.n, plan.kent_T
    kent_on, dame_on = "kent" in plan.estimators, "dame" in plan.estimators
    if plan.size_table is None:
        m = plan.sizes.sample(size * n, rng).reshape(size, n)
    else:
        pts, p = plan.size_table
        if counts is None:  # each half's users of each size (drawn by the caller in a run)
            counts = rng.multinomial(n // 2, p, size=2 * size)
        if size == 1 and n > BLOCK_USERS and isinstance(pop, TwoPoint) and counts.size * RUN_USERS <= n:
            return _draw_runs(pop, pts, counts, kT if kent_on else None, dame_on, rng)
        m = (np.broadcast_to(pts.astype(np.int64), (size, n)) if pts.size == 1 else  # one size: no array of them
             np.repeat(np.tile(pts, 2 * size), counts.ravel()).reshape(size, n))
        if counts.size * RUN_USERS <= m.size:  # few runs: draw size by size, then join the runs
            return (m, *_draw_by_size(pop, pts, counts, kT if kent_on else None, dame_on, rng))
    if kent_on and dame_on:  # the prefix of T* samples and the whole: S_m = S_T + Bin(m - T, q)
        return (m, *pop.nested_means(m, np.minimum(m, kT), rng))
    if kent_on:
        return m, pop.local_means(np.minimum(m, kT), rng), None
    return m, None, pop.local_means(m, rng)


def _draw_by_size(pop: TwoPoint | Sampler, pts: np.ndarray, counts: np.ndarray, kT: int | None, whole: bool,
                  rng: np.random.Generator) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Local means over ``min(m, kT)`` (if ``kT``) and over ``m`` (if ``whole``) in the layout of ``counts``.

    ``counts[r, k]``: users of size ``pts[k]`` in segment ``r`` (a half).  Each size's users draw
    together; segment ``r``'s run of size ``k`` is the slice after the runs of earlier segments.
    """
    shape = (counts.shape[0] // 2, counts.sum() * 2 // counts.shape[0])
    by_T: list[np.ndarray] = []
    by_m: list[np.ndarray] = []
    for a, c in zip(pts.tolist(), counts.sum(axis=0).tolist()):
        t = a if kT is None else min(a, kT)
        s = pop.sums(t, c, rng)
        if whole and a > t:
            s_m = s + pop.sums(a - t, c, rng)
            s_m /= a
        s /= t  # in place: the sums are this call's own array
        if kT is not None:
            by_T.append(s)
        if whole:  # where a = t the same array serves both (the estimators never write to their inputs)
            by_m.append(s_m if a > t else s)
    before = (np.cumsum(counts, axis=0) - counts).tolist()  # users of size k in earlier segments
    runs = [(k, lo, lo + c) for row, starts in zip(counts.tolist(), before)
            for k, (c, lo) in enumerate(zip(row, starts)) if c]
    join = lambda parts: (parts[0] if len(parts) == 1 else  # noqa: E731  one size: the draws are the layout
                          np.concatenate([parts[k][lo:hi] for k, lo, hi in runs])).reshape(shape)
    return (join(by_T) if kT is not None else None), (join(by_m) if whole else None)


def _draw_runs(pop: TwoPoint, pts: np.ndarray, counts: np.ndarray, kT: int | None, whole: bool,
               rng: np.random.Generator) -> tuple:
    """:func:`_draw_by_size` for one replication of many users, :data:`BLOCK_USERS` users at a time.

    The same draws in the same order, the same arithmetic user by user, so the same bits; the
    users' sizes (for DAME) and local means are written into arrays reused from one replication
    to the next (:func:`_scratch`), and no other array holds more than a block of users.
    ``counts``: (2, support) users of each size in each half.
    """
    n = int(counts.sum())
    h = n // 2
    one_size = pts.size == 1  # a point law: every user's size, without an array of them
    m = (np.broadcast_to(pts.astype(np.int64), (n,)) if one_size else _scratch("m", n, np.int64)) if whole else None
    x_T = _scratch("x_T", n, np.float64) if kT is not None else None
    shared = x_T is not None and all(a <= kT for a in pts.tolist())  # DAME's means are Kent's
    x_m = (x_T if shared else _scratch("x_m", n, np.float64)) if whole else None
    starts = (np.cumsum(counts, axis=1) - counts).tolist()  # each run's first user within its half
    for k, a in enumerate(pts.tolist()):
        c = int(counts[:, k].sum())
        t = a if kT is None else min(a, kT)
        pieces = [(r * h + starts[r][k] + s, min(BLOCK_USERS, int(counts[r, k]) - s))
                  for r in range(2) for s in range(0, int(counts[r, k]), BLOCK_USERS)]
        lengths = [length for _, length in pieces]
        first = x_T if x_T is not None else x_m
        assert first is not None
        if m is not None and not one_size:
            for lo, length in pieces:
                m[lo:lo + length] = a
        if not (whole and a > t):  # one draw a user: its local mean, written where it goes
            pop.means_into(t, c, rng, [first[lo:lo + length] for lo, length in pieces])
            if whole and x_m is not first:
                assert x_m is not None
                for lo, length in pieces:
                    x_m[lo:lo + length] = first[lo:lo + length]
            continue
        for (lo, length), ones in zip(pieces, pop.ones_pieces(t, c, rng, lengths)):  # S_t, signed
            out = first[lo:lo + length]
            np.multiply(ones, 2.0, out=out)
            out -= t
        if whole and a > t:  # S_m = S_t + the rest's signed sum, over m
            assert x_m is not None
            for (lo, length), ones in zip(pieces, pop.ones_pieces(a - t, c, rng, lengths)):
                out = x_m[lo:lo + length]
                np.multiply(ones, 2.0, out=out)
                out -= a - t
                out += first[lo:lo + length]
                out /= a
        for lo, length in pieces:
            first[lo:lo + length] /= t
    as_row = lambda x: None if x is None else x.reshape(1, n)  # noqa: E731
    return as_row(m), as_row(x_T), as_row(x_m)


def map_blocks(block: Callable[[Any, np.random.SeedSequence, int], Any], plan: Any, reps: int, seed: SeedLike,
               executor: Executor | None, progress: bool, block_size: int = BLOCK) -> list:
    r"""Run ``block(plan, seed_seq, size)`` over fixed blocks of ``block_size`` (:data:`BLOCK`) replications.

    Block ``b`` draws from the ``b``-th child of ``SeedSequence(seed).spawn``: the results do
    not depend on the executor (``None``: in process) nor on how it spreads the blocks.  A
    process pool receives them in ``PROCESS_TASKS`` (8) chunks (a round trip per 64-replication
    block cost more CPU than many blocks' work).

    .. math:: R = \sum_{b < \lceil R/B\rceil} \text{size}_b,\qquad
              \text{size}_b = \min(B, R - bB),\qquad \text{block } b \leftarrow \text{child}_b(\text{seed})

    Source: Scientific Python SPEC 7 (seeding), ``numpy.random.SeedSequence.spawn``.

    Examples
    --------
    >>> map_blocks(lambda plan, seq, size: size, None, reps=100, seed=0, executor=None, progress=False)
    [64, 36]
    """
    if not callable(block):
        raise ValueError(f"block must be callable, got {format_value(block)}")
    reps = check_integer("reps", reps, minimum=1, maximum=MAX_REPS)
    block_size = check_integer("block_size", block_size, minimum=1, maximum=MAX_REPS)
    n_blocks = -(-reps // block_size)
    children = mechanisms.seed_sequence(seed).spawn(n_blocks)
    sizes_ = [min(block_size, reps - b * block_size) for b in range(n_blocks)]
    if executor is not None and not callable(getattr(executor, "map", None)):
        raise ValueError(f"executor must be None or a concurrent.futures.Executor, got {executor!r}")
    if not isinstance(progress, (bool, np.bool_)):
        raise TypeError(f"progress must be a bool, got {format_value(progress)}")
    if executor is None:
        parts: Any = map(block, [plan] * n_blocks, children, sizes_)
    elif isinstance(executor, ProcessPoolExecutor):  # blocks travel in chunks: a round trip per block costs more
        parts = executor.map(block, [plan] * n_blocks, children, sizes_,  # than a small block's work
                             chunksize=-(-n_blocks // PROCESS_TASKS))
    else:
        parts = executor.map(block, [plan] * n_blocks, children, sizes_)
    return list(tqdm(parts, total=n_blocks, disable=None if progress else True, desc="replications"))


@warn_once_per_call
def compare(*, theta: float | None = None, sizes: SizeLaw, n: int, alpha: float, reps: int, seed: SeedLike,
            estimators: Sequence[str] = ESTIMATORS, population: TwoPoint | Sampler | None = None,
            m_tilde: int | None = None, constants: Any = "paper", denominator: str = "canonical", scale: str = "paper",
            T: int | None = None, K: float = 1.0, more_m_tildes: Sequence[int] = (), executor: Executor | None = None,
            progress: bool = False) -> dict:
    r"""Several user-level LDP estimators on the **same** simulated data, replication by replication.

    Users :math:`u = 1..n` draw :math:`m_u \sim M` and their samples from :math:`\mu`
    (two-point with mean ``theta``, or ``population``).  Estimators:

    * ``"duchi"`` — each user privatises its local mean with Duchi et al.'s ±B mechanism;
      the server averages (Pla et al. (2024), §4.2);
    * ``"kent"`` — Kent et al.'s univariate two-phase procedure with ``T`` samples per user
      (default: the smallest dataset size, every user truncating to it) and the cap
      :math:`T^* = \min(T, e^{n\alpha^2/K})` (Kent et al. (2024), eqs. (25)–(30));
    * ``"dame"`` — DAME, Algorithm 1 (eqs. (4)–(9)), with ``m_tilde`` from Theorem 2 under
      ``constants`` unless given; ``denominator="official"`` swaps eq. (9)'s
      :math:`E[\sqrt{m \wedge \tilde m}]` for the official code's ``mean(min(M, sqrt(m̃)))``;
      ``scale="width"`` calibrates the Laplace noise to the clip interval's width
      :math:`(U - L)/\alpha` instead of eq. (8)'s :math:`14\tau/\alpha`
      (:func:`bounds.estimators.dame.laplace_scale`).

    .. math:: \hat\theta_{DAME} = \frac{\sqrt{\tilde m}\,\bar\theta - \sum_{i \le \tilde m}(\sqrt{\tilde m} - \sqrt i) M(i)\, s_{\hat j}}
              {E[\sqrt{m \wedge \tilde m}]}

    ``more_m_tildes``: DAME run again with each of these m̃ on the same users (the same sizes and
    local means as every estimator here), each run with privacy noise of its own, drawn after the
    others' from the block's stream: each run has exactly the law of a run alone, and their
    noises are independent; returned under ``"dame@<m̃>"``.  Simulating the users once for several
    m̃ is what makes comparing them cheap (Figure 1b).

    Returns ``{name: RiskResult}``.

    Source: Pla et al. (2024), Algorithm 1 and Figure 1b; Kent et al. (2024), eqs. (25)–(30).

    Examples
    --------
    >>> from bounds import sizes
    >>> res = compare(theta=0.0, sizes=sizes.point(50), n=200, alpha=0.5, reps=64, seed=0)
    >>> sorted(res)
    ['dame', 'duchi', 'kent']
    """
    pop = _population(theta, population)
    if not isinstance(estimators, (list, tuple)) or not all(isinstance(e, str) for e in estimators):
        raise ValueError(f"estimators must be a sequence of names from {ESTIMATORS}, got {format_value(estimators)}")
    plan = _plan(tuple(estimators), sizes, n, alpha, pop, m_tilde, constants, denominator, scale, T, K, more_m_tildes)
    block = _block_reps(plan.n, _kernels.counted(plan))
    try:
        parts = map_blocks(_block, plan, reps, seed, executor, progress, block)
    finally:
        _release()
    settings = {"n": plan.n, "alpha": plan.alpha, "sizes": repr(sizes), "m_tilde": plan.m_tilde,
                "kent_T": plan.kent_T, "reps": reps, "seed": seed, "block": block}
    out = {e: _result(e, pop.mean, np.concatenate([p[e] for p in parts]), settings) for e in plan.estimators}
    for mt, _ in plan.more_dame:
        out[_more(mt)] = _result("dame", pop.mean, np.concatenate([p[_more(mt)] for p in parts]),
                                 {**settings, "m_tilde": mt})
    return out


@warn_once_per_call
def risk(estimator: str, *, theta: float, sizes: SizeLaw, n: int, alpha: float, reps: int, seed: SeedLike,
         executor: Executor | None = None, progress: bool = False, **options: Any) -> RiskResult:
    r"""Simulated risk :math:`E(\hat\theta - \theta)^2` of one user-level LDP estimator.

    ``estimator`` is ``"dame"``, ``"duchi"`` or ``"kent"``; ``theta`` is the mean of the
    two-point :math:`\mu` on :math:`\{-1, 1\}`.  ``options``: ``m_tilde``, ``constants``,
    ``denominator``, ``scale`` (DAME); ``T``, ``K`` (Kent); ``population`` (a :class:`Sampler`, then
    ``theta`` must equal its mean).  See :func:`compare`.

    .. math:: \widehat{R} = \frac1R \sum_{r=1}^R (\hat\theta_r - \theta)^2 \pm \frac{\mathrm{sd}}{\sqrt R}

    Source: Pla et al. (2024), eq. (3) (the risk) and Algorithm 1.

    Examples
    --------
    >>> from bounds import sizes
    >>> r = risk("dame", theta=0.4, sizes=sizes.point(1000), n=4000, alpha=0.6, reps=128, seed=3)
    >>> abs(r.bias) < 4 * r.bias_stderr
    True
    """
    estimator = check_choice("estimator", estimator, ESTIMATORS)
    return compare(theta=theta, sizes=sizes, n=n, alpha=alpha, reps=reps, seed=seed, estimators=(estimator,),
                   executor=executor, progress=progress, **options)[estimator]
