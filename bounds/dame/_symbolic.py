r"""DAME's formulas as sympy expressions, and the asymptotic rates (13)–(14) lambdified from them.

sympy is imported when a function here is first called, never at ``import bounds.dame``.

Source: Pla et al. (2024), eqs. (4), (10)–(14).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

import numpy as np
from numpy.typing import ArrayLike

from ..sizes import SizeLaw
from ._inputs import _law, _n_alpha2_array


@lru_cache(maxsize=None)
def symbolic() -> dict:
    r"""The paper's formulas as sympy expressions, keyed by name.

    Symbols: ``x`` (:math:`n\alpha^2`), ``a``, ``m_t`` (:math:`\tilde m`), ``P`` (a
    probability), ``S`` (a truncated moment), ``E`` (:math:`E\sqrt m`), ``c1..c5``.

    .. math::

        \text{lower\_term} = \frac{c_1 e^{-c_2 x P^2}}{\max(x S^2, 1)},\quad
        \varphi = \frac{c_5}{x}\log\frac{y}{\log y},\quad
        \text{upper} = \min\!\Big(\frac{c_3\ln(c_4\max(\sqrt{\tilde m x}, 1))}{x S^2}, 4\Big),

        \tau = \sqrt{2\log(8\max(\sqrt{\tilde m x},1))/\tilde m},\quad
        \text{rate\_13} = \frac{1}{x E^2},\quad \text{rate\_14} = \frac{\log x}{x E^2}

    Source: Pla et al. (2024), eqs. (4), (10), (11), (12), (13), (14).

    Examples
    --------
    >>> symbolic()["rate_14"]
    log(x)/(E**2*x)
    """
    import sympy as sp  # here, not at import: evaluating a bound never needs sympy

    x, a, m_t, P, S, E = sp.symbols("x a m_t P S E", positive=True)
    c1, c2, c3, c4, c5 = sp.symbols("c1:6", positive=True)
    y = c4 * sp.Max(a * x, 1)
    return {
        "lower_term": c1 * sp.exp(-c2 * x * P**2) / sp.Max(x * S**2, 1),
        "phi": c5 / x * sp.log(y / sp.log(y)),
        "upper": sp.Min(c3 * sp.log(c4 * sp.Max(sp.sqrt(m_t * x), 1)) / (x * S**2), 4),
        "tau": sp.sqrt(2 * sp.log(8 * sp.Max(sp.sqrt(m_t * x), 1)) / m_t),
        "rate_13": 1 / (x * E**2),
        "rate_14": sp.log(x) / (x * E**2),
    }


@lru_cache(maxsize=None)
def _rates_numeric() -> Callable[..., list[Any]]:
    import sympy as sp

    x, E = sp.symbols("x E", positive=True)
    f = symbolic()
    return sp.lambdify((x, E), [f["rate_13"], f["rate_14"]], "numpy")


def asymptotic_rates(sizes: SizeLaw, *, n_alpha2: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    r"""The asymptotic rates (13) and (14) (without constants) along ``n_alpha2``.

    .. math:: \text{(13)}\ \frac{1}{n\alpha^2 E[\sqrt m]^2}, \qquad
              \text{(14)}\ \frac{\log(n\alpha^2)}{n\alpha^2 E[\sqrt m]^2}

    Beyond the float range the rates are ``inf`` (``n_alpha2`` near 5e-324) or ``0`` (from about
    1e308 on, where :math:`n\alpha^2 E[\sqrt m]^2` overflows), without warnings.

    Source: Pla et al. (2024), eqs. (13)–(14) (lambdified once from :func:`symbolic`).

    Examples
    --------
    >>> from bounds import sizes
    >>> lo, up = asymptotic_rates(sizes.point(4), n_alpha2=[1.0, 100.0])
    >>> lo.tolist()
    [0.25, 0.0025]
    """
    law = _law(sizes)
    xs = _n_alpha2_array(n_alpha2)
    with np.errstate(over="ignore", divide="ignore"):  # beyond the float range: +inf or 0, as the rates are
        r13, r14 = _rates_numeric()(xs, float(law.sqrt_mean()))
    return np.asarray(r13, dtype=float), np.asarray(r14, dtype=float)
