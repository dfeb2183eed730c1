r"""The Monte Carlo engine: populations, seeding, blocks of replications, executors, risks.

The estimators themselves are pure functions in :mod:`bounds.estimators` (one module per
paper); the simulated quantities beside their bounds are in :mod:`bounds.checks`.

Exactness.  Users' data enter every estimator through sufficient statistics drawn
from their exact laws: under the two-point :math:`\mu` on :math:`\{-1, 1\}` (mean
``theta``) a user's sum of ``m`` samples is one binomial (where many users share a size,
drawn by inversion of its tabulated cdf, :func:`binomial_inversion`); a prefix of ``T``
samples and the rest are two (:math:`S_m = S_T + \mathrm{Bin}(m - T, q)`); a bin's noisy vote
total is :func:`~bounds.mechanisms.noisy_vote_totals`' law (two binomials; for at most 511 voters each by
inversion of a tabulated cdf of :math:`\mathrm{Bin}(k, 1 - \pi_\alpha)`, one uniform each); Duchi's :math:`+B` count is one
binomial.  An explicit per-user, per-sample path (:class:`Sampler`, any :math:`\mu`)
has the same law (tested).

Reproducibility.  ``seed`` is an int (or a sequence of ints), a ``SeedSequence`` or a
``Generator`` (:func:`~bounds.mechanisms.seed_sequence`).  Replications run in fixed blocks
of :data:`BLOCK` (in :func:`compare`, a multiple of it, up to 1024, fixed by the number of users
``n``: about :math:`2^{22}` users a block where ``n`` is small; 4096 where the releasing users are counted,
below); block ``b`` draws from the
``b``-th child of the seed's ``SeedSequence``, so the estimates for a seed are identical whatever the executor (none, a thread or process
pool, a ``dask.distributed`` client's executor) and however blocks are spread over workers.

Votes without voters.  Under the two-point :math:`\mu` and a finite law with few support points
(a DAME run's voters the users of sizes at least its m̃; the others shrink their means towards the
elected bin's centre), a voter's bin in every vote is a non-decreasing function of its
number of ones, constant between a few cuts, so each row's voters of one size are counted per
cell between the cuts by one multinomial draw (their exact law: the cells' probabilities are
the binomial's, as its inversion draws it; tested against exact rational sums and, estimate by
estimate, against drawing every voter), and only the releasing half's local means are drawn
and written; or, where a row holds at least eight releasing users of a size per entry of its
table, not even those: a row's clipped sum depends on its users through how many hold each
entry, so they are counted per entry by one multinomial a row (their exact law; tested against
every user drawn), in work proportional to the table, not to ``n``.  A size above Kent's
:math:`T^*` (DAME and Kent together) is counted per joint cell (Kent's cell of the first
:math:`T^*` samples × DAME's of the whole sum).

Memory.  A replication of more than :math:`2^{16}` users (a finite law with few support points,
the two-point :math:`\mu`) is drawn and read in blocks of :math:`2^{16}` users: the same draws in
the same order and the same arithmetic, so the same bits as one call over all users
(tested).  What it holds beyond a few blocks is its per-user state: none where the votes are
counted per cell (the releasing users read as they are drawn: about 4 MiB at 10⁷ users), but
4 bytes a user (the releasing half's local means) kept for DAME's further runs
(``more_m_tildes``; a size counted per entry keeps its counts instead); otherwise 8 bytes a user
for the local means (16 where Kent's :math:`T^*` is below some sizes, 8 more for the sizes of a
law with several support points), in arrays reused from one replication to the next and freed when
:func:`compare` returns (a process pool's workers keep theirs until they end; each thread keeps its buffers of a
block, a few MiB, for the next call); 10⁸ users need a few MiB (0.8–2.4 GB on the general path).

Examples
--------
>>> from bounds import simulate, sizes
>>> r = simulate.risk("duchi", theta=0.3, sizes=sizes.point(10), n=1000, alpha=0.5, reps=200, seed=1)
>>> r.estimates.shape, r.mse < 0.2
((200,), True)

Modules: ``_populations`` (:class:`TwoPoint`, :class:`Sampler`, the binomial tables), ``_engine``
(DAME, Kent and Duchi on shared data: :func:`compare`, :func:`risk`, :func:`map_blocks`),
``_kernels`` (the votes counted from the draws, the per-user arrays reused),
``_cummings`` (:func:`cummings_risk`) and ``_rameshwar`` (:func:`rameshwar_errors`,
:func:`akmv_worst_case`).
"""

from __future__ import annotations

from ._cummings import cummings_risk
from ._engine import BLOCK, RiskResult, compare, map_blocks, risk
from ._populations import Sampler, TwoPoint, binomial_inversion, binomial_table
from ._rameshwar import akmv_worst_case, rameshwar_errors

__all__ = [
    "BLOCK",
    "TwoPoint",
    "binomial_table",
    "binomial_inversion",
    "Sampler",
    "RiskResult",
    "risk",
    "compare",
    "cummings_risk",
    "rameshwar_errors",
    "akmv_worst_case",
    "map_blocks",
]
