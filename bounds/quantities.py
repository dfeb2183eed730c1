r"""The quantities the package reports, each with one kind, in one table.

A number the package prints, writes to a CSV column or returns from ``bounds advise`` is one
of the entries of :data:`QUANTITIES`: its name (the key of its CSV column and JSON field), its
symbol, its **kind**, which side of the error it bounds, the error it measures and its source.
The command line, the CSV columns, ``bounds advise`` and the glossary read the kind from here,
so one quantity is called the same everywhere.

The kinds are :data:`KINDS`, each explained in :data:`KIND_MEANINGS` (the glossary prints
these words): a proven *bound*, a *rate* known up to constants, an *oracle* benchmark, a
*simulated* error and an *exact* value.

For example Cummings et al.'s Corollary 5.5 is a *lower rate*: a lower bound stated with
:math:`\tilde\Omega`, evaluated without its constants and polylogarithmic factors,

.. math:: \min\Big\{\frac{k^*/\varepsilon^2 + \sum_i k_i \wedge k^*}{\big(\sum_i k_i \wedge
          \sqrt{k_i k^*}\big)^2},\ \frac{\sigma_p^2}{n}\Big\}

Source: the four papers, as cited in each entry's ``source``; the kinds are the package's
(:doc:`/glossary`).

Examples
--------
>>> from bounds import quantities
>>> q = quantities.BY_NAME["cummings_lower"]
>>> q.kind, q.side, q.column, q.label
('rate', 'lower', 'cummings_lower_rate_variance', 'lower rate of the variance')
>>> [q.name for q in quantities.QUANTITIES if q.kind == "oracle"]
['cummings_variance', 'cummings_variance_2b2']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from bounds.references import CUMMINGS, DAME, KENT, RAMESHWAR

__all__ = ["KINDS", "KIND_MEANINGS", "SIDES", "Quantity", "QUANTITIES", "BY_NAME"]

KINDS: tuple[str, ...] = ("bound", "rate", "oracle", "simulated", "exact")
"""The kinds of reported numbers, from a proven bound to an exact value."""

KIND_MEANINGS: dict[str, str] = {
    "bound": "A number a paper proves about the error: the error of the best estimator is at most an upper "
             "bound (UB) and at least a lower bound (LB).  A guarantee only with the paper's own constants; "
             "with unit constants it shows the shape of a curve, and an upper bound can then fall below the "
             "lower one.",
    "rate": "A bound known only up to unknown absolute constants or polylogarithmic factors, evaluated with "
            "the constants set to 1: an order of magnitude, never compared with an error.",
    "oracle": "The exact error of an idealised estimator that uses something a real one does not know (such "
              "as the mean its clipping is centred on): a benchmark, not an achievable error.",
    "simulated": "An error measured by Monte Carlo over replications of a private estimator, printed with "
                 "its standard error.",
    "exact": "A number computed exactly from its definition (a worst case in closed form, an optimal "
             "threshold, an integer maximiser): no constant is missing and no sampling error is left.",
}
"""What each kind of :data:`KINDS` means, in the words the glossary prints."""

SIDES: tuple[str, ...] = ("upper", "lower", "")
"""Which side of the error a bound or rate is on: a bound has one, a rate may (a phase transition
has none), any other kind has none (empty)."""


@dataclass(frozen=True)
class Quantity:
    r"""One reported quantity: its name, symbol, kind, side, metric, estimand and source.

    ``name`` is the identifier the package uses for it; ``column`` (name, kind and metric) is
    the key of its CSV column and JSON field, and ``label`` the words the command line prints
    (``"upper bound of the MSE"``, ``"lower rate of the variance"``).  ``metric`` is the error it
    measures (``"MSE"``, ``"variance"``, ``"E|error|"``, ...; empty for a parameter such as
    :math:`T^*`); ``estimand`` says in words what it is.

    Source: :data:`QUANTITIES` (each entry's ``source``).

    Examples
    --------
    >>> q = Quantity("x_upper", "UB", "bound", "upper", "MSE", "an example", "nowhere")
    >>> q.label, q.column
    ('upper bound of the MSE', 'x_upper_bound_mse')
    >>> Quantity("t", "T", "exact", "", "", "a threshold", "nowhere").label
    'exact'
    """

    name: str
    symbol: str
    kind: str
    side: str
    metric: str
    estimand: str
    source: str

    @property
    def label(self) -> str:
        """The words the command line prints: ``"upper bound of the MSE"``, ``"lower rate of the
        variance"``, ``"oracle variance"``, ``"simulated MSE"``; ``"exact"`` for a parameter."""
        if self.kind in ("bound", "rate") and self.side:
            return f"{self.side} {self.kind} of the {self.metric}" if self.metric else f"{self.side} {self.kind}"
        return f"{self.kind} {self.metric}" if self.metric else self.kind

    @property
    def column(self) -> str:
        """The CSV column and JSON key: the name, then the kind and the metric unless the name
        already says them (``"dame_upper_bound_mse"``, ``"simulated_mse"``); a parameter's name alone."""
        if not self.metric:
            return self.name
        metric = {"E|error|": "abs_error"}.get(self.metric, self.metric.lower())
        parts = self.name.split("_")
        return "_".join([self.name] + [w for w in (self.kind, metric) if w not in parts and w not in self.name])


_PRD, _KBY, _CFMT, _RT = (paper.cite() for paper in (DAME, KENT, CUMMINGS, RAMESHWAR))

QUANTITIES: tuple[Quantity, ...] = (
    # DAME, local model
    Quantity("dame_upper", "UB", "bound", "upper", "MSE",
             "worst-case MSE over means in [−1, 1] of DAME, an α-LDP estimator", f"{_PRD}, Theorem 2"),
    Quantity("dame_lower", "LB", "bound", "lower", "MSE",
             "minimax MSE of user-level α-LDP mean estimation under the size law M", f"{_PRD}, Theorem 1"),
    Quantity("dame_m_tilde", "m̃", "exact", "", "",
             "samples per user DAME uses (Theorem 2's truncation level)", f"{_PRD}, Theorem 2"),
    # Kent et al., local model
    Quantity("kent_upper", "upper rate", "rate", "upper", "MSE",
             "risk of Kent et al.'s procedure, up to constants (squared L² error for densities)", f"{_KBY}, Theorems 6, 8, 9"),
    Quantity("kent_lower", "lower rate", "rate", "lower", "MSE",
             "minimax risk with T samples per user, up to constants (squared L² error for densities)",
             f"{_KBY}, Theorems 6, 8, 9"),
    Quantity("kent_item_level", "item-level rate", "rate", "lower", "MSE",
             "minimax risk of item-level LDP with nT users, up to constants", f"{_KBY}, Tables 2–4"),
    Quantity("kent_t_dagger", "T†", "rate", "", "",
             "the T at which a rate's two terms are equal (inherits the rate's unit constants)",
             f"{_KBY}, as reconstructed in docs/kent.md §5, §8, §9"),
    # Duchi et al.'s one-report baseline
    Quantity("duchi_worst_case", "B²/n", "exact", "", "MSE",
             "worst-case MSE of Duchi et al.'s ±B estimator with one report per user",
             "Duchi et al. (2018); Pla et al. (2024), §4.2"),
    # Cummings et al., central model
    Quantity("cummings_variance", "Var(ideal)", "oracle", "", "variance",
             "variance (= MSE) at T* of the ideal estimator, whose clipping intervals are centred at the unknown "
             "mean; eq. (5) as printed", f"{_CFMT}, eq. (5)"),
    Quantity("cummings_variance_2b2", "Var(ideal), 2b²", "oracle", "", "variance",
             "the same with the Laplace variance written 2b²", f"{_CFMT}, eq. (5)"),
    Quantity("cummings_lower", "Corollary 5.5", "rate", "lower", "variance",
             "minimax variance (= MSE) of unbiased user-level ε-DP estimators, without constants and polylog factors",
             f"{_CFMT}, Corollary 5.5"),
    Quantity("cummings_t_star", "T*", "exact", "", "",
             "the truncation of the weights minimising eq. (6)", f"{_CFMT}, eq. (6)"),
    Quantity("cummings_k_star", "k*", "exact", "", "",
             "the integer at which Corollary 5.5 is evaluated", f"{_CFMT}, Corollary 5.5"),
    Quantity("cummings_example1", "Example 1", "exact", "", "sd",
             "Example 1's four standard deviations and Laplace scales, summed exactly", f"{_CFMT}, Example 1"),
    # Rameshwar and Tandon, central model
    Quantity("rameshwar_e_opt", "E^OPT", "bound", "upper", "E|error|",
             "worst-case expected absolute error of the optimal clipping (Lemma III.1 at Theorem III.1)",
             f"{_RT}, Lemma III.1, Theorem III.1"),
    Quantity("rameshwar_lp", "LP optimum", "exact", "", "E|error|",
             "optimum of the linear programme over all per-user clippings (a cross-check of E^OPT)", f"{_RT}, eq. (8)"),
    Quantity("rameshwar_eq12", "eq. (12)", "bound", "upper", "E|error|",
             "eq. (12) as printed, which differs from E^OPT", f"{_RT}, eq. (12)"),
    Quantity("rameshwar_threshold", "T_ε", "exact", "", "",
             "the worst-case-optimal clipping threshold", f"{_RT}, Theorem III.1"),
    # Monte Carlo
    Quantity("simulated_mse", "MSE", "simulated", "", "MSE",
             "MSE of a private estimator at a given mean, over replications, with its standard error",
             "bounds.simulate"),
    Quantity("simulated_abs_error", "E|error|", "simulated", "", "E|error|",
             "expected absolute error of a private estimator on given data, over replications, with its "
             "standard error", "bounds.simulate"),
)
"""Every reported quantity, once: the command line, CSV columns, ``bounds advise`` and the glossary read it."""

BY_NAME: Mapping[str, Quantity] = MappingProxyType({q.name: q for q in QUANTITIES})
"""The entries of :data:`QUANTITIES` by name (read-only): ``BY_NAME["dame_upper"].label``."""
