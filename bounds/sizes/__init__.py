r"""Laws :math:`M` of the dataset size on :math:`\mathbb{N}^* = \{1, 2, \dots\}`.

Every quantity the DAME bounds need is a functional of the law :math:`M` of a
user's dataset size :math:`m` (Pla et al. (2024),
Theorems 1 and 2, eqs. (10)–(12)):

.. math::

    P(m \ge a),\quad P(m > a),\quad E[\sqrt{m \wedge a}],\quad
    E[\sqrt{m}\,\mathbb{1}\{m \le a\}],\quad E[m].

Each law answers these exactly, vectorised over ``a``, in float64 (computed in
log space, so masses near ``1e-300`` keep their relative accuracy) and in
mpmath at a requested number of digits (``precision=``).

**Tables and tails.**  Sums over the support are tabulated on ``1..K``.  A law
with infinite support is cut at the smallest ``K`` for which a *proven* upper
bound on the neglected functional,

.. math:: E[\sqrt{m}\,\mathbb{1}\{m > K\}] \le \frac{E[m\,\mathbb{1}\{m > K\}]}{\sqrt{K+1}},

is below ``tol`` (``1e-20`` in float64, ``10^{-(d+5)}`` at ``d`` digits);
:math:`E[m\,\mathbb{1}\{m>K\}]` is in closed form for every family (Poisson:
:math:`\lambda P(X \ge K)`; binomial: :math:`Np\,P(\mathrm{Bin}(N-1,p) \ge K)`;
geometric: :math:`q^K(K + 1/p)`) and a moment bound for :func:`from_scipy`.
Since :math:`E[\sqrt m] \ge 1`, ``tol`` is also a relative error.  Tail
probabilities :math:`P(m > a)` never use the cut: they come from each family's
closed-form survival function.  No table at all for :func:`zipf` (Hurwitz zeta closed
forms), :func:`geometric` (Euler–Maclaurin with exact incomplete-gamma integrals, any
``p``) and uniform laws on more than 10^6 points; finite and empirical laws tabulate
their support points however widely they spread.  A log-concave family whose bulk lies
far from 1 (``binomial(10**9, 0.999)``, ``poisson(1e6)``) tabulates only a window on its
bulk; the masses below it are summed locally with a proven geometric remainder.

**Layout.**  One private module per family of laws, each stating which queries it computes in
closed form, by tabulation or by series, with the error bound of each: ``_base`` (the abstract
:class:`SizeLaw` and its log-space queries), ``_finite`` (finite, point, uniform, empirical),
``_family`` and ``_scipy`` (zero-truncated or shifted families: poisson, binomial,
from_scipy), ``_geometric``, ``_zipf``, ``_kernels`` (Euler-Maclaurin sums, Loader's
deviance and Stirling error), ``_tables`` (tables, windows and their tail bounds),
``_common`` (limits and log helpers) and ``_parse`` (text specs).

Examples
--------
>>> from bounds import sizes
>>> law = sizes.poisson(5)
>>> float(law.prob_ge(1)), round(float(law.mean()), 6)
(1.0, 5.033918)
>>> law.sqrt_min_mean([1, 4, 10**6]).round(6)
array([1.      , 1.878541, 2.185883])
"""


__all__ = [
    "SizeLaw",
    "poisson",
    "binomial",
    "uniform",
    "finite",
    "point",
    "geometric",
    "zipf",
    "empirical",
    "from_scipy",
    "parse",
]

from ._base import SizeLaw, _rebuild
from ._common import (
    DEEP_LOG,
    FLOAT_SAFE_TOTAL,
    FLOAT_TOL,
    LOG_HALF,
    MAX_DRAWS,
    MAX_LISTED,
    MAX_SIZE,
    MAX_TABLE,
    MAX_WALK,
    SEARCH_CAP,
    WHOLE_TABLE,
    WIDE,
)
from ._family import FamilyLaw
from ._finite import FiniteLaw, UniformLaw, empirical, finite, point, uniform
from ._geometric import GeometricLaw, geometric
from ._parse import parse
from ._scipy import binomial, from_scipy, poisson
from ._zipf import ZipfLaw, zipf
