"""Which users' data reach which step of every two-phase estimator.

A two-phase estimator spends its budget α once per user only if the users who vote
(localisation, selection, the initial estimates) and the users who release are disjoint:
a user in both is α-LDP twice, 2α in all.  These tests do not read the code's split
constants: they pass marked data (every user's value distinct) and spy on the
functions that receive each phase's data, or perturb one user at a time and watch
which phase's input changes.

Sources: Pla et al. (2024), Algorithm 1 (the first n/2 users vote, the other n/2
release); Kent et al. (2024), §3.1 (eqs. (25)–(30)), §3.2 (groups :math:`\\mathcal G_j`,
:math:`\\mathcal G'_j`), §3.3 (each user reports one rotated coordinate), §4.1.1
(Procedure 1: a selection half, then groups); Cummings et al. (2022), Algorithm 2 (three
disjoint groups, each ε-DP on its own).
"""

from __future__ import annotations

import numpy as np
import pytest

from bounds import checks, sizes, simulate
from bounds.estimators import cummings as cummings_est
from bounds.estimators import dame as dame_est
from bounds.estimators import kent as kent_est
from bounds.estimators import localisation


class Spy:
    """Wrap ``module.name``; record the arguments of every call."""

    def __init__(self, monkeypatch, module, name):
        self.calls = []
        original = getattr(module, name)

        def spy(*args, **kwargs):
            self.calls.append((args, kwargs))
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, spy)
        self.original = original


def _marks(shape, rng=0):
    """Distinct values in (-1, 1), one per entry: every user's data can be recognised downstream."""
    n = int(np.prod(shape))
    values = -0.99 + 1.98 * (np.arange(n) + 0.5) / n
    return np.random.default_rng(rng).permutation(values).reshape(shape)


def _columns_of(marked, part):
    """The users (columns of ``marked``, per row) whose marks make up ``part`` (rows × some users)."""
    out = []
    for row, prow in zip(marked, part):
        where = {v: u for u, v in enumerate(row)}
        assert all(v in where for v in prow), "a value reached the step that belongs to no user"
        out.append(sorted(where[v] for v in prow))
    return out


def _assert_split(n, voters, releasers):
    for v, r in zip(voters, releasers):
        assert not set(v) & set(r), f"users {sorted(set(v) & set(r))} both vote and release: α is spent twice"
        assert len(v) == len(set(v)) and len(r) == len(set(r)), "a user's data reach one step twice"
        assert len(v) == n // 2 and len(r) == n - n // 2
        assert set(v) | set(r) == set(range(n))


# =========================================================================== DAME, Algorithm 1


@pytest.mark.parametrize("n", [8, 9, 40])
def test_dame_first_half_votes_second_half_releases(monkeypatch, n):
    loc, ref = Spy(monkeypatch, dame_est, "localise"), Spy(monkeypatch, dame_est, "refine")
    x = _marks((3, n))
    m = np.tile(np.arange(1, n + 1), (3, 1))
    d = dame_est.debiasing(sizes.uniform(1, n), 4)
    dame_est.estimate(m, x, m_tilde=4, alpha=1.0, debias=d, rng=0)
    (largs, lkw), = loc.calls
    (rargs, rkw), = ref.calls
    voters, releasers = _columns_of(x, largs[1]), _columns_of(x, rargs[1])
    _assert_split(n, voters, releasers)
    assert voters[0] == list(range(n // 2))  # Algorithm 1: the first n/2 users vote
    # each phase sees its own users' sizes, aligned with their means
    for marks, sizes_seen, users in ((largs[1], largs[0], voters), (rargs[1], rargs[0], releasers)):
        assert np.array_equal(np.asarray(sizes_seen), m[:, users[0]])


def test_dame_votes_only_from_users_with_at_least_m_tilde_samples(monkeypatch):
    """Eq. (5): only voters with m >= m~ put ones in their vote (m = m~ - 1, m~, m~ + 1 side by side)."""
    vote = Spy(monkeypatch, localisation, "_window_counts")  # where the vote's counts are made from the mask
    n, mt = 12, 5
    m = np.array([[4, 5, 6, 5, 4, 6, 1, 5, 9, 9, 9, 9]])
    dame_est.estimate(m, _marks((1, n)), m_tilde=mt, alpha=1.0, debias=dame_est.Debiasing(0.0, 1.0), rng=0)
    (args, _), = vote.calls
    assert args[1].tolist() == [[False, True, True, True, False, True]]  # the voting mask: the first half, m >= m~


@pytest.mark.parametrize("user", range(10))
def test_dame_one_users_data_reach_one_phase_only(monkeypatch, user):
    """Changing one user's data changes the input of exactly one phase (same random stream)."""
    n = 10

    def run(x):
        loc, ref = Spy(monkeypatch, dame_est, "localise"), Spy(monkeypatch, dame_est, "refine")
        m = np.full((1, n), 7)
        dame_est.estimate(m, x, m_tilde=3, alpha=2.0, debias=dame_est.Debiasing(0.1, 2.0), rng=1)
        return loc.calls[0][0][1], ref.calls[0][0][1]

    x = _marks((1, n))
    y = x.copy()
    y[0, user] = -y[0, user]
    vote_x, rel_x = run(x)
    vote_y, rel_y = run(y)
    changed = (not np.array_equal(vote_x, vote_y), not np.array_equal(rel_x, rel_y))
    assert changed == ((True, False) if user < n // 2 else (False, True))


# =========================================================================== Kent et al.


@pytest.mark.parametrize("n", [2, 7, 30])
def test_kent_univariate_splits_voters_and_releasers(monkeypatch, n):
    loc, ref = Spy(monkeypatch, kent_est, "localise"), Spy(monkeypatch, kent_est, "refine")
    x = _marks((2, n))
    kent_est.univariate(x, tau=0.2, alpha=1.0, rng=0)
    _assert_split(n, _columns_of(x, loc.calls[0][0][0]), _columns_of(x, ref.calls[0][0][0]))


@pytest.mark.parametrize("d,g", [(1, 1), (3, 2), (4, 5)])
def test_kent_coordinatewise_groups_are_disjoint(monkeypatch, d, g):
    """§3.2: coordinate j's localisation group and refinement group share no user, and no group another's."""
    loc, ref = Spy(monkeypatch, kent_est, "localise"), Spy(monkeypatch, kent_est, "refine")
    B = 2
    x = _marks((B, d, 2 * g))
    kent_est.coordinatewise(x, tau=0.25, alpha=1.0, rng=0)
    rows = x.reshape(B * d, 2 * g)
    voters, releasers = _columns_of(rows, loc.calls[0][0][0]), _columns_of(rows, ref.calls[0][0][0])
    _assert_split(2 * g, voters, releasers)


@pytest.mark.parametrize("user", range(16))
def test_kent_l2_each_user_reports_one_rotated_coordinate(monkeypatch, user):
    """§3.3: user i's vector reaches one coordinate's group only (one number released per user)."""
    cw = Spy(monkeypatch, kent_est, "coordinatewise")
    d, g = 4, 2  # 2dg = 16 users
    x = _marks((1, 16, 3)) * 0.5
    signs = np.array([[1.0, -1.0, -1.0, 1.0]])
    kent_est.l2_mean(x, tau=0.25, alpha=1.0, signs=signs, rng=0)
    y = x.copy()
    y[0, user] *= -1
    kent_est.l2_mean(y, tau=0.25, alpha=1.0, signs=signs, rng=0)
    before, after = cw.calls[0][0][0], cw.calls[1][0][0]  # (1, d, 2g)
    changed = np.argwhere(before != after)[:, 1:]
    assert len(changed) == 1, f"user {user}'s data reach {len(changed)} reports"
    j, slot = changed[0]
    assert (j, slot) == (user // (2 * g), user % (2 * g))


def test_kent_sparse_procedure_1_selection_half_is_apart_from_the_groups(monkeypatch):
    """Procedure 1: the h selection users and the 2sg refinement users together fit in n."""
    sel, cw = Spy(monkeypatch, kent_est, "hashed_selection"), Spy(monkeypatch, kent_est, "coordinatewise")
    n, d, s = 40, 6, 2
    checks.kent_risk("sparse", n=n, T=50, alpha=1.0, reps=2, seed=0, theta=[0.5, 0, 0, 0, 0, -0.5], s=s,
                     procedure=1)
    voters = {a[0].shape[1] for a, _ in sel.calls}
    (a, _), = cw.calls
    _, slots, two_g = a[0].shape
    assert slots == s and len(voters) == 1
    assert voters.pop() + slots * two_g <= n


@pytest.mark.parametrize("problem,d", [("linf", 3), ("l2", 3)])
def test_kent_risk_groups_fit_in_n(monkeypatch, problem, d):
    cw = Spy(monkeypatch, kent_est, "coordinatewise")
    n = 50
    checks.kent_risk(problem, n=n, T=20, alpha=1.0, reps=2, seed=0, theta=[0.1, -0.1, 0.2][:d])
    (a, _), = cw.calls
    _, coords, two_g = a[0].shape
    assert coords * two_g <= n and two_g % 2 == 0


# =========================================================================== the simulation engine


@pytest.mark.parametrize("law", [sizes.finite({3: 0.5, 9: 0.5}), sizes.poisson(4.0, zero="shift")],
                         ids=["multinomial-sizes", "sampled-sizes"])
def test_simulation_feeds_disjoint_users_to_vote_and_release(monkeypatch, law):
    """Continuous samples make every user's local mean distinct: the vote and the release see disjoint users."""
    spies = {(name, phase): Spy(monkeypatch, mod, phase) for name, mod in (("dame", dame_est), ("kent", kent_est))
             for phase in ("localise", "refine")}
    population = simulate.Sampler(lambda rng, size: rng.uniform(-1, 1, size), 0.0)
    n = 30
    simulate.compare(sizes=law, n=n, alpha=0.5, reps=3, seed=0, estimators=("kent", "dame"), population=population,
                     m_tilde=3)
    for name in ("dame", "kent"):
        arg = 1 if name == "dame" else 0  # dame's phases take (m, xbar, ...), Kent's (xbar, ...)
        votes = [c[0][arg] for c in spies[name, "localise"].calls]
        releases = [c[0][arg] for c in spies[name, "refine"].calls]
        assert votes and len(votes) == len(releases)
        for v, r in zip(votes, releases):
            assert v.shape[1] == n // 2 and r.shape[1] == n - n // 2
            for vrow, rrow in zip(v, r):
                assert len(set(vrow) | set(rrow)) == n, f"{name}: a user's data reach both phases"


# =========================================================================== Cummings et al., Algorithm 2


def test_cummings_realisable_groups_are_disjoint(monkeypatch):
    """Algorithm 2: the variance group, the mean group and the final group are disjoint.

    Users reaching the variance step are recognised by their marked frequency; users
    reaching the final release by perturbing one at a time (same random stream).  The
    mean group (the n/10 users with the least data, computed here from ``k``) reaches
    neither.
    """
    var = Spy(monkeypatch, cummings_est, "initial_variance")
    fin = Spy(monkeypatch, cummings_est, "final_release")
    rng = np.random.default_rng(5)
    k = rng.permutation(np.arange(10, 410, 10))  # 40 users, distinct sizes
    n = k.size
    phat = (np.arange(n) + 0.5) / n
    first = np.ones(n // 10)
    cummings_est.realisable(phat, first, k, eps=50.0, beta=0.05, rng=0)
    means = var.calls[0][0][0] if var.calls[0][0] else var.calls[0][1]["means"]
    variance_users = {int(np.flatnonzero(phat == v)[0]) for v in means}
    (fargs, fkw), = fin.calls
    plan = fargs[1] if len(fargs) > 1 else fkw["plan"]
    final_users = set()
    for i in range(n):
        p2 = phat.copy()
        p2[i] = 1 - p2[i] if abs(1 - 2 * p2[i]) > 1e-9 else 0.0
        a = fin.original(phat, plan, eps=50.0, rng=np.random.default_rng(3))
        b = fin.original(p2, plan, eps=50.0, rng=np.random.default_rng(3))
        if not np.array_equal(a, b):
            final_users.add(i)
    fewest = set(np.argsort(k)[: n // 10].tolist())
    assert variance_users and final_users
    assert not variance_users & final_users, "a user both estimates the variance and releases"
    assert not fewest & (variance_users | final_users), "a user of the mean group reaches another step"
    assert len(means) == len(variance_users)
    assert variance_users | final_users | fewest == set(range(n)), "a user's data reach no step"
