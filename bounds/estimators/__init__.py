r"""The estimators, one module per paper: pure functions on sufficient statistics.

Each function takes what the server or a user actually computes with — users' local
means or sums, their dataset sizes, a ``numpy.random.Generator`` — and each constant that
carries privacy or correctness (clip ends, Laplace scales, keep probabilities, ranks) is
written in exactly one function, which the Monte Carlo engine (:mod:`bounds.simulate`),
the audit and the tests all call.  ``rng`` is anything SPEC 7 allows: an int, a
``SeedSequence`` or a ``Generator`` (:func:`bounds.numerics.check_rng`).

Modules
-------
localisation
    What DAME and Kent share: bins, the vote for a bin and its neighbours, the enlarged interval.
dame
    Pla et al. (2024), Algorithm 1 (DAME).
kent
    Kent et al. (2024), the univariate procedure, eqs. (25)–(30).
duchi
    Duchi et al. (2018)'s ±B mechanism averaged by the server (the DAME paper's baseline).
cummings
    Cummings et al. (2022), the ideal estimator (3) and Algorithm 2.
rameshwar
    Rameshwar and Tandon (2025), §IV: Laplace, OPT-wc and AKMV.

Examples
--------
>>> from bounds.estimators import dame, localisation
>>> dame.laplace_scale(0.1, 1.0) == localisation.refinement_scale(0.1, 1.0)
True
"""

from . import cummings, dame, duchi, kent, localisation, rameshwar

__all__ = ["localisation", "dame", "kent", "duchi", "cummings", "rameshwar"]
