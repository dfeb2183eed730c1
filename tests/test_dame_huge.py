"""Theorem 2's effective size with atoms past 2**53 (``bounds.dame.m_tilde``), against an mpmath reference.

The reference reads the definition directly (Pla et al. 2024, Theorem 2, eq. (12)): for atoms
:math:`k_1 < \\dots < k_n` with exact rational masses, :math:`P(m \\ge a) = S_i` on :math:`(k_{i-1}, k_i]`,
and :math:`\\tilde m` is the largest integer :math:`a` with :math:`S_i^2 \\ge \\varphi(a) \\wedge 1` (the
printed reading; without the ``∧ 1`` for ``reading="proof"``, and at least 1).  On each interval
:math:`\\varphi` is evaluated at 60 digits; where :math:`y = c_4 a x \\ge e` it increases, so the condition
holds on a prefix of the interval and a bisection over the integers finds its end; the few points
with :math:`y < e` are checked one by one.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from bounds import dame, sizes

PRESETS = {"paper": (8, mpmath.mpf(1737) / 2), "unit": (1, 1)}  # (c4, c5), Pla et al. (S146)


def _phi(a: int, x, c4, c5):
    y = c4 * max(a * x, 1)
    ly = mpmath.log(y)
    return mpmath.inf if ly <= 0 else c5 / x * (ly - mpmath.log(ly))


def _reference(atoms: dict[int, Fraction], x_float: float, preset: str, reading: str) -> int:
    c4, c5 = PRESETS[preset]
    capped = reading == "printed"
    with mpmath.workdps(60):
        x = mpmath.mpf(x_float)

        def holds(a: int, s2) -> bool:
            ph = _phi(a, x, c4, c5)
            return s2 >= (min(ph, 1) if capped else ph)

        best, prev, surv = 1, 0, Fraction(1)
        for k in sorted(atoms):
            s2 = mpmath.mpf(surv.numerator) ** 2 / mpmath.mpf(surv.denominator) ** 2
            lo, hi = prev + 1, k
            small = [a for a in range(lo, min(hi, lo + 64) + 1) if c4 * a * x < mpmath.e]  # y < e: one by one
            for a in small:
                if holds(a, s2):
                    best = max(best, a)
            lo = max(lo, (small[-1] + 1) if small else lo)
            if lo <= hi and holds(lo, s2):  # phi increasing on [lo, hi]: the condition holds on a prefix
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    lo, hi = (mid, hi) if holds(mid, s2) else (lo, mid - 1)
                best = max(best, lo)
            surv -= atoms[k]
            prev = k
        return best


ATOMS = [2**53 + 1, 2**53 + 3, 2**60 + 1, 2**62 - 1, 2**62]
BUDGETS = [0.1405, 1e-3, 10.0, 1e6]


@pytest.mark.parametrize("preset", ["paper", "unit"])
@pytest.mark.parametrize("m", ATOMS)
def test_m_tilde_of_a_point_past_2_53_is_the_atom(m, preset):
    """P(m >= a) = 1 up to the atom: the printed condition holds there at every budget; float and precision."""
    law = sizes.point(m)
    for x in BUDGETS:
        assert _reference({m: Fraction(1)}, x, preset, "printed") == m
        assert dame.m_tilde(law, n_alpha2=x, constants=preset) == m, x
        assert dame.upper_bound(law, n_alpha2=x, constants=preset).m_tilde == m, x
    assert dame.upper_bound(law, n_alpha2=0.1405, constants=preset, precision=40).m_tilde == m


LAWS = [
    {2**53 + 1: Fraction(1, 2), 2**53 + 7: Fraction(1, 2)},
    {3: Fraction(1, 4), 2**53 + 1: Fraction(3, 4)},
    {2**54 + 3: Fraction(999, 1000), 2**62 - 1: Fraction(1, 1000)},
    {5: Fraction(1, 10**6), 2**55 + 1: Fraction(10**6 - 1, 10**6)},
]


@pytest.mark.parametrize("reading", ["printed", "proof"])
@pytest.mark.parametrize("preset", ["paper", "unit"])
@pytest.mark.parametrize("atoms", LAWS, ids=range(len(LAWS)))
def test_m_tilde_with_atoms_past_2_53_against_the_definition(atoms, preset, reading):
    law = sizes.finite(atoms)  # exact rational masses, as the reference reads them
    exact = atoms
    for x in BUDGETS + [5.3e7, 5.4e10, 1e12]:  # 5.3e7 (unit), 5.4e10 (paper): m~ inside (2**54 + 3, 2**62 - 1)
        want = _reference(exact, x, preset, reading)
        assert dame.m_tilde(law, n_alpha2=x, constants=preset, reading=reading) == want, x


# ---------------------------------------------------------------------------- wide binomials (bulk engine)
WIDE = [(10**11, 3e-4), (9 * 10**11, 4e-5)]


def _condition_reference(N: int, p: float, a: int, x: float, preset: str = "paper") -> tuple[bool, float]:
    """(P(m >= a)^2 >= phi(a) ∧ 1, log-margin), P from scipy's binomial survival function (not the engine)."""
    from scipy import stats

    c4, c5 = PRESETS[preset]
    with mpmath.workdps(40):
        s = mpmath.mpf(stats.binom.sf(a - 1, N, p)) / -mpmath.expm1(N * mpmath.log1p(-mpmath.mpf(p)))
        ph = min(_phi(a, mpmath.mpf(x), c4, c5), 1)
        return bool(s**2 >= ph), float(abs(2 * mpmath.log(s) - mpmath.log(ph)))


@pytest.mark.parametrize("N, p", WIDE)
def test_m_tilde_of_wide_binomials(N, p):
    """Answered (the window used to ask the engine for 117,000 points): at nα² = 1 the ∧ 1 regime (m~ = 1), at
    1e8 a point where the condition holds and fails one step later, by scipy's survival function."""
    law = sizes.binomial(N, p)
    assert dame.m_tilde(law, n_alpha2=1.0) == 1
    with mpmath.workdps(30):  # phi(2) >= 1: the condition at 2 is P(m >= 2) = 1, false (P(m = 1) > 0)
        assert _phi(2, mpmath.mpf(1.0), *PRESETS["paper"]) >= 1
    mt = dame.m_tilde(law, n_alpha2=1e8)
    assert abs(mt - N * p) < 5 * math.sqrt(N * p)
    for a, want in ((mt, True), (mt + 1, False)):
        got, margin = _condition_reference(N, p, a, 1e8)
        assert got == want or margin < 1e-9  # scipy's sf: 1e-14 relative
    ub, ub40 = dame.upper_bound(law, n_alpha2=1e8), dame.upper_bound(law, n_alpha2=1e8, precision=30)
    assert ub.m_tilde == ub40.m_tilde == mt and abs(ub.log_value - float(ub40.log_value)) < 1e-12


@pytest.mark.slow
@pytest.mark.parametrize("N, p", WIDE)
def test_lower_bound_of_wide_binomials(N, p):
    lb = dame.lower_bound(sizes.binomial(N, p), n_alpha2=1.0)
    assert math.isfinite(lb.log_value) and abs(lb.argmax - N * p) < 10 * math.sqrt(N * p)


# ---------------------------------------------------------------------------- extremes and caps
def test_n_past_the_float_range():
    """n = 10**400: refused by name where n alpha^2 passes the float range (it raised OverflowError), answered
    where it does not (n alpha^2 formed exactly: 10**400 * (1e-200)^2 = 1 within the rounding of 1e-200)."""
    law = sizes.poisson(5.0)
    for f in (dame.upper_bound, dame.lower_bound, dame.m_tilde):
        with pytest.raises(ValueError, match=r"^n \* alpha\*\*2 must be a positive number below the float range"):
            f(law, n=10**400, alpha=0.5)
    alpha = 1e-200
    with mpmath.workdps(50):
        x = float(10**400 * mpmath.mpf(alpha) ** 2)
    got = dame.upper_bound(law, n=10**400, alpha=alpha)
    assert got.n_alpha2 == x and got.value == dame.upper_bound(law, n_alpha2=x).value


def test_curve_caps_the_number_of_laws_before_reading_them():
    law = sizes.poisson(5.0)
    with pytest.raises(ValueError, match=r"^sizes must hold at most 100000 laws"):
        dame.curve([law] * (dame.MAX_POINTS + 1), n_alpha2=1.0)
    assert len(dame.curve([law] * 3, n_alpha2=1.0).m_tilde) == 3


def test_broadcast_arrays_of_the_theory_are_refused_before_allocation():
    law = sizes.poisson(5.0)
    with pytest.raises(ValueError, match=r"^n_alpha2 must hold at most 100000 values"):
        dame.curve(law, n_alpha2=np.broadcast_to(1.0, (10**10,)))
    with pytest.raises(ValueError, match=r"^a must hold at most 100000 values"):
        dame.log_phi(np.broadcast_to(np.int64(5), (10**10,)), n_alpha2=1.0)
    with pytest.raises(ValueError, match=r"^params must hold at most"):
        dame.grid("poisson", np.broadcast_to(1.0, (10**9,)), n_alpha2=[1.0])


def test_grid_of_two_parameter_families():
    """One row of (N, p) or (lo, hi) per law, integers exact past 2**53; each cell the single-law value."""
    rows = [(10, 0.5), (2**53 + 1, 1e-12)]
    g = dame.grid("binomial", rows, n_alpha2=[1.0, 1e4])
    for i, (N, p) in enumerate(rows):
        law = sizes.binomial(N, p)
        for j, x in enumerate([1.0, 1e4]):
            assert g.m_tilde[i, j] == dame.m_tilde(law, n_alpha2=x)
            assert g.log_upper[i, j] == pytest.approx(dame.upper_bound(law, n_alpha2=x).log_value, rel=1e-12)
            assert g.log_lower[i, j] == pytest.approx(dame.lower_bound(law, n_alpha2=x).log_value, rel=1e-12)
    g = dame.grid("uniform", [[1, 10], [5, 2**60]], n_alpha2=[1e4])
    assert g.log_lower[1, 0] == pytest.approx(dame.lower_bound(sizes.uniform(5, 2**60), n_alpha2=1e4).log_value, rel=1e-12)
    assert dame.grid("point", np.array([2**53 + 1], dtype=np.int64), n_alpha2=[0.1405]).m_tilde[0, 0] == 2**53 + 1
    with pytest.raises(ValueError, match=r"^family 'binomial' takes 2 parameters: params must be an array of shape"):
        dame.grid("binomial", [10, 0.5], n_alpha2=[1.0])
    with pytest.raises(ValueError, match=r"^params\[0\] = .* gives no size law: m must be an integer"):
        dame.grid("point", [2.5], n_alpha2=[1.0])
