"""Hostile inputs, one table row per cause fixed, and a table-driven sweep of the theory modules.

Each row of :data:`CASES` is a call that once went wrong (a warning, NaN, an internal
exception, a silently wrong value, an accepted invalid argument, unbounded work, or a
message naming an internal variable) and what it must do now: raise ``ValueError``
naming the parameter the user passed, or return the documented value without a warning.

The slow sweep replaces one argument at a time of every public callable of
``bounds.{dame,kent,cummings,rameshwar,numerics,mechanisms,checks,simulate,references}``
and ``bounds.estimators`` by each value of :data:`EXTREMES`, under the CPU-time and
memory limits of ``tests/test_fuzz.py``, and classifies what goes wrong.
"""

from __future__ import annotations

import math
import warnings

import mpmath
import numpy as np
import pytest

from bounds import checks, cummings, dame, kent, numerics, rameshwar, simulate, sizes
from bounds.estimators import cummings as cummings_est
from bounds.estimators import dame as dame_est
from bounds.estimators import duchi, kent as kent_est


def _quiet(call):
    """Call with every warning an error (the package's own assumption warnings excepted)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", numerics.PaperAssumptionWarning)
        return call()


# (id, call, the parameter the error must name) -- each must raise ValueError
REFUSED = [
    ("grid-callable-not-a-law", lambda: dame.grid(lambda p: 5, [5.0], [100.0]), "family"),
    ("grid-string-param", lambda: dame.grid("poisson", ["5"], [100.0]), "params"),
    ("grid-string-scalar", lambda: dame.grid("poisson", "5", [100.0]), "params"),
    ("grid-huge-params", lambda: dame.grid("poisson", np.ones(10**7), [100.0]), "params"),
    ("grid-huge-cells", lambda: dame.grid("poisson", np.ones(2000), np.ones(2000)), "n_alpha2"),
    ("curve-huge-n_alpha2", lambda: dame.curve(sizes.poisson(5), n_alpha2=np.ones(10**6)), "n_alpha2"),
    ("asymptotic-huge", lambda: dame.asymptotic_rates(sizes.poisson(5), n_alpha2=np.ones(10**6)), "n_alpha2"),
    ("h3-string", lambda: dame.privacy_budget(100, 0.5, h3="no"), "h3"),
    ("constants-nan-name", lambda: dame.Constants(1, 1, 1, 1, 1, name=math.nan), "name"),
    ("duchi-alpha-subnormal", lambda: duchi.estimate(10, 0.0, alpha=1e-308, rng=0), "alpha"),
    ("cummings-interval-reversed", lambda: cummings_est.laplace_scale([0.5], [0.2], [0.1], eps=1), "b"),
    ("kent-risk-procedure-7", lambda: checks.kent_risk("linf", n=100, T=10, alpha=0.5, reps=2, seed=0, theta=[0.1],
                                                        procedure=7), "procedure"),
    ("kent-risk-theta-string", lambda: checks.kent_risk("linf", n=100, T=10, alpha=0.5, reps=2, seed=0,
                                                         theta=["0.1"]), "theta"),
    ("check-duchi-reps-1", lambda: checks.check_duchi(theta=0.3, n=100, alpha=0.5, reps=1, seed=0), "reps"),
    ("check-cummings-reps-1", lambda: checks.check_cummings([5, 3, 1], p=0.5, sigma_p2=0.01, eps=1.0, reps=1, seed=0),
     "reps"),
    ("check-dame-thetas-huge", lambda: checks.check_dame(sizes.point(4), n=100, alpha=0.5, thetas=np.zeros(10**7),
                                                         reps=2, seed=0), "thetas"),
    ("check-kent-Ts-string", lambda: checks.check_kent("mean", n=100, alpha=0.5, Ts="10", reps=2, seed=0), "Ts"),
    ("rameshwar-exact-string", lambda: rameshwar.threshold([1, 2], U=1, eps=1, exact="yes"), "exact"),
    ("rameshwar-exact-array", lambda: rameshwar.optimal_error([1, 2], U=1, eps=1, exact=np.array([])), "exact"),
    ("rameshwar-huge-collection", lambda: rameshwar.optimal_error(np.ones(10**7, dtype=np.int64), U=1, eps=1), "m"),
    ("cummings-huge-k", lambda: cummings.realisable_plan(np.ones(2 * 10**7, dtype=np.int64), p_initial=0.5,
                                                         sigma_p2_hat=0.01, tolerance=0.1, eps=1.0), "k"),
    ("cummings-risk-huge-k", lambda: simulate.cummings_risk(np.ones(10**6, dtype=np.int64), p=0.5, sigma_p2=0.01,
                                                            eps=1.0, reps=2, seed=0), "k"),
    ("cummings-risk-estimator-array", lambda: simulate.cummings_risk([5, 3, 1], p=0.5, sigma_p2=0.01, eps=1.0,
                                                                     reps=2, seed=0, estimator=np.array([])),
     "estimator"),
    ("compare-scale-array", lambda: simulate.compare(theta=0.1, sizes=sizes.point(4), n=10, alpha=0.5, reps=2,
                                                     seed=0, scale=np.array([])), "scale"),
    ("rameshwar-errors-samples-array", lambda: simulate.rameshwar_errors([1, 2], U=1, eps=1, reps=2, seed=0,
                                                                         samples=np.array([])), "samples"),
    ("dame-laplace-scale-L-string", lambda: dame_est.laplace_scale(0.5, 1.0, L="5", U=1.0), "L"),
    ("kent-covering-s-string", lambda: kent.covering("mean", s="5"), "s"),
    ("kent-covering-beta-string", lambda: kent.covering("mean", beta=""), "beta"),
    ("kent-cap-message", lambda: kent.estimator_cap(n=1, T=1, alpha=0.5), "alpha"),
    ("kent-rate-grid-huge", lambda: kent.rate_grid("mean", n=100, T=np.ones(10**6), alpha=[0.5]), "T"),
    ("fwht-overflow", lambda: kent_est.fwht([1e308, 1e308]), "x"),
    ("backend-string", lambda: numerics.backend("5"), "precision"),
    ("decorate-not-a-function", lambda: numerics.warn_once_per_call("f"), "fn"),
    ("check-array-max-size", lambda: numerics.check_array("v", np.zeros(11), max_size=10), "v"),
]


@pytest.mark.parametrize("case,call,param", REFUSED, ids=[r[0] for r in REFUSED])
def test_refused_naming_the_parameter(case, call, param):
    with pytest.raises(ValueError) as err:
        _quiet(call)
    assert param in str(err.value), f"{case}: {err.value}"


def test_lower_bound_at_huge_n_alpha2_is_the_limit_with_its_log_value():
    """c2 x beyond the float range: the a = 0 term is -inf and every term of the search's range 0, the maximum is the
    limit a -> infinity, c1 / (x E[sqrt m]^2) (a subnormal double here) with its finite log-value, no warning; its
    argmax the smallest a within the tie rule of it (past the search's end)."""
    law = sizes.poisson(5)
    lb = _quiet(lambda: dame.lower_bound(law, n_alpha2=1e308))
    log_limit = -9 - math.log(16) - math.log(1e308) - 2 * math.log(float(law.sqrt_mean()))
    assert lb.log_value == pytest.approx(log_limit, rel=1e-12)
    # the tie rule: the smallest a with c2 x P(m > a)^2 <= -log(1 - 1e-9) (S(a) is E[sqrt m] there to 1e-150),
    # P(m > a) summed at 60 digits from the zero-truncated Poisson masses
    with mpmath.workdps(60):
        def gt(a):
            tail = mpmath.fsum(mpmath.exp(k * mpmath.log(5) - 5 - mpmath.loggamma(k + 1)) for k in range(a + 1, 400))
            return tail / -mpmath.expm1(-5)
        excess = [24 * mpmath.mpf(1e308) * gt(a) ** 2 for a in (lb.argmax - 1, lb.argmax)]
        assert excess[1] <= -mpmath.log1p(-mpmath.mpf(dame.LB_TIE_RTOL)) < excess[0]
    assert lb.value == pytest.approx(math.exp(log_limit), rel=1e-6)  # subnormal: a few digits


def test_corollary3_at_huge_n_alpha2_is_finite():
    """rate = log(m~ x) / (x (1 - ρ + ρ√m~)²) in log space: m~ x = 1e309 overflows, the rate does not."""
    r = _quiet(lambda: dame.corollary3(10, 0.5, n_alpha2=1e308))
    shape = (0.5 + 0.5 * math.sqrt(r.m_tilde)) ** 2
    expected = (math.log(r.m_tilde) + math.log(1e308)) / 1e308 / shape  # evaluated without the overflowing product
    assert r.rate == pytest.approx(expected, rel=1e-12)
    assert r.table2_rate == pytest.approx(1 / 1e308 / shape, rel=1e-12)


def test_corollary3_past_the_float_range_is_inf():
    """At nα² = 5e-324 both orders exceed 1e308: documented as inf (they raised OverflowError)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numerics.PaperAssumptionWarning)  # nα² < 1 is outside Corollary 3
        r = dame.corollary3(10, 0.5, n_alpha2=5e-324)
    assert r.rate == math.inf and r.table2_rate == math.inf


@pytest.mark.parametrize("x", [5e-324, 1e-308, 1e308])
def test_asymptotic_rates_at_the_float_range_ends(x):
    lo, up = _quiet(lambda: dame.asymptotic_rates(sizes.point(4), n_alpha2=[x]))
    expected = 1 / 4 / x if 1 / 4 / x < math.inf else math.inf  # E[√m]² = 4
    assert lo[0] == pytest.approx(expected, rel=1e-12, abs=1e-300)  # subnormal results may flush to 0
    assert not np.isnan(up[0])


def test_m_tilde_at_huge_n_alpha2_is_fast_and_exact():
    """The doubling start of m~'s search: the work grows with m~, not with Markov's bracket (E m √(x/c5))."""
    import time

    law = sizes.point(143)
    start = time.process_time()
    assert _quiet(lambda: dame.m_tilde(law, n_alpha2=1e308)) == 143
    assert _quiet(lambda: dame.m_tilde(sizes.poisson(5), n_alpha2=1e308)) >= 1
    assert time.process_time() - start < 5  # CPU seconds (the Markov bracket took > 5 s for the Poisson law)


def test_beta_meta_law_with_a_subnormal_variance_draws_the_mean():
    r = _quiet(lambda: simulate.cummings_risk([5, 3, 1], p=0.5, sigma_p2=5e-324, eps=1.0, reps=4, seed=0))
    assert np.all(np.isfinite(r.estimates))


# =========================================================================== the command line, by cause

_POINT = ["dame", "--sizes", "point:10"]
_N_SOLVE = ["--alpha", "0.5", "--target", "upper<0.01", "--range"]

# (id, argv, the option the one-line error must name): each once raised OverflowError, OSError or named nothing
CLI_REFUSED = [
    # values past the float range: an integer sweep or range end is exact only up to 2**53
    ("dame-sweep-n-1e400", [*_POINT, "--alpha", "0.5", "--sweep", "n=2:1e400:3"], "--sweep"),
    ("dame-range-n-1e400", [*_POINT, "--solve", "n", *_N_SOLVE, "2:1e400"], "--range"),
    ("dame-range-n-2**53+1", [*_POINT, "--solve", "n", *_N_SOLVE, "2:9007199254740993"], "--range"),
    ("kent-sweep-T-1e400", ["kent", "--n", "10", "--alpha", "0.5", "--sweep", "T=1:1e400:3"], "--sweep"),
    ("kent-range-n-1e400", ["kent", "--T", "10", "--solve", "n", *_N_SOLVE, "1:1e400"], "--range"),
    ("cummings-sweep-1e400", ["cummings", "--k", "1,2", "--sweep", "eps=1e-3:1e400:3"], "--sweep"),
    ("rameshwar-range-1e400", ["rameshwar", "--collection", "counts:1,4", "--solve", "eps", "--target", "error<0.1",
                               "--range", "1e-3:1e400"], "--range"),
    ("dame-sweep-too-many", [*_POINT, "--sweep", "n_alpha2=1:10:10001"], "--sweep"),
    # options that do not apply
    ("cummings-column-without-counts", ["cummings", "--k", "1,2", "--eps", "1", "--column", "n"], "--column"),
    ("rameshwar-column-without-counts", ["rameshwar", "--collection", "counts:1,2", "--eps", "1", "--column", "n"],
     "--column"),
    # OS errors of names
    ("cummings-counts-name-too-long", ["cummings", "--eps", "1", "--counts", "c" * 5000], "--counts"),
    ("dame-save-name-too-long", [*_POINT, "--n-alpha2", "10", "--save", "s" * 300], "--save"),
    ("advise-column-with-histogram", ["advise", "--histogram", "h.csv", "--column", "n"], "--column"),
    ("advise-column-with-records", ["advise", "--records", "r.csv", "--user", "u", "--column", "n"], "--column"),
    ("advise-user-with-counts", ["advise", "--counts", "c.txt", "--user", "u"], "--user"),
    ("advise-user-with-histogram", ["advise", "--histogram", "h.csv", "--user", "u"], "--user"),
    ("advise-records-without-user", ["advise", "--records", "r.csv"], "--user"),
    ("advise-value-with-counts", ["advise", "--counts", "c.txt", "--value", "v"], "--value"),
    ("advise-value-with-histogram", ["advise", "--histogram", "h.csv", "--value", "v"], "--value"),
    ("advise-records-name-too-long", ["advise", "--records", "r" * 5000 + ".csv", "--user", "u"], "--records"),
    # issue 38, re-run: a process per job (--jobs 100000 started processes until memory ran out)
    ("advise-jobs-too-many", ["advise", "--counts", "c.txt", "--jobs", "100000"], "--jobs"),
    ("advise-jobs-65", ["advise", "--counts", "c.txt", "--jobs", "65"], "--jobs"),
    ("advise-jobs-0", ["advise", "--counts", "c.txt", "--jobs", "0"], "--jobs"),
    # issue 38, re-run: every calculator's option past the float range or a sweep too long
    ("kent-sweep-too-many", ["kent", "--T", "10", "--alpha", "0.5", "--sweep", "n=1:1e300:1000000000"], "--sweep"),
    ("cummings-sweep-too-many", ["cummings", "--k", "5,5", "--sweep", "eps=1:2:10000000000"], "--sweep"),
    ("rameshwar-sweep-too-many", ["rameshwar", "--collection", "counts:1,4", "--sweep", "eps=1e-300:1e300:99999999"],
     "--sweep"),
    ("dame-sweep-1e400", ["dame", "--sizes", "poisson:5", "--sweep", "n_alpha2=1:1e400:3"], "--sweep"),
    ("dame-range-1e400", ["dame", "--sizes", "poisson:5", "--solve", "n_alpha2", "--target", "upper<0.01",
                          "--range", "1e-300:1e400"], "--range"),
    ("kent-sweep-n-1e400", ["kent", "--T", "10", "--alpha", "0.5", "--sweep", "n=1:1e400:3"], "--sweep"),
    ("cummings-range-1e400", ["cummings", "--k", "1,2", "--solve", "eps", "--target", "variance<0.1",
                              "--range", "1e-300:1e400"], "--range"),
    ("rameshwar-sweep-1e400", ["rameshwar", "--collection", "counts:1,4", "--sweep", "eps=1e-300:1e400:3"],
     "--sweep"),
    ("rameshwar-counts-name-too-long", ["rameshwar", "--eps", "1", "--counts", "c" * 5000], "--counts"),
    ("advise-counts-name-too-long", ["advise", "--counts", "c" * 5000], "--counts"),
]


def _cli(argv):
    import contextlib
    import io

    from bounds import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("case,argv,option", CLI_REFUSED, ids=[r[0] for r in CLI_REFUSED])
def test_command_line_refuses_naming_the_option(case, argv, option):
    code, _, err = _quiet(lambda: _cli(argv))
    assert code == 2 and err.count("\n") == 1, f"{case}: {err!r}"
    assert err.startswith(f"bounds {argv[0]}: error: {option}: "), f"{case}: {err!r}"
    assert "Error:" not in err, f"{case}: an exception's type instead of a message: {err!r}"


@pytest.mark.parametrize("argv", [
    [*_POINT, "--solve", "n_alpha2", "--target", "upper<0.01", "--range", "1e-300:1e300"],
    [*_POINT, "--sweep", "n_alpha2=1e-300:1e300:3"],
    ["cummings", "--k", "1,2", "--solve", "eps", "--target", "variance<0.1", "--range", "1e-300:1e300"],
    ["rameshwar", "--collection", "counts:1,4", "--solve", "eps", "--target", "error<0.1", "--range", "1e-300:1e300"],
    ["rameshwar", "--collection", "counts:1,4", "--sweep", "eps=1e-300:1e300:3"],
    ["kent", "--T", "10", "--alpha", "0.5", "--solve", "n", "--target", "upper<0.1", "--range", "1:9007199254740992"],
], ids=["dame-solve", "dame-sweep", "cummings-solve", "rameshwar-solve", "rameshwar-sweep", "kent-solve"])
def test_command_line_answers_across_the_float_range(argv):
    """Ranges from 1e-300 to 1e300 (hi / lo and lo * e**x overflowed) are answered on a bounded grid."""
    import time

    start = time.process_time()
    code, out, err = _quiet(lambda: _cli(argv))
    assert code == 0 and not err, err
    assert time.process_time() - start < 30  # CPU seconds: at most MAX_GRID (500) points, 600 decades or not


def test_command_line_search_grid_is_capped():
    from bounds.cli import _solve

    calls = []
    _solve.solve(lambda v: calls.append(v) or False, 1e-300, 1e300, False)
    assert len(calls) == _solve.MAX_GRID
    assert calls[0] == 1e-300 and calls[-1] == 1e300 and all(b > a for a, b in zip(calls, calls[1:]))


def test_command_line_save_errors_after_the_computation_name_save(tmp_path, monkeypatch):
    """A write that fails once the result is computed (a full disk) is one line naming --save."""
    import errno
    from pathlib import Path

    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(self))

    monkeypatch.setattr(Path, "write_text", full)
    code, _, err = _cli([*_POINT, "--n-alpha2", "10", "--save", str(tmp_path / "run")])
    assert code == 2 and err.startswith("bounds dame: error: --save: cannot write ") and "No space left" in err


def test_command_line_save_onto_a_fifo_is_refused_before_blocking(tmp_path):
    import os

    os.mkfifo(tmp_path / "run.txt")
    code, _, err = _cli([*_POINT, "--n-alpha2", "10", "--save", str(tmp_path / "run")])
    assert code == 2 and "--save: " in err and "not a regular file" in err


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_check_report_onto_a_special_file_is_refused_before_blocking(tmp_path, kind):
    """--report onto a FIFO (whose write would block until a reader comes) or a device: one line, no hang."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    if kind == "fifo":
        target = str(tmp_path / "report.md")
        os.mkfifo(target)
    else:
        target = os.devnull
    root = str(Path(__file__).resolve().parent.parent)
    code = "import sys; from bounds import cli; sys.exit(cli.main(sys.argv[1:]))"
    proc = subprocess.run([sys.executable, "-c", code, "check", "--only", "rameshwar.akmv_rank", "--report", target],
                          capture_output=True, text=True, timeout=120, cwd=root,
                          env={**os.environ, "PYTHONPATH": root})
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("bounds check: error: --report: ") and proc.stderr.count("\n") == 1, proc.stderr
    assert "not a regular file" in proc.stderr and not proc.stdout


def test_advise_messages_about_the_data_name_the_data_option(tmp_path):
    one = tmp_path / "one.txt"
    one.write_text("5\n")
    code, _, err = _cli(["advise", "--counts", str(one), "--reps", "0", "--no-inverse", "--jobs", "1"])
    assert code == 2 and err.startswith("bounds advise: error: --counts: "), err
    many = tmp_path / "many.txt"
    many.write_text("".join(f"{i % 7 + 1}\n" for i in range(200)))
    # U·m past 1.8e308 overflows inside the Rameshwar method: one line naming the option given 1e308
    code, _, err = _cli(["advise", "--counts", str(many), "--U", "1e308", "--reps", "0", "--no-inverse", "--jobs", "1",
                         "--no-inverse"])
    assert code == 2 and err.startswith("bounds advise: error: --U: "), err


def test_advise_refuses_a_U_whose_squared_errors_leave_the_float_range():
    """U·m/min(ε, 1) above 2**496 is refused naming U (it overflowed); just below, the relative errors are
    those at U = 1 (they do not depend on U: every error scales with the width U)."""
    from bounds import advise
    from bounds.advise.methods import rameshwar as rameshwar_method

    counts = np.repeat([1, 4, 100], [500, 300, 20])
    with pytest.raises(ValueError, match=r"^U: 1e\+308 times the largest count per user \(100\)"):
        advise.advise(counts, U=1e308, reps=0, inverse=False, progress=False)
    with pytest.raises(ValueError, match=r"^U: .* over eps = 0.001"):
        advise.advise(counts, U=2.0**496 / 100 * 1e-3 * 1.000001, eps=1e-3, reps=0, inverse=False, progress=False)
    with pytest.raises(ValueError, match=r"^U: "):
        rameshwar_method.threshold(advise.Histogram.of_counts([1, 4, 5]), 1e308, 2.0)

    def rel(U, eps):
        rep = advise.advise(counts, U=U, eps=eps, reps=0, inverse=False, progress=False)
        return [m.error.rmse_rel for m in rep.methods if m.model == "central" and m.error is not None]

    for eps in (1.0, 1e-3):
        edge = rel(2.0**496 / 100 * min(eps, 1) * (1 - 1e-9), eps)
        assert all(math.isfinite(x) for x in edge) and edge == pytest.approx(rel(1.0, eps), rel=1e-12)


# =========================================================================== the slow sweep

MODULES = ("bounds.dame", "bounds.kent", "bounds.cummings", "bounds.rameshwar", "bounds.numerics",
           "bounds.mechanisms", "bounds.checks", "bounds.simulate", "bounds.references", "bounds.estimators")
EXTREMES = [0, 0.0, -0.0, 5e-324, 1e-308, 1e308, -1e308, math.inf, -math.inf, math.nan, -1, -1.0, 2**63, 10**18,
            10**400, "5", "", None, True, [], [[1, 2], [3, 4]], np.array([]), [math.nan], [math.inf], [1e308, 1e308],
            [5e-324], np.ones(10**7), [-1.0, 0.5], 0.5, 1, 2, 3.5]
TEXT = {"problem", "family", "ball", "kind", "estimator", "constants", "laplace", "name", "text", "spec", "message",
        "key", "title", "venue", "zero", "scale", "samples", "denominator", "rule", "program", "value"}


def _sweep_targets():
    from tests import test_fuzz as F

    return [t for t in F.TARGETS if t.id.startswith(MODULES) and t.baseline is not None]


@pytest.mark.slow
def test_extremes_sweep_of_the_theory_modules():
    from tests import test_fuzz as F

    bad = []
    for t in _sweep_targets():
        for p in t.params:
            for v in EXTREMES:
                kwargs = {**t.baseline, p: v}
                problem = F.verdict(t, kwargs, seconds=F.CALL_SECONDS)
                if problem is None and isinstance(v, str) and p not in TEXT:
                    out = F._run(t.func, t.positional, kwargs, seconds=F.CALL_SECONDS)
                    if out.returned:
                        problem = f"{t.id}({p}={v!r}) accepted a string"
                if problem is not None:
                    bad.append(problem)
    assert not bad, "\n".join(bad[:40])


# --------------------------------------------------------------------------- issue 38, re-run on files


def _files(tmp_path):
    import os

    (tmp_path / "ok.txt").write_text("1\n2\n3\n4\n5\n6\n7\n8\n9\n30\n")
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "binary.txt").write_bytes(b"\x00\x01\x02\xff\xfe\n")
    (tmp_path / "folder").mkdir()
    return tmp_path


@pytest.mark.parametrize("argv, option", [
    (["cummings", "--eps", "1", "--counts", "{d}/fifo"], "--counts"),
    (["rameshwar", "--eps", "1", "--counts", "{d}/fifo"], "--counts"),
    (["advise", "--counts", "{d}/fifo"], "--counts"),
    (["advise", "--histogram", "{d}/fifo"], "--histogram"),
    (["advise", "--counts", "{d}/folder"], "--counts"),
    (["advise", "--counts", "/dev/zero"], "--counts"),
    (["cummings", "--eps", "1", "--counts", "/dev/urandom"], "--counts"),
    (["advise", "--counts", "{d}/binary.txt"], "--counts"),
    (["advise", "--counts", "{d}/ok.txt", "--reps", "0", "--save", "{d}/no/such/folder/x"], "--save"),
    (["advise", "--counts", "{d}/ok.txt", "--U", "1e308", "--reps", "0"], "--U"),
    (["advise", "--counts", "{d}/ok.txt", "--reps", "1"], "--reps"),
    (["advise", "--counts", "{d}/ok.txt", "--rel-se", "nan"], "--rel-se"),
    (["advise", "--counts", "{d}/ok.txt", "--sigma-p2", "0.3"], "--sigma-p2"),
    (["advise", "--counts", "{d}/ok.txt", "--column", "nope"], "--column"),
    (["advise", "--counts", "{d}/ok.txt", "--private-selection", "1"], "--private-selection"),
    (["advise", "--counts", "{d}/ok.txt", "--selection-max", "50"], "--selection-max"),  # was ignored
    (["advise", "--counts", "{d}/ok.txt", "--reps", "0", "--rel-se", "0.1"], "--rel-se"),  # was ignored
], ids=lambda v: "-".join(x.rsplit("/", 1)[-1][:12] for x in v) if isinstance(v, list) else v)
def test_issue38_rerun_files_refused_naming_the_option(tmp_path, argv, option):
    d = _files(tmp_path)
    argv = [a.format(d=d) for a in argv]
    code, _, err = _quiet(lambda: _cli(argv))
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"bounds {argv[0]}: error: {option}: "), err
    assert "Error:" not in err.split(": ", 3)[2], err  # an option, not an exception's type
