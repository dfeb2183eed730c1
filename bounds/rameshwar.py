r"""Rameshwar & Tandon: the worst-case-optimal clipping of user contributions.

Source: Rameshwar and Tandon (2025) — *Bounding User Contributions in the
Worst-Case for User-Level DP Mean Estimation*: Lemma III.1, Theorem III.1, the
linear programme (8), :math:`E^{OPT}(\varepsilon)` eq. (12), the sensitivities
(14)–(15) and the experiments of §IV.  The canonical choices are listed in
``docs/choices.md`` §4.

Setting: ``L`` users, user :math:`\ell` contributes :math:`m_\ell` samples in
:math:`(0, U]`; the counts are public; the released statistic is the sample mean
with Laplace noise under user-level :math:`\varepsilon`-DP.  Thresholds and the
canonical :math:`E^{OPT}` are computed in exact rational arithmetic (``ε`` is
taken at its exact binary value; pass a ``fractions.Fraction`` such as
``Fraction(2, 3)`` for an exact rational level).

Examples
--------
>>> from bounds import rameshwar
>>> m = rameshwar.geometric(6)
>>> len(m), int(m.sum()), int(m.max())
(127, 448, 64)
>>> rameshwar.threshold(m, U=65, eps=0.5)
1040.0
>>> rameshwar.optimal_error(m, U=65, eps=0.5)  # (1560 + 2·520 + 1040/0.5) / 448
10.446428571428571
"""

from __future__ import annotations

import math
import numbers
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

if TYPE_CHECKING:
    from scipy import optimize

from .numerics import (
    MAX_ARRAY,
    MAX_COUNT,
    check_bool,
    check_array,
    check_choice,
    check_counts,
    check_integer,
    check_positive,
    check_real,
    check_rng,
    total,
)

__all__ = [
    "Clipping",
    "threshold",
    "clipping",
    "worst_case_error",
    "optimal_error",
    "eq12_as_printed",
    "lp_optimum",
    "LPResult",
    "sensitivities",
    "akmv_rank",
    "akmv_worst_case_error",
    "geometric",
    "extreme",
    "samples",
]


# =========================================================================== inputs


_MAX_LP_USERS = 20_000  # the linear programmes have 3L + 1 variables and 4L constraints
_MAX_SAMPLES = 10**8  # entries of a per-sample array (memory)
_MAX_USERS = 10**7  # entries of a per-user array built from L alone (memory)
_FLOAT_CAP = 1e300  # errors are multiples of U·Σm or T: below this they stay finite in float64 after the sums
_LP_TOLERANCE = 1e-10  # HiGHS feasibility tolerances; the tests compare LP and closed form to 1e-9


def _counts(m: ArrayLike) -> np.ndarray:
    """The collection ``m``: at most :data:`~bounds.numerics.MAX_ARRAY` users (the exact rational sums are per user)."""
    return check_counts("contribution counts m", m, max_size=MAX_ARRAY)


def _exact(name: str, value: float | Fraction) -> Fraction:
    """A positive, finite level or range end as an exact rational (``Fraction`` and integers kept exact)."""
    check_positive(name, value)
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    return Fraction(float(value))


def _U(U: float | Fraction, mm: np.ndarray) -> float:
    """``U`` as a float, refused where ``U · Σm`` leaves the float64 range (every error is a multiple of it)."""
    Uf = check_positive("U", U)
    if Uf * total(mm) > _FLOAT_CAP:
        raise ValueError(f"U = {U!r} times the {total(mm)} samples exceeds the float64 range")
    return Uf


def _level(eps: float | Fraction) -> float:
    """``eps`` as a float for the float64 paths, refused where ``1/eps`` overflows."""
    ef = check_positive("eps", eps)
    if math.isinf(1 / ef):
        raise ValueError(f"eps = {eps!r} is too small for the float64 path: 1/eps overflows")
    return ef


def _float(value: Fraction) -> float:
    """A non-negative exact value as a float, ``inf`` beyond the float64 range."""
    try:
        return float(value)
    except OverflowError:
        return math.inf


def _rank(eps: Fraction) -> int:
    """⌈2/ε⌉, exactly."""
    return math.ceil(2 / eps)


# =========================================================================== Theorem III.1


def threshold(m: ArrayLike, *, U: float | Fraction, eps: float | Fraction, exact: bool = False) -> float | Fraction:
    r"""The optimal clipping threshold :math:`T_\varepsilon` of Theorem III.1.

    .. math:: T_\varepsilon = \text{the } \lceil 2/\varepsilon \rceil\text{-th largest of } \{U m_1, \dots, U m_L\},
              \qquad T_\varepsilon = 0 \text{ if } \varepsilon < 2/L

    Source: Rameshwar and Tandon (2025), §III-B, before Theorem III.1.  The rank is
    computed exactly (``ceil(2/ε)`` in rational arithmetic), so an integral ``2/ε`` is
    not perturbed by rounding; ``ε < 2/L`` is exactly ``⌈2/ε⌉ > L``.

    Parameters
    ----------
    m : array of positive int
        Contribution counts :math:`m_\ell`.
    U : float
        Upper end of the samples' range :math:`(0, U]`.
    eps : float or Fraction
        The privacy level.
    exact : bool
        Return a ``Fraction`` instead of a float.

    Examples
    --------
    >>> threshold([1, 5, 3, 2], U=10, eps=1)  # ⌈2⌉ = 2nd largest of {10, 50, 30, 20}
    30.0
    >>> threshold([1, 5, 3, 2], U=10, eps=0.4)  # ε < 2/L
    0.0
    """
    mm = _counts(m)
    _U(U, mm)
    Ue, ee = _exact("U", U), _exact("eps", eps)
    rank = _rank(ee)
    t = Fraction(0) if rank > len(mm) else Ue * int(np.sort(mm)[::-1][rank - 1])
    return t if check_bool("exact", exact) else float(t)


@dataclass(frozen=True)
class Clipping:
    r"""Per-user clipping intervals :math:`[a_\ell, b_\ell]` (the same for all of a user's samples)."""

    a: np.ndarray
    b: np.ndarray
    threshold: float


def clipping(m: ArrayLike, *, U: float | Fraction, eps: float | Fraction) -> Clipping:
    r"""Theorem III.1's worst-case-optimal clipping.

    .. math:: a_\ell = \max\Big\{\frac{U m_\ell - T_\varepsilon}{2 m_\ell}, 0\Big\},\qquad
              b_\ell = \min\Big\{\frac{U m_\ell + T_\varepsilon}{2 m_\ell}, U\Big\}

    Source: Rameshwar and Tandon (2025), Theorem III.1.

    Examples
    --------
    >>> c = clipping([1, 4], U=10, eps=1)  # T = 2nd largest of {10, 40} = 10
    >>> c.a.tolist(), c.b.tolist()
    ([0.0, 3.75], [10.0, 6.25])
    """
    mm = _counts(m)
    T = threshold(mm, U=U, eps=eps, exact=True)
    Ue = _exact("U", U)
    a = [max((Ue * k - T) / (2 * k), Fraction(0)) for k in mm.tolist()]
    b = [min((Ue * k + T) / (2 * k), Ue) for k in mm.tolist()]
    return Clipping(np.array([float(v) for v in a]), np.array([float(v) for v in b]), float(T))


# =========================================================================== Lemma III.1


def _per_sample(v: ArrayLike, mm: np.ndarray, name: str) -> np.ndarray:
    """Expand per-user values (length L) or accept per-sample values (length Σm, users in order)."""
    arr = check_array(name, v)
    if arr.size == mm.size:
        return arr
    if arr.size == total(mm):
        return arr
    raise ValueError(f"{name} has {arr.size} entries: give one per user ({mm.size}) or one per sample ({total(mm)})")


def worst_case_error(m: ArrayLike, *, U: float | Fraction, eps: float | Fraction, a: ArrayLike | None = None, b: ArrayLike | None = None,
                     bias: str = "lemma") -> float:
    r"""Lemma III.1: the worst-case error of **any** clipping :math:`\{[a_j^{(\ell)}, b_j^{(\ell)}]\}`.

    .. math::

        E_{\bar f} = \frac{\sum_{\ell}\sum_{j \le m_\ell} \max\{a_j^{(\ell)}, U - b_j^{(\ell)}\}}{\sum_\ell m_\ell}
                   + \frac{\max_\ell \sum_{j \le m_\ell} (b_j^{(\ell)} - a_j^{(\ell)})}{\varepsilon \sum_\ell m_\ell}

    ``a`` and ``b`` are per-user (length ``L``) or per-sample (length ``Σm``, users in
    the order of ``m``) arrays with :math:`0 \le a \le b \le U`; by default Theorem III.1's
    clipping.

    ``bias="lemma"`` (default) is the bias term (5) as the lemma states it.  It is the
    true :math:`\max_{\mathcal D}|f - \bar f|` only when every sample's larger side agrees
    (e.g. symmetric clippings :math:`a + b = U`, Theorem III.1's among them); in general
    samples in :math:`(0, U]` give :math:`x - \Pi(x) \in (-a_j, U - b_j]`, so

    .. math:: \max_{\mathcal D} |f - \bar f| = \frac{\max\{\sum a_j,\ \sum (U - b_j)\}}{\sum_\ell m_\ell}
              \le \frac{\sum \max\{a_j, U - b_j\}}{\sum_\ell m_\ell},

    a supremum (approached as samples tend to 0) — ``bias="exact"``.  The optimum is
    unaffected: replacing :math:`a_\ell` by :math:`(a_\ell + U - b_\ell)/2` keeps each spread
    and does not raise :math:`\max\{A, B\}` (it becomes :math:`(A+B)/2`), so some symmetric
    clipping is optimal for both.

    Source: Rameshwar and Tandon (2025), Lemma III.1 (eqs. (5)–(6)).

    Examples
    --------
    >>> worst_case_error([1, 1], U=1, eps=1, a=[0, 0], b=[1, 1])  # no clipping: noise U/ε over Σm
    0.5
    >>> kw = dict(U=1, eps=1e6, a=[0.5, 0], b=[1, 0.5])  # asymmetric: the lemma overstates the bias
    >>> round(worst_case_error([1, 1], **kw), 6), round(worst_case_error([1, 1], bias="exact", **kw), 6)
    (0.5, 0.25)
    """
    mm = _counts(m)
    Uf, ef = _U(U, mm), check_positive("eps", eps)
    check_choice("bias", bias, ("lemma", "exact"))
    if (a is None) != (b is None):
        raise ValueError("give both a and b, or neither")
    if a is None or b is None:  # both, after the check above
        c = clipping(mm, U=U, eps=eps)
        a, b = c.a, c.b
    a_s, b_s = _per_sample(a, mm, "a"), _per_sample(b, mm, "b")
    if a_s.size != b_s.size:
        raise ValueError(f"a and b must both be per user or both per sample, got {a_s.size} and {b_s.size} entries")
    if np.any(a_s < 0) or np.any(b_s > Uf) or np.any(a_s > b_s):
        raise ValueError(f"clipping ends must satisfy 0 <= a <= b <= U = {Uf:g}")
    n_samples = total(mm)
    if a_s.size == mm.size:  # per user: weight each end by the user's count
        w = mm.astype(float)
        spread = float(np.max(w * (b_s - a_s)))
    else:
        w = np.ones(a_s.size)
        owner = np.repeat(np.arange(mm.size), mm)
        spread = float(np.bincount(owner, weights=b_s - a_s, minlength=mm.size).max())
    if bias == "lemma":
        bias_sum = math.fsum(w * np.maximum(a_s, Uf - b_s))
    else:
        bias_sum = max(math.fsum(w * a_s), math.fsum(w * (Uf - b_s)))
    return float(bias_sum / n_samples + spread / ef / n_samples)


def optimal_error(m: ArrayLike, *, U: float | Fraction, eps: float | Fraction, exact: bool = False) -> float | Fraction:
    r""":math:`E^{OPT}(\varepsilon)`: Lemma III.1 at Theorem III.1's clipping (the canonical value).

    With :math:`a_\ell + b_\ell = U`, each user's bias is :math:`m_\ell a_\ell` and its
    spread :math:`m_\ell(b_\ell - a_\ell) = \min(T_\varepsilon, U m_\ell)`, so

    .. math:: E^{OPT}(\varepsilon) = \frac{1}{\sum_\ell m_\ell}\Big(\sum_\ell \max\Big\{\frac{U m_\ell - T_\varepsilon}{2}, 0\Big\}
              + \frac{1}{\varepsilon}\max_\ell \min\{T_\varepsilon, U m_\ell\}\Big)

    Computed in exact rational arithmetic.  Eq. (12) as printed differs (the
    :math:`2m_\ell` denominator and :math:`\min_\ell`): see :func:`eq12_as_printed`.

    Source: Rameshwar and Tandon (2025), Lemma III.1 with Theorem III.1 (the canonical choice of ``docs/choices.md`` §4).

    Examples
    --------
    >>> optimal_error([1, 4], U=10, eps=1, exact=True)  # (0 + 15 + 10) / 5
    Fraction(5, 1)
    """
    mm = _counts(m)
    Ue, ee = _exact("U", U), _exact("eps", eps)
    T = threshold(mm, U=U, eps=eps, exact=True)
    # the users above T/U (m_l > floor(T/U), compared as integers) carry the bias; their sums in Python ints
    above = mm[mm > math.floor(T / Ue)] if math.floor(T / Ue) < int(mm.max()) else mm[:0]
    bias = (Ue * sum(above.tolist()) - T * len(above)) / 2
    spread = min(T, Ue * int(mm.max()))
    value = (bias + spread / ee) / sum(mm.tolist())
    return value if check_bool("exact", exact) else _float(value)


def eq12_as_printed(m: ArrayLike, *, U: float | Fraction, eps: float | Fraction,
                    exact: bool = False) -> float | Fraction:
    r"""Eq. (12) exactly as printed — for the audit; :func:`optimal_error` is the canonical value.

    .. math:: \frac{1}{\sum_\ell m_\ell}\Big(\sum_\ell \max\Big\{\frac{U m_\ell - T_\varepsilon}{2 m_\ell}, 0\Big\}
              + \frac{1}{\varepsilon}\min_\ell\{T_\varepsilon, U m_\ell\}\Big)

    Source: Rameshwar and Tandon (2025), eq. (12).

    Examples
    --------
    >>> eq12_as_printed([1, 4], U=10, eps=1, exact=True)  # (0 + 15/4 + 10) / 5
    Fraction(11, 4)
    """
    mm = _counts(m)
    Ue, ee = _exact("U", U), _exact("eps", eps)
    T = threshold(mm, U=U, eps=eps, exact=True)
    users = Counter(mm.tolist())
    bias = sum((n * max((Ue * k - T) / (2 * k), Fraction(0)) for k, n in users.items()), Fraction(0))
    value = (bias + min(min(T, Ue * k) for k in users) / ee) / sum(k * n for k, n in users.items())
    return value if check_bool("exact", exact) else _float(value)


# =========================================================================== the linear programme


@dataclass(frozen=True)
class LPResult:
    """The LP optimum ``value`` (a worst-case error), its per-user clipping ``a``, ``b`` and ``program``."""

    value: float
    a: np.ndarray
    b: np.ndarray
    program: str


def lp_optimum(m: ArrayLike, *, U: float | Fraction, eps: float | Fraction, program: str = "lemma") -> LPResult:
    r"""The minimal worst-case error by linear programming (HiGHS), independent of Theorem III.1.

    Every error is proportional to ``U``: the programme is solved at ``U = 1`` and scaled,
    so tiny or huge ``U`` keep the solver's relative accuracy.  At most 20,000 users;
    a programme the solver cannot solve (e.g. ``1/ε`` beyond its numeric range) raises
    ``ValueError``.

    ``program="lemma"`` minimises Lemma III.1 over all per-user clippings
    :math:`0 \le a_\ell \le b_\ell \le U` (per-sample clippings cannot do better: averaging
    a user's ends keeps the spread and, by convexity, does not raise the bias), with
    epigraph variables :math:`t_\ell \ge a_\ell,\ t_\ell \ge U - b_\ell` and
    :math:`R \ge m_\ell(b_\ell - a_\ell)`:

    .. math:: \min\ \frac{1}{\sum_\ell m_\ell}\Big(\sum_\ell m_\ell t_\ell + \frac{R}{\varepsilon}\Big)

    It needs neither Theorem III.1 nor Lemma III.2.  ``program="8"`` solves the paper's
    reduced programme (8) (symmetric clipping, Lemma III.2):

    .. math:: \min\ \sum_\ell \alpha_\ell + \frac{S}{\varepsilon}\quad \text{s.t.}\quad
              U m_\ell - 2\alpha_\ell \le S,\ \alpha_\ell \ge 0,\ S \ge 0

    Source: Rameshwar and Tandon (2025), Lemma III.1 and eq. (8).

    Examples
    --------
    >>> round(lp_optimum([1, 4], U=10, eps=1).value, 9)
    5.0
    >>> round(lp_optimum([1, 4], U=10, eps=1, program="8").value, 9)
    5.0
    """
    mm = _counts(m)
    Uf, ef = _U(U, mm), _level(eps)
    check_choice("program", program, ("lemma", "8"))
    L, n_samples = mm.size, float(total(mm))
    if L > _MAX_LP_USERS:
        raise ValueError(f"the linear programme is limited to {_MAX_LP_USERS} users, got L = {L}")
    from scipy import optimize, sparse  # the linear programme only: kept out of the command line's start-up

    opts = {"primal_feasibility_tolerance": _LP_TOLERANCE, "dual_feasibility_tolerance": _LP_TOLERANCE}
    col = sparse.csr_matrix(np.ones((L, 1)))
    if program == "8":
        # x = (α_1..α_L, S) of programme (8)
        c = np.append(np.ones(L), 1 / ef)
        A = sparse.hstack([-2 * sparse.eye(L), -col], format="csr")
        res = optimize.linprog(c, A_ub=A, b_ub=-mm.astype(float), bounds=[(0, None)] * (L + 1), method="highs",
                               options=opts)
        _check(res, U, eps)
        a = Uf * res.x[:L] / mm
        return LPResult(Uf * res.fun / n_samples, a, Uf - a, "8")
    # x = (a_1..a_L, b_1..b_L, t_1..t_L, R)
    c = np.concatenate([np.zeros(2 * L), mm.astype(float), [1 / ef]])
    eye = sparse.eye(L)
    zero = sparse.csr_matrix((L, L))
    diag = sparse.diags(mm.astype(float))
    rows = [
        sparse.hstack([eye, zero, -eye, 0 * col]),  # a - t <= 0
        sparse.hstack([zero, -eye, -eye, 0 * col]),  # -b - t <= -U
        sparse.hstack([-diag, diag, zero, -col]),  # m(b - a) - R <= 0
        sparse.hstack([eye, -eye, zero, 0 * col]),  # a - b <= 0
    ]
    A = sparse.vstack(rows, format="csr")
    rhs = np.concatenate([np.zeros(L), -np.ones(L), np.zeros(L), np.zeros(L)])
    bounds = [(0, 1)] * (2 * L) + [(0, None)] * (L + 1)
    res = optimize.linprog(c, A_ub=A, b_ub=rhs, bounds=bounds, method="highs", options=opts)
    _check(res, U, eps)
    return LPResult(Uf * res.fun / n_samples, Uf * res.x[:L], Uf * res.x[L : 2 * L], "lemma")


def _check(res: optimize.OptimizeResult, U: float | Fraction, eps: float | Fraction) -> None:
    """A programme the solver could not solve (the inputs are outside its numeric range) is a ValueError."""
    if res.status != 0 or not np.all(np.isfinite(res.x)):
        raise ValueError(f"the linear programme could not be solved at U = {U!r}, eps = {eps!r} "
                         f"(outside the solver's numeric range): {res.message}")


# =========================================================================== §IV


def sensitivities(m: ArrayLike, *, U: float | Fraction, eps: float | Fraction, T: float | None = None) -> dict[str, float]:
    r"""User-level sensitivities (14)–(15) of the three released statistics.

    .. math:: \Delta_f = \frac{U m^*}{\sum_\ell m_\ell},\quad
              \Delta_{f^*} = \frac{\max_\ell \sum_j (b_j^{(\ell)} - a_j^{(\ell)})}{\sum_\ell m_\ell},\quad
              \Delta_{\hat g_T} = \frac{T}{\sum_\ell m_\ell}

    with Theorem III.1's clipping in :math:`\Delta_{f^*}`; :math:`\Delta_{\hat g_T}` only
    when a threshold ``T`` is given.

    Source: Rameshwar and Tandon (2025), eqs. (14)–(15).

    Examples
    --------
    >>> sensitivities([1, 4], U=10, eps=1)
    {'vanilla': 8.0, 'opt_wc': 2.0}
    """
    mm = _counts(m)
    Uf = _U(U, mm)
    n_samples = float(total(mm))
    c = clipping(mm, U=U, eps=eps)
    out = {"vanilla": Uf * float(mm.max()) / n_samples, "opt_wc": float(np.max(mm * (c.b - c.a))) / n_samples}
    if T is not None:
        out["akmv"] = check_real("T", T, low=0) / n_samples
    return out


def akmv_rank(eps2: float | Fraction, *, rule: str = "section-IV-A") -> int:
    r"""The rank of the order statistic AKMV's threshold estimates (two readings of the paper).

    .. math:: \text{step 2 of §IV-A: } \lceil 1/\varepsilon'' \rceil, \qquad
              \text{paragraph after Fig. 1: } \lceil 2/\varepsilon'' \rceil

    ``rule="section-IV-A"`` (default) or ``"after-fig1"``; computed exactly.

    Source: Rameshwar and Tandon (2025), §IV-A step 2 and the paragraph that follows it.

    Examples
    --------
    >>> akmv_rank(0.25), akmv_rank(0.25, rule="after-fig1")
    (4, 8)
    """
    e = _exact("eps2", eps2)
    rule = check_choice("rule", rule, ("section-IV-A", "after-fig1"))
    return math.ceil((1 if rule == "section-IV-A" else 2) / e)


def akmv_worst_case_error(m: ArrayLike, *, U: float | Fraction, eps: float | Fraction, T: ArrayLike) -> float:
    r"""AKMV's error on the worst-case dataset (all samples ``U``) for a given threshold ``T``.

    .. math:: E_{AKMV}(T) = \frac{1}{\sum_\ell m_\ell}\sum_\ell \max\{0, U m_\ell - T\} + \frac{2T}{\varepsilon \sum_\ell m_\ell}

    The paper averages this over the private estimate of ``T`` (Monte Carlo).  A value
    beyond the float64 range is returned as ``inf``.

    Source: Rameshwar and Tandon (2025), §IV-C.

    Examples
    --------
    >>> akmv_worst_case_error([1, 4], U=10, eps=1, T=10)  # (0 + 30 + 20) / 5
    10.0
    """
    mm = _counts(m)
    Uf, ef = _U(U, mm), _level(eps)
    T = check_real("T", T, low=0) if np.ndim(T) == 0 else check_array("T", T, low=0)
    T = np.asarray(T, dtype=float)
    if np.any(T > _FLOAT_CAP):
        raise ValueError(f"T must be at most {_FLOAT_CAP:g} (float64 range), got {T.max()!r}")
    n_samples = float(total(mm))
    clip = np.maximum(0.0, Uf * mm[:, None] - T.reshape(1, -1)).sum(axis=0)
    with np.errstate(over="ignore"):  # an error beyond float64 (ε near 1e-308) is inf
        out = clip / n_samples + 2 * T.reshape(-1) / ef / n_samples
    return float(out[0]) if T.ndim == 0 else out.reshape(T.shape)


def geometric(M: int) -> np.ndarray:
    r"""The geometric collection: for :math:`i = 0..M`, :math:`2^i` users with :math:`2^{M-i}` samples.

    .. math:: L = 2^{M+1} - 1,\quad \sum_\ell m_\ell = (M+1)\,2^M,\quad m^* = 2^M

    Source: Rameshwar and Tandon (2025), §IV-B (the experiments use ``M = 6``).

    Examples
    --------
    >>> geometric(2).tolist()
    [4, 2, 2, 1, 1, 1, 1]
    """
    M = check_integer("M", M, minimum=0, maximum=22, why="the collection has 2**(M+1) - 1 users")
    return np.concatenate([np.full(2**i, 2 ** (M - i), dtype=np.int64) for i in range(M + 1)])


def extreme(L: int, m_star: int) -> np.ndarray:
    r"""The extreme-valued collection: :math:`L-1` users with one sample, one with :math:`m^*`.

    .. math:: \sum_\ell m_\ell = L - 1 + m^*

    Source: Rameshwar and Tandon (2025), §IV-B (Fig. 3: ``L = 101``, ``m* = 10``).

    Examples
    --------
    >>> extreme(4, 10).tolist()
    [1, 1, 1, 10]
    """
    L = check_integer("L", L, minimum=1, maximum=_MAX_USERS, why="one array entry per user")
    m_star = check_integer("m_star", m_star, minimum=2, maximum=MAX_COUNT)
    return np.append(np.ones(L - 1, dtype=np.int64), m_star)


def samples(m: ArrayLike, *, U: float, kind: str, rng: np.random.Generator | int | None,
            size: int | None = None) -> np.ndarray:
    r"""I.i.d. samples of §IV-B, ``Σm`` of them (users in the order of ``m``), ``size`` datasets.

    ``kind="uniform"``: :math:`\mathrm{Unif}((0, U])`; ``kind="gaussian"``:
    :math:`\mathcal N(U/2, U/4)` (variance :math:`U/4`) conditioned on :math:`(0, U]` — the
    law the paper's rejection sampler produces, drawn by inversion,
    :math:`x = U/2 + \sigma\,\Phi^{-1}(\Phi(a) + V(\Phi(b) - \Phi(a)))`, :math:`V` uniform.

    .. math:: x \sim \mathcal N(U/2, U/4) \,\big|\, x \in (0, U]

    Source: Rameshwar and Tandon (2025), §IV-B.

    Examples
    --------
    >>> x = samples([1, 2], U=65, kind="gaussian", rng=np.random.default_rng(0), size=3)
    >>> x.shape, bool(np.all((x > 0) & (x <= 65)))
    ((3, 3), True)
    """
    mm = _counts(m)
    Uf = check_real("U", U, low=0, low_open=True, high=_FLOAT_CAP)
    kind = check_choice("kind", kind, ("uniform", "gaussian"))
    rng = check_rng("rng", rng)
    shape = (total(mm),) if size is None else (check_integer("size", size, minimum=1), total(mm))
    if math.prod(shape) > _MAX_SAMPLES:
        raise ValueError(f"size times the {total(mm)} samples of m exceeds {_MAX_SAMPLES} draws (one call's limit)")
    if kind == "uniform":
        return Uf - rng.uniform(0.0, Uf, size=shape)  # (0, U]
    from scipy import special

    sd = math.sqrt(Uf / 4)  # gaussian
    lo = float(special.ndtr(-(Uf / 2) / sd))  # Φ(a), a = -(U/2)/σ; Φ(b) = 1 - Φ(a) by symmetry
    z = special.ndtri(lo + rng.random(shape) * (1 - 2 * lo))
    return np.clip(Uf / 2 + sd * z, np.nextafter(0.0, 1.0), Uf)


# =========================================================================== T_ε maps


def threshold_grid(collections: Sequence[ArrayLike] | np.ndarray, *, U: float | Fraction,
                   eps: ArrayLike | Fraction) -> np.ndarray:
    r"""Theorem III.1's :math:`T_\varepsilon` over (collection × ε), each collection sorted once.

    .. math:: T_{ij} = \text{the } \lceil 2/\varepsilon_j \rceil\text{-th largest of } U m^{(i)},
              \qquad 0 \text{ if } \varepsilon_j < 2/L_i

    Ranks are exact (rational ``⌈2/ε⌉``), as in :func:`threshold`; the values agree with it
    point by point.  Returns a float array of shape ``(len(collections), len(eps))``.

    Source: Rameshwar and Tandon (2025), §III-B, Theorem III.1.

    Examples
    --------
    >>> threshold_grid([[1, 5, 3, 2], [4]], U=10, eps=[0.4, 1, 2]).tolist()
    [[0.0, 30.0, 50.0], [0.0, 0.0, 40.0]]
    """
    if isinstance(collections, np.ndarray) and collections.ndim == 2:
        collections = list(collections)
    if not isinstance(collections, (list, tuple)) or len(collections) == 0:
        raise ValueError(f"collections must be a non-empty list of count arrays, got {collections!r}")
    eps_list = list(np.atleast_1d(np.asarray(eps, dtype=object)).ravel()) if not isinstance(eps, Fraction) else [eps]
    if not eps_list or (not isinstance(eps, Fraction) and np.ndim(eps) > 1):
        raise ValueError(f"eps must be a non-empty 1-D array, got {eps!r}")
    Ue = float(_exact("U", U))
    ranks = np.array([_rank(_exact("eps", e)) for e in eps_list], dtype=object)
    out = np.zeros((len(collections), len(eps_list)))
    for i, m in enumerate(collections):
        try:
            counts = _counts(m)
        except ValueError as exc:
            raise ValueError(f"collections[{i}]: {exc}") from None
        desc = np.sort(counts)[::-1]
        ok = np.array([r <= desc.size for r in ranks])
        idx = np.array([int(r) - 1 if o else 0 for r, o in zip(ranks, ok)], dtype=np.int64)
        out[i] = np.where(ok, Ue * desc[idx], 0.0)
    return out


__all__ += ["threshold_grid"]
