r"""Choosing the central contribution bound privately (``--private-selection FRACTION``).

The tuned bounds of :mod:`~bounds.advise.tuning` read the per-user counts and, with ``--value``, the
values: using them to choose the bound is **not** differentially private.  The private pipeline splits
:math:`\varepsilon = \varepsilon_{sel} + \varepsilon_{rel}` with :math:`\varepsilon_{sel} = f\varepsilon`:

1. **selection** — the exponential mechanism over a data-independent grid :math:`G` of bounds (in
   records per user: :math:`\lceil 2^{i/4}\rceil`, :math:`i = 0, 1, \dots`, up to :data:`GRID_MAX`),
   with utility :math:`u(g) = -\big|\#\{i : m_i > g\} - r\big|` for the method's target rank ``r``:

   .. math:: P(g) = \frac{\exp(\varepsilon_{sel}\,u(g)/2)}{\sum_{g' \in G}\exp(\varepsilon_{sel}\,u(g')/2)}

   Adding, removing or changing one user changes every :math:`\#\{i : m_i > g\}` by at most 1, so
   :math:`u` has sensitivity 1 and the choice is :math:`\varepsilon_{sel}`-DP (McSherry & Talwar, 2007,
   Theorem 6; Dwork & Roth, 2014, Theorem 3.10).  It reads the counts only, never the values.
2. **release** — the method at the chosen bound with :math:`\varepsilon_{rel} = (1-f)\varepsilon`:
   :math:`\varepsilon_{rel}`-DP in the papers' relation (the counts public, one user's values replaced).

The release's normalisations (:math:`\sum_i m_i`, :math:`K`, :math:`m^*`) are counts: public in that
relation, as in every release of :mod:`~bounds.advise.methods`.  Under it a bound computed from the counts
alone costs nothing; a bound computed from the **values** (``--value``) is not private, and the selection
here never reads them.  When the counts themselves are to be protected, the selection is
:math:`\varepsilon_{sel}`-DP for them too, but the normalisations would need their own budget (not
covered).  By basic composition (Dwork & Roth, 2014, Theorem 3.16) the pipeline is
:math:`(\varepsilon_{sel} + \varepsilon_{rel}) = \varepsilon`-DP.  The target ranks are each rule's
own minimiser of the worst-case :math:`E|\text{error}|`: :math:`\lceil 2/\varepsilon_{rel}\rceil` for
Rameshwar & Tandon's window (their :math:`T_\varepsilon`, Theorem III.1), :math:`\lceil
1/\varepsilon_{rel}\rceil` for a one-sided cap (the slope of :math:`\sum_i (Um_i - C)_+ + C/\varepsilon`)
and for the record cap.  The pipeline's MSE is the mixture :math:`\sum_g P(g)\,\mathrm{MSE}(g;
\varepsilon_{rel})` (selection and release noise independent), computed exactly and checked by
simulation (``simulate``).

In the **local model** (DAME's :math:`\tilde m`), :math:`\alpha_{sel} = f\alpha`: each user reports the grid
bucket of its count by :math:`k`-ary randomised response (``local_laws``, :math:`\alpha_{sel}`-LDP),
:math:`\tilde m` is computed from the estimated law (post-processing), and each user's DAME report spends
:math:`\alpha - \alpha_{sel}`: :math:`\alpha`-LDP in all by sequential composition (Dwork & Roth, 2014,
Theorem 3.16, applied to each user's two reports).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from .inputs import MAX_COUNT, Histogram

__all__ = ["GRID_MAX"]  # its functions serve advise, which validates their inputs

GRID_MAX = MAX_COUNT
"""The largest bound of the selection grid, in records per user (data-independent)."""


def grid(upper: int = GRID_MAX) -> np.ndarray:
    r"""The data-independent selection grid :math:`\{\lceil 2^{i/4}\rceil\} \cap [1, \text{upper}]` (records per user).

    Source: a geometric grid defined here (ratio :math:`2^{1/4}`, about 19%).

    Examples
    --------
    >>> grid(10).tolist()
    [1, 2, 3, 4, 5, 6, 7, 8, 10]
    """
    i = np.arange(0, int(4 * math.log2(upper)) + 2)
    g = np.unique(np.ceil(2.0 ** (i / 4)).astype(np.int64))
    return g[g <= upper]


def above(h: Histogram, g: np.ndarray) -> np.ndarray:
    """``#{users with count > g}`` for each ``g`` (exact integers), from the histogram in O(J + |g|).

    Examples
    --------
    >>> above(Histogram.of_counts([1, 2, 2, 5]), np.array([0, 1, 2, 5])).tolist()
    [4, 3, 1, 0]
    """
    suffix = np.concatenate([np.cumsum(h.users[::-1])[::-1], [0]])
    return suffix[np.searchsorted(h.counts, g, side="right")]


def target_rank(method: str, eps_release: float) -> int:
    r"""The rank the selection aims at: :math:`\lceil 2/\varepsilon_{rel}\rceil` (window), else
    :math:`\lceil 1/\varepsilon_{rel}\rceil`.

    Examples
    --------
    >>> target_rank("window", 0.9), target_rank("sum cap", 0.9)
    (3, 2)
    """
    return math.ceil((2.0 if method == "window" else 1.0) / eps_release)


def selection_pmf(h: Histogram, g: np.ndarray, rank: int, eps_select: float) -> np.ndarray:
    r"""The exponential mechanism's probabilities over the grid ``g`` (utility :math:`-|\#\{m_i > g\} - r|`).

    .. math:: P(g) \propto \exp\big(-\tfrac{\varepsilon_{sel}}{2}\,|\#\{i : m_i > g\} - r|\big)

    Source: McSherry and Talwar (2007), the exponential mechanism; Dwork and Roth (2014), Definition 3.4.

    Examples
    --------
    >>> p = selection_pmf(Histogram.of_counts([1, 3]), np.array([1, 2, 3]), 1, 2.0)
    >>> [round(x, 6) for x in p.tolist()]  # utilities 0, 0, -1
    [0.42232, 0.42232, 0.155362]
    """
    u = -np.abs(above(h, g).astype(float) - rank)
    z = 0.5 * eps_select * u
    w = np.exp(z - z.max())
    return w / w.sum()


def split(eps: float, fraction: float) -> tuple[float, float]:
    """``(ε_sel, ε_rel) = (fε, ε − ε_sel)``: they add up to ``ε`` (at most ``ε`` exactly, as real numbers).

    Examples
    --------
    >>> split(1.0, 0.1)  # the float 0.9 would make the exact sum exceed 1
    (0.1, 0.8999999999999999)
    """
    if not 0 < fraction < 1:
        raise ValueError(f"private_selection must be a fraction in (0, 1), got {fraction!r}")
    e_sel = eps * fraction
    e_rel = eps - e_sel
    # basic composition must not exceed ε: compared exactly (the float sum can round an excess away)
    while Fraction(e_sel) + Fraction(e_rel) > Fraction(eps):
        e_rel = math.nextafter(e_rel, 0.0)
    return e_sel, e_rel


def choose(h: Histogram, g: np.ndarray, rank: int, eps_select: float, rng: np.random.Generator,
           size: int | None = None) -> Any:
    r"""Draw the bound: grid point ``g[i]`` with the exponential mechanism's probability :func:`selection_pmf`.

    .. math:: \Pr[\text{bound} = g] = P(g)

    Source: McSherry and Talwar (2007), the exponential mechanism.

    Examples
    --------
    >>> int(choose(Histogram.of_counts([1, 1, 9]), np.array([1, 9]), 1, 50.0, np.random.default_rng(0)))
    1
    """
    pmf = selection_pmf(h, g, rank, eps_select)
    i = rng.choice(pmf.size, size=size, p=pmf)
    return g[i]


def simulate(pmf: np.ndarray, bias_var: np.ndarray, scale: np.ndarray, M: float, reps: int,
             rng: np.random.Generator) -> np.ndarray:
    r"""Errors of the whole pipeline: a bound drawn from ``pmf``, then the release's error at it.

    ``bias_var[k] = (mean, variance)`` of :math:`\sum_i D_i` at grid point ``k`` and ``scale[k]`` the
    Laplace scale; the data term is drawn as a normal with those moments (exact in the mean and
    variance of the error, which is what the RMSE reads).

    Examples
    --------
    >>> e = simulate(np.array([1.0]), np.array([[0.0, 0.0]]), np.array([1.0]), 1.0, 4000, np.random.default_rng(0))
    >>> abs(float(np.mean(e * e)) - 2.0) < 0.3  # Var Lap(1) = 2
    True
    """
    k = rng.choice(pmf.size, size=reps, p=pmf)
    mean, var = bias_var[k, 0], bias_var[k, 1]
    return (mean + np.sqrt(var) * rng.standard_normal(reps)) / M + rng.laplace(0.0, scale[k])


def krr_keep(alpha: float, k: int) -> float:
    r"""Keep probability of :math:`k`-ary randomised response at level :math:`\alpha` (report the true bucket,
    else one of the :math:`k - 1` others uniformly): :math:`\alpha`-LDP.

    .. math:: p = \frac{e^\alpha}{e^\alpha + k - 1}

    Source: Warner (1965); Kairouz, Oh & Viswanath (2016), the k-ary randomised response.

    Examples
    --------
    >>> round(krr_keep(math.log(3), 3), 12)  # 3 / (3 + 2)
    0.6
    """
    return 1.0 / (1.0 + (k - 1) * math.exp(-alpha))


def local_laws(h: Histogram, g: np.ndarray, alpha_select: float, reps: int,
               rng: np.random.Generator) -> list[dict[int, float]]:
    r"""``reps`` private estimates of the counts' law, each from one :math:`k`-ary randomised response per user.

    Each user reports the grid bucket of its count (:math:`\max\{g \in G : g \le m_i\}`) through
    :func:`krr_keep`'s mechanism at :math:`\alpha_{sel}`; the server inverts the channel,

    .. math:: \hat f_b = \Big(\frac{\text{reports}_b}{n} - q\Big)\Big/(p - q),\qquad q = \frac{1-p}{k-1},

    clips at 0 and renormalises: a law on the grid (counts rounded down to it); where the inversion gives
    nothing (all clipped, or :math:`p = q` in float64 at a vanishing :math:`\alpha_{sel}`) the reports'
    frequencies are the estimate.  Each user's report is :math:`\alpha_{sel}`-LDP; the estimate is
    post-processing.

    Source: Kairouz, Oh & Viswanath (2016) (k-RR and its unbiased frequency estimate); the grid of :func:`grid`.

    Examples
    --------
    >>> laws = local_laws(Histogram.of_counts([1] * 50 + [9] * 50), np.array([1, 2, 4, 8]), 20.0, 2,
    ...                   np.random.default_rng(0))
    >>> sorted(laws[0])
    [1, 8]
    """
    k = g.size
    bucket = np.clip(np.searchsorted(g, h.counts, side="right") - 1, 0, k - 1)
    n_b = np.bincount(bucket, weights=h.users.astype(float), minlength=k).astype(np.int64)
    n = int(n_b.sum())
    p = krr_keep(alpha_select, k)
    q = (1 - p) / (k - 1) if k > 1 else 0.0
    out = []
    for _ in range(reps):
        kept = rng.binomial(n_b, p)
        reports = kept.astype(np.int64)
        for b in np.flatnonzero(n_b - kept):  # the others: uniform over the k − 1 other buckets
            spread = rng.multinomial(int(n_b[b] - kept[b]), np.full(k - 1, 1.0 / (k - 1)))
            reports += np.insert(spread, b, 0)
        with np.errstate(divide="ignore", invalid="ignore"):  # p = q in float64 at a vanishing alpha_select
            f = np.maximum((reports / n - q) / (p - q), 0.0) if k > 1 else np.ones(1)
        if not (np.all(np.isfinite(f)) and f.sum() > 0):  # no inversion: the reports' own frequencies
            f = reports / n
        f = f / f.sum()
        out.append({int(g[b]): float(f[b]) for b in np.flatnonzero(f > 0)})
    return out
