r"""The laws of a search's rows: Theorem 1's searches over several laws at once (:func:`bounds.dame.grid`).

Each row of a search (one budget :math:`n\alpha^2`) has its own law.  The searches decide everything per
row; only the functionals :math:`\log P(m > a)` and :math:`\log E[\sqrt m\,\mathbb 1\{m \le a\}]` depend
on the law.  :class:`Rows` asks each law for them with exactly the points, in the same order, that a
search of that law alone asks for at the same step (the rows of one law advance as they would alone),
so every value is the single-law search's, bit for bit, even for laws whose answer at a point depends on
the other points asked with it (the clustered walks of a bulk).  A regime map of a hundred laws then
pays a search step's fixed cost once, not once per law.

Source: the exact searches of Pla et al. (2024), Theorem 1, eq. (10).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from ..numerics import sorted_unique
from ..sizes import SizeLaw


MAX_ROWS = 2**15
"""Most rows one search of several laws holds (a law's rows are never split: one law may hold more)."""


def batches(lid: np.ndarray, n_laws: int) -> list[np.ndarray]:
    r"""The laws ``0, …, n_laws - 1`` in consecutive groups of at most :data:`MAX_ROWS` rows (``lid[i]``: the law of
    row ``i``), a law's rows never split: memory and the searches' work limit stay those of one law's search.

    .. math:: \{0, \dots, L - 1\} = G_1 \cup \dots \cup G_k,\qquad \sum_{j \in G_i} |\{i : \mathrm{lid}_i = j\}|
              \le \text{MAX\_ROWS} \ \text{or}\ |G_i| = 1

    Source: the exact searches of Pla et al. (2024), Theorem 1 (their work per call).

    Examples
    --------
    >>> [g.tolist() for g in batches(np.repeat(np.arange(3), [20000, 20000, 5]), 3)]
    [[0], [1, 2]]
    """
    counts = np.bincount(lid, minlength=n_laws)
    ends = []  # each group's last law
    size = 0
    for j, k in enumerate(counts.tolist()):
        if size and size + k > MAX_ROWS:
            ends.append(j - 1)
            size = 0
        size += k
    return np.split(np.arange(n_laws), np.asarray(ends, dtype=np.intp) + 1)


class Rows:
    r"""``laws[lid[i]]`` is the law of row ``i``; one law (``lid`` all 0) is the plain single-law search.

    At a precision (one law) the pairs :math:`(\log P(m > a), \log S(a))` are remembered per point.

    .. math:: (\log P_{j}(m > a),\ \log E_{j}[\sqrt m\,\mathbb 1\{m \le a\}]), \quad j = \mathrm{lid}_i

    Source: Pla et al. (2024), eq. (10) (its two functionals).

    Examples
    --------
    >>> from bounds import sizes
    >>> rows = Rows((sizes.point(4), sizes.point(9)), np.array([0, 1, 1]))
    >>> rows.call("floor_support", np.array([0, 1, 2]), np.array([5, 5, 10])).tolist()
    [4, 0, 9]
    >>> rows.of(lambda law: law.support_min).tolist()
    [4, 9, 9]
    """

    def __init__(self, laws: Sequence[SizeLaw], lid: np.ndarray, precision: int | None = None) -> None:
        self.laws = tuple(laws)
        self.lid = np.asarray(lid, dtype=np.intp)
        self.precision = precision
        if precision is not None and len(self.laws) != 1:
            raise ValueError("a search at a precision has one law")
        self._cache: dict = {}
        self._key = np.int16 if len(self.laws) < 2**15 else np.intp  # a law's index: small integers sort fastest
        self._stack = None
        if len(self.laws) > 1 and precision is None:
            # laws of one class with closed forms: their functionals in one pass over all rows (bit for bit each
            # law's); a window view (a table read by index) is asked law by law
            kinds = {type(law) for law in self.laws}
            stack_of = getattr(kinds.pop(), "_stack_of", None) if len(kinds) == 1 else None
            self._stack = stack_of(self.laws) if stack_of is not None else None

    def of(self, value: Callable[[SizeLaw], Any], rows: np.ndarray | None = None) -> np.ndarray:
        """``value(law)`` per row (of ``rows``, or of every row), computed once for each law those rows have."""
        lid = self.lid if rows is None else self.lid[rows]
        if len(self.laws) == 1:
            return np.repeat(np.asarray([value(self.laws[0])]), len(lid))
        present, where = np.unique(lid, return_inverse=True)
        return np.asarray([value(self.laws[j]) for j in present])[where] if present.size else np.zeros(0)

    def each(self, value: Callable[[SizeLaw], Any]) -> Any:
        """``value(law)`` for every row: the one value when there is one law (it broadcasts), else :meth:`of`."""
        return value(self.laws[0]) if len(self.laws) == 1 else self.of(value)

    def _groups(self, rows: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """``(law, positions)``: the positions of ``rows`` of each law, in their order."""
        lid = self.lid[rows]
        order = np.argsort(lid, kind="stable")
        cuts = np.flatnonzero(np.diff(lid[order])) + 1
        return [(int(lid[g[0]]), g) for g in np.split(order, cuts) if g.size]

    def call(self, name: str, rows: np.ndarray, a: np.ndarray, **kwargs: Any) -> np.ndarray:
        """``law.name(a[k])`` with the law of row ``rows[k]``: each law asked once, for its points in order."""
        if len(self.laws) == 1:
            return np.asarray(getattr(self.laws[0], name)(a, **kwargs))
        if self._stack is not None and name in self._stack.names:
            return self._stack.query(name, self.lid[rows], a)
        out: np.ndarray | None = None
        for j, pos in self._groups(rows):
            vals = np.asarray(getattr(self.laws[j], name)(a[pos], **kwargs))
            if out is None:
                out = np.empty(len(a), dtype=vals.dtype)
            out[pos] = vals
        return np.zeros(0) if out is None else out

    def _pair(self, j: int, a: np.ndarray) -> tuple[Any, Any]:
        law, precision = self.laws[j], self.precision
        if precision is None:
            return law.log_prob_gt(a, precision=None), law.log_partial_sqrt_mean(a, precision=None)
        cache = self._cache
        new = sorted({int(v) for v in a} - cache.keys())
        if new:
            arr = np.asarray(new, dtype=np.int64)
            for k, u, v in zip(new, law.log_prob_gt(arr, precision=precision),
                               law.log_partial_sqrt_mean(arr, precision=precision)):
                cache[k] = (u, v)
        return (np.asarray([cache[int(v)][0] for v in a], dtype=object),
                np.asarray([cache[int(v)][1] for v in a], dtype=object))

    def parts(self, rows: np.ndarray, a: np.ndarray) -> tuple[Any, Any]:
        r""":math:`(\log P(m > a_k), \log S(a_k))` for the law of row ``rows[k]``, each law asked for its points in order."""
        if len(self.laws) == 1:
            return self._pair(0, a)
        if self._stack is not None:
            g = self.lid[rows]
            return self._stack.query("log_prob_gt", g, a), self._stack.query("log_partial_sqrt_mean", g, a)
        lp, ls = np.empty(len(a)), np.empty(len(a))
        for j, pos in self._groups(rows):
            lp[pos], ls[pos] = self._pair(j, a[pos])
        return lp, ls

    def parts_distinct(self, rows: np.ndarray, a: np.ndarray) -> tuple[Any, Any]:
        """:meth:`parts`, each law asked once per distinct point, in increasing order."""
        if len(self.laws) == 1:
            pts = sorted_unique(a)
            pp, ss = self._pair(0, pts)
            idx = np.searchsorted(pts, a)
            return pp[idx], ss[idx]
        if not len(a):
            return np.zeros(0), np.zeros(0)
        lid = self.lid[rows]
        order = np.argsort(a)  # by law, then by point: a stable sort of small integers is a radix sort
        order = order[np.argsort(lid[order].astype(self._key), kind="stable")]
        sa, sl = a[order], lid[order]
        new = np.ones(len(a), dtype=bool)
        new[1:] = (sa[1:] != sa[:-1]) | (sl[1:] != sl[:-1])
        first = np.flatnonzero(new)
        ua, ul = sa[first], sl[first]
        if self._stack is not None:
            up, us = self._stack.query("log_prob_gt", ul, ua), self._stack.query("log_partial_sqrt_mean", ul, ua)
        else:
            up, us = np.empty(len(ua)), np.empty(len(ua))
            for seg in np.split(np.arange(len(ua)), np.flatnonzero(np.diff(ul)) + 1):
                up[seg], us[seg] = self._pair(int(ul[seg[0]]), ua[seg])
        inv = np.empty(len(a), dtype=np.intp)
        inv[order] = np.cumsum(new) - 1
        return up[inv], us[inv]
