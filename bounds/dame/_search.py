r"""The integer searches behind :math:`\tilde m` and Theorem 1's first reaching point: the last point of
a monotone predicate, ``ways - 1`` probes per bracket in each call of the predicate.

A call of a law's query costs far more than one more point in it, so the float path probes 15 points
per bracket at once (16 ways) and needs about :math:`\log_{16}` as many calls as a bisection; the
mpmath path, where each point costs its own evaluation, probes one (2 ways: doubling, then bisection).

Source: exact search over the integers for the optima of Pla et al. (2024), Theorems 1–2.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

WAYS = 16
"""Ways of the float path's searches: 15 probes per bracket and call."""

Pred = Callable[[np.ndarray, np.ndarray], np.ndarray]


def int_min(top: np.ndarray, cap: Any) -> np.ndarray:
    r""":math:`\min(\text{top}, \text{cap})` as int64, exact: ``top`` a float array (integers, or ``inf``), ``cap``
    integers up to :math:`2^{62}`, one or one per entry (a float64 minimum would round a ``cap`` past :math:`2^{53}`).

    .. math:: \min(t, c) \in \mathbb Z, \qquad c \le 2^{62}

    Examples
    --------
    >>> int_min(np.array([5.0, np.inf, 2.0**61]), 2**60 + 1).tolist()
    [5, 1152921504606846977, 1152921504606846977]
    """
    top = np.asarray(top)
    if np.ndim(cap) == 0 and float(cap) == int(cap):  # the cap is a float64: the plain minimum is exact
        return np.minimum(top, float(cap)).astype(np.int64)
    cap = np.broadcast_to(np.asarray(cap, dtype=np.int64), top.shape)
    out = cap.copy()
    below = top < 2.0**62  # converts exactly to int64
    out[below] = np.minimum(top[below].astype(np.int64), cap[below])
    return out


def _ask(pred: Pred, active: np.ndarray, probes: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """How many leading probes of each row hold: ``pred`` on the valid probes, row ``active[i]`` for row ``i``."""
    ok = np.zeros(probes.shape, dtype=bool)
    ok[valid] = np.asarray(pred(probes[valid], np.broadcast_to(active[:, None], probes.shape)[valid]), dtype=bool)
    return np.cumprod(ok, axis=1).sum(axis=1)  # up to the first probe that fails (a monotone predicate)


def last_true(pred: Pred, good: np.ndarray, top: np.ndarray, ways: int = WAYS) -> np.ndarray:
    r"""Per row, the last ``a`` in ``[good, top]`` where ``pred`` holds, for ``pred`` true at ``good`` and
    monotone (true, then false) on the bracket: ``pred(a, idx)`` answers at the points ``a`` of rows ``idx``.

    .. math:: a^* = \max\{a \in [g, t] : \mathrm{pred}(b)\ \forall\, g \le b \le a\}

    First galloping: probes at :math:`g \cdot 2^j`, :math:`j = 1, \dots, w - 1` (capped at ``top``),
    until one fails; then :math:`w`-ary narrowing: a bracket of width :math:`d` is probed at
    :math:`g + k \lceil d/w \rceil`, leaving a width below :math:`\lceil d / w\rceil`.  The work grows
    with the answer, not with ``top``: about :math:`\log_w(a^*) + 1` calls of ``pred``.  No int64
    overflow for ends up to :math:`2^{62}`.  ``good >= 1`` where the bracket is open.

    Examples
    --------
    >>> last_true(lambda a, idx: a * a <= 50 * (idx + 1), np.array([1, 1]), np.array([10**6, 10**6])).tolist()
    [7, 10]
    """
    good, top = np.array(good, dtype=np.int64), np.array(top, dtype=np.int64)
    j = np.arange(1, ways, dtype=np.int64)
    active = np.flatnonzero(good < top)
    while active.size:  # galloping: doubling probes, capped at top
        g, t = np.maximum(good[active], 1)[:, None], top[active][:, None]
        probes = np.where(g <= t >> j, g << j, t)
        valid = np.ones(probes.shape, dtype=bool)
        valid[:, 1:] = probes[:, :-1] < t  # the first probe at top is the last
        held = _ask(pred, active, probes, valid)
        n_valid = valid.sum(axis=1)
        rows = np.arange(active.size)
        at = np.flatnonzero(held > 0)
        good[active[at]] = probes[at, held[at] - 1]
        failed = held < n_valid
        top[active[failed]] = probes[rows[failed], held[failed]] - 1
        active = active[~failed & (good[active] < top[active])]
    active = np.flatnonzero(good < top)
    k = np.arange(1, ways, dtype=np.int64)
    while active.size:  # narrowing: w - 1 evenly spaced probes inside each bracket
        g, t = good[active], top[active]
        step = -(-(t - g) // ways)
        probes = g[:, None] + step[:, None] * k
        valid = probes <= t[:, None]
        held = _ask(pred, active, probes, valid)
        good[active] = g + step * held
        failed = held < valid.sum(axis=1)  # else every probe held: the answer lies past the last one
        top[active[failed]] = (g + step * (held + 1) - 1)[failed]
        active = active[good[active] < top[active]]
    return good
