"""Property-based fuzzing of the whole public API, enumerated from each module's ``__all__``.

Every public callable of every ``bounds`` module (sub-packages included, found by
walking the package) is called with a valid baseline in which one or two arguments
are replaced by hostile values: booleans, strings, ``None``, NaN, ±inf, 1e-308,
1e308, integers up to 10**400, empty, ragged or non-finite arrays, wrong types.
Each call must either

* raise ``ValueError`` or ``TypeError`` whose message names one of the callable's
  parameters, or
* return a result holding no NaN (infinities are allowed: several results are
  documented to be ``±inf``), or
* raise ``ValueError`` naming the optional extra it needs, when that extra is not
  installed (a documented limit: the suite passes with only ``[test]`` installed),

and issue no warning except :class:`~bounds.numerics.PaperAssumptionWarning`.  Each
call runs under a CPU-time limit (a profiling interval timer, which counts the
process's user and system CPU time, never wall time, so a loaded machine cannot
fail a call) and a memory cap (``RLIMIT_AS``), so a runaway computation or
allocation fails the test instead of the machine.

A new public function is fuzzed without editing this file.  Its valid baseline is
discovered: each required parameter is tried with the values listed for its name in
:data:`VALID` (or :data:`GENERIC`), and the first combination that returns is kept.
Bound methods of the objects a baseline returns (a size law's ``pmf``, ``sample``, …)
are fuzzed too.

Failures in modules this suite does not fix are listed in :data:`KNOWN` with a
reproducer: those tests are strict ``xfail``, so they fail loudly once fixed.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import itertools
import math
import numbers
import os
import pkgutil
import re
import resource
import signal
import time
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import bounds
from bounds import sizes
from bounds.numerics import PaperAssumptionWarning

# =========================================================================== limits

CALL_SECONDS = 10.0  # CPU seconds: a call using more is a hang (wall time is never limited)
MEMORY_BYTES = 2 * 2**30  # address space a call may add
EXAMPLES = 25  # per callable, default run (a smoke pass: the slow run draws 400)
EXAMPLES_SLOW = 400  # per callable, ``-m slow``

# Callables not fuzzed, with the reason.  Everything else in an ``__all__`` is.
SKIP = {  # by object: every name a skipped callable is exported under is skipped
    "bounds.figures.run": "writes figure files to disk; covered by tests/test_cli.py and tests/test_figures.py",
    "bounds.audit.run": "runs the audit (minutes); covered by tests/test_audit.py",
    "bounds.audit.atlas": "runs every check of the audit when paper and label are None (a minute of CPU); its "
                          "arguments are refused by name in tests/test_audit_registry.py",
    "bounds.advise.real_counts": "reads optional data packages; covered by tests/test_advise_inputs.py",
    "bounds.numerics.warn_assumption": "issues the package's own warning by design",
    "bounds.numerics.workdps": "a context manager (the call returns a generator context)",
}

# Parameters that configure a validator rather than carry user input: the package's own
# code supplies them (a parameter's name, a range end, the allowed choices).  The
# validated value itself is fuzzed.
TRUSTED = {
    "bounds.numerics.check_real": {"name", "low", "high", "low_open", "high_open", "allow_inf"},
    "bounds.numerics.check_positive": {"name", "allow_inf"},
    "bounds.numerics.check_integer": {"name", "minimum", "maximum", "why"},
    "bounds.numerics.check_choice": {"name", "choices"},
    "bounds.numerics.check_array": {"name", "ndim", "low", "low_open", "allow_empty", "max_size"},
    "bounds.numerics.check_bool": {"name"},
    "bounds.numerics.check_callable": {"name", "what"},
    "bounds.numerics.check_counts": {"name", "maximum", "max_size"},
    "bounds.numerics.check_rng": {"name"},
    "bounds.numerics.format_value": {"width"},
}

# =========================================================================== values


def _pred(a):
    return np.asarray(a) < 5


VALID: dict[str, list] = {
    # sizes and laws
    "sizes": [sizes.poisson(5.0), sizes.point(10), [3, 1, 4]], "law": [sizes.poisson(5.0)],
    "lam": [5.0], "N": [100], "lo": [1], "hi": [9], "masses": [{1: 0.5, 10: 0.5}], "spec": ["poisson:5"],
    "dist": [__import__("scipy").stats.poisson(3.0)], "zero": ["truncate"],
    # privacy and budgets
    "n": [100, 1000], "alpha": [0.5], "n_alpha2": [10.0, [1.0, 10.0]], "eps": [1.0], "eps2": [0.25], "rho": [0.5],
    "precision": [None], "constants": ["unit", "paper"], "m_tilde": [5],
    # Kent
    "problem": ["mean"], "T": [10], "d": [2], "s": [1, 2.5], "beta": [0.05, 1.0], "ball": ["linf"], "K": [1.0],
    "diameter": [2.0], "log_covering": [bounds.kent.covering("mean")], "constant": [1.0],
    # Cummings
    "k": [[5, 3, 1], list(range(1, 40)), 4], "p": [0.5], "sigma_p2": [0.01], "sigma2": [[1.0, 0.25]], "widths": [[1.0, 1.0]],
    "p_initial": [0.5], "sigma_p2_hat": [0.01], "laplace": ["printed"],
    # Rameshwar
    "m": [[1, 4, 2], 10], "U": [10.0], "M": [3], "L": [4], "m_star": [10], "kind": ["uniform", "checkable"],
    # mechanisms and simulation
    "rng": [0], "seed": [0], "reps": [4], "theta": [0.3], "scale": [1.0], "size": [3], "bits": [[[0, 1, 0]]],
    "counts": [[2, 1, 3], [3, 1], list(range(1, 60))], "n_users": [10], "n_bins": [4], "x": [[0.5, -0.5], -1.0], "mean": [0.1],
    "data": [[0.1, 0.5, 0.9]], "rank_from_top": [1], "lower": [0.0], "upper": [1.0],
    "estimator": ["dame", "duchi"], "draw": [lambda rng, size: rng.uniform(-1, 1, size)],
    # numerics
    "name": ["x"], "value": [0.5, 3, "a", True, abs], "values": [[1, 2]], "choices": [("a", "b")], "minimum": [0], "pred": [_pred],
    "fn": [abs], "f": [abs], "family": ["poisson"], "grid": [[1.0, 2.0]], "message": ["m"], "text": ["see 001_ac3274d7ce9a5d72.txt"], "j": [3], "target": [0.05],
    "target_mse": [0.05], "source": [[3, 1, 2]], "results": [[]], "ids": [["kent.lemma16"]],
    "key": ["k", "dame:Lemma S9"], "authors": [("Ada Lovelace",)], "title": ["t"], "venue": ["v"], "year": [2024],
    # the audit and the figures
    "paper": ["dame"], "label": ["X"], "statement": ["s"], "rows": [[]], "g": [lambda x: x + 1], "box": [[(0, 1)]],
    "fid": ["dame-fig1b"], "own": [["holds", "discrepancy"]],
}
GENERIC = [1, 0.5, [1, 2, 3], "mean", None]

_EDGE = [
    True, False, np.bool_(True), None, "", "1", "0.5", "nan", "abc", "__import__('os').getcwd()",
    0, -1, 1, 2, 3, 2**31, 2**62, 2**63, 2**70, 10**400, -(10**400), np.int64(3), np.int64(2**62),
    0.0, -0.0, -1.0, 0.5, 1.5, 1e-10, 1e10, 1e-308, 5e-324, 1e308, -1e308, math.inf, -math.inf, math.nan,
    Fraction(1, 2), Fraction(10**400), complex(1, 1), mpmath.mpf("1e-400"),
    [], [0], [1], [-1], [1, 2, 3], [1.5, 0], [math.nan, 0.5], [math.inf], [1e308, 5, 1], [2**62, 2**62],
    [2**70], [True, False], ["1", "2"], [[1, 2], [3, 4]], [[1], [2, 3]], (), {}, {1: math.nan}, {0: 1.0},
    {1: 0.5, 2: 0.5}, {-1: 2.0, 1: -1.0}, np.array([]), np.arange(5), np.full(3, np.nan), np.array([1e-308]),
    np.array([1, 2], dtype=np.int8), object(), abs, "xyz", "poisson:5,6", "point:10,20", "finite:1",
    "poisson:1e-10", "geometric:40",
]

hostile = st.one_of(
    st.sampled_from(_EDGE),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**400), max_value=10**400),
    st.text(max_size=6),
    st.lists(st.one_of(st.integers(-(2**70), 2**70), st.floats()), max_size=4),
)

# =========================================================================== the API


@dataclasses.dataclass
class Target:
    id: str
    func: object
    params: list  # names of the parameters that may be fuzzed
    positional: list  # names passed positionally
    baseline: dict | None
    required: list = dataclasses.field(default_factory=list)
    seconds: float = 0.0  # the baseline call's CPU time

    @property
    def examples(self) -> int:
        """Default-run examples: fewer for callables whose valid call is slow (simulations).

        Decided by the baseline's CPU time, so the number of examples does not depend
        on how loaded the machine is.
        """
        return EXAMPLES if self.seconds < 0.2 else max(2, int(EXAMPLES * 0.2 / self.seconds))


def _modules():
    yield bounds
    for info in pkgutil.walk_packages(bounds.__path__, "bounds."):
        if info.name.rsplit(".", 1)[-1].startswith("_"):
            continue  # __main__ would run the command line
        yield importlib.import_module(info.name)


def _is_result_container(obj) -> bool:
    """A dataclass that only holds values (no validation of its own) is a result, not an entry point."""
    return dataclasses.is_dataclass(obj) and not hasattr(obj, "__post_init__")


def _public_callables():
    exported = []
    for mod in _modules():
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name, None)
            if obj is None or inspect.ismodule(obj) or not callable(obj):
                continue
            if inspect.isclass(obj) and (issubclass(obj, BaseException) or inspect.isabstract(obj)
                                         or _is_result_container(obj)):
                continue
            exported.append((f"{mod.__name__}.{name}", obj))
    seen = {id(obj) for qual, obj in exported if qual in SKIP}
    for qual, obj in exported:
        if id(obj) not in seen:
            seen.add(id(obj))
            yield qual, obj


def _signature(func):
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return None
    return [p for p in sig.parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _call(func, positional, kwargs):
    args = [kwargs[p] for p in positional if p in kwargs]
    return func(*args, **{k: v for k, v in kwargs.items() if k not in positional})


def _baseline(func, params):
    """The first combination of valid values (by parameter name) for which ``func`` returns.

    The required parameters first; then with one or two optional parameters that have
    listed values (``n_alpha2`` instead of the default ``None``, ``reps=4``, …).
    """
    required = [p.name for p in params if p.default is p.empty]
    optional = [p.name for p in params if p.default is not p.empty and p.name in VALID]
    positional = [p.name for p in params if p.kind == p.POSITIONAL_ONLY]
    tries = 0
    for extra in itertools.chain([()], itertools.combinations(optional, 1), itertools.combinations(optional, 2)):
        names = required + list(extra)
        options = [VALID.get(name, GENERIC) for name in names]
        for combo in itertools.islice(itertools.product(*options), 24):
            tries += 1
            if tries > 120:
                break
            kwargs = dict(zip(names, combo))
            outcome = _run(func, positional, kwargs, seconds=CALL_SECONDS)
            if outcome.returned:
                return kwargs, outcome
    return None, None


def _targets():
    out = []
    for qual, func in _public_callables():
        params = _signature(func)
        if params is None:
            continue
        baseline, outcome = _baseline(func, params)
        result = outcome.result if outcome is not None else None
        positional = [p.name for p in params if p.kind == p.POSITIONAL_ONLY]
        fuzzed = [p.name for p in params if p.name not in TRUSTED.get(qual, ())]
        required = [p.name for p in params if p.default is p.empty]
        out.append(Target(qual, func, fuzzed, positional, baseline, required, outcome.seconds if outcome else 0.0))
        # bound methods of a returned object of a bounds class (a size law's pmf, sample, ...)
        cls = type(result)
        if result is None or not cls.__module__.startswith("bounds") or dataclasses.is_dataclass(result):
            continue
        for mname, _ in inspect.getmembers(cls, callable):
            mqual = f"{cls.__module__}.{cls.__name__}.{mname}"
            if mname.startswith("_") or mqual in SKIP or any(t.id == mqual for t in out):
                continue
            method = getattr(result, mname)
            mparams = _signature(method)
            if mparams is None:
                continue
            mbase, mout = _baseline(method, mparams)
            mreq = [p.name for p in mparams if p.default is p.empty]
            out.append(Target(mqual, method, [p.name for p in mparams], [], mbase, mreq, mout.seconds if mout else 0.0))
    return out


# =========================================================================== one checked call


class CallTimeout(BaseException):
    """Raised by the CPU-time timer: not an ``Exception``, so library code cannot swallow it."""


@dataclasses.dataclass
class Outcome:
    returned: bool
    result: object = None
    error: BaseException | None = None
    warnings: tuple = ()
    seconds: float = 0.0  # CPU time of the call


def _on_alarm(signum, frame):
    raise CallTimeout()


def _address_space() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _run(func, positional, kwargs, *, seconds: float) -> Outcome:
    """Call under a CPU-time limit and a memory cap, recording every warning.

    ``ITIMER_PROF`` counts down only while the process runs (user and system CPU
    time, all threads), and its ``SIGPROF`` is the only guard: no wall-clock limit,
    so time spent waiting for a busy CPU never counts.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = _address_space() + MEMORY_BYTES
    previous = signal.signal(signal.SIGPROF, _on_alarm)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
            signal.setitimer(signal.ITIMER_PROF, seconds)
            start = time.process_time()
            try:
                result = _call(func, positional, kwargs)
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
                resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        except CallTimeout as exc:
            return Outcome(False, error=exc, warnings=tuple(caught))
        except Exception as exc:  # classified by the caller
            return Outcome(False, error=exc, warnings=tuple(caught))
        finally:
            signal.signal(signal.SIGPROF, previous)
    return Outcome(True, result=result, warnings=tuple(caught), seconds=time.process_time() - start)


def _has_nan(obj, depth: int = 0) -> bool:
    if depth > 6:
        return False
    if isinstance(obj, (float, np.floating)):
        return math.isnan(obj)
    if isinstance(obj, mpmath.mpf):
        return mpmath.isnan(obj)
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind in "fc":
            return bool(np.isnan(obj).any())
        return obj.dtype == object and any(_has_nan(v, depth + 1) for v in obj.flat)
    if isinstance(obj, dict):
        return any(_has_nan(v, depth + 1) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return any(_has_nan(v, depth + 1) for v in obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return any(_has_nan(getattr(obj, f.name), depth + 1) for f in dataclasses.fields(obj))
    return False


def _names_a_parameter(message: str, params) -> bool:
    return any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(p)}(?![A-Za-z0-9_])", message) for p in params)


_EXTRA = re.compile(r"needs \w+, of the \[(\w+)\] extra: pip install 'bounds\[\1\]'")


def _needs_an_extra(message: str) -> bool:
    """A message naming the optional extra a call needs (``... needs duckdb, of the [data] extra: pip install
    'bounds[data]'``), given only when that extra's package cannot be imported."""
    match = _EXTRA.search(message)
    return match is not None and match.group(1) in _MISSING_EXTRAS


def _missing_extras() -> set[str]:
    import importlib.util

    return {"data"} if importlib.util.find_spec("duckdb") is None else set()


_MISSING_EXTRAS = _missing_extras()


def verdict(target: Target, kwargs: dict, *, seconds: float = CALL_SECONDS) -> str | None:
    """``None`` if the call behaves; otherwise what went wrong, with the call."""
    shown = ", ".join(f"{k}={_short(v)}" for k, v in kwargs.items())
    call = f"{target.id}({shown})"
    out = _run(target.func, target.positional, kwargs, seconds=seconds)
    foreign = [w for w in out.warnings if not issubclass(w.category, PaperAssumptionWarning)]
    if foreign:
        w = foreign[0]
        return f"{call} warned {w.category.__name__}: {w.message}"
    if isinstance(out.error, CallTimeout):
        return f"{call} used more than {seconds:g} s of CPU time"
    if out.error is not None:
        if not isinstance(out.error, (ValueError, TypeError)):
            return f"{call} raised {type(out.error).__name__}: {_short(str(out.error))}"
        named = list(target.params) + ([str(kwargs["name"])] if "name" in TRUSTED.get(target.id, ()) else [])
        if isinstance(out.error, ValueError) and _needs_an_extra(str(out.error)):
            return None  # a documented limit: the optional extra is not installed (a [test]-only install)
        if not _names_a_parameter(str(out.error), named):
            return f"{call} raised {type(out.error).__name__} naming no parameter: {_short(str(out.error))}"
        return None
    if _has_nan(out.result):
        return f"{call} returned NaN: {_short(out.result)}"
    return None


def _short(v, width: int = 160) -> str:
    text = repr(v)
    return text if len(text) <= width else text[: width - 3] + "..."


# =========================================================================== known failures elsewhere

# Failures in modules whose fixes belong to their own changes: callable id → (the
# arguments that replace the baseline's in a reproducer, what goes wrong).  The
# reproducer runs first; the tests are strict xfail, so once a callable is fixed its
# test passes, fails the run, and its entry must be removed here.
KNOWN: dict[str, tuple[dict, str]] = {}


# Silent wrong numbers found by the issue 38 re-run in modules fixed elsewhere (bounds.sizes, bounds.dame):
# strict xfail, so each fails the run once fixed.
def test_binomial_next_to_one_follows_the_printed_definition_not_its_point_mass():
    """binomial(2**62, 1 - 1e-16) is not point(2**62) for eq. (12) as printed: where phi(a) > 1 the `∧ 1`
    asks P(m >= a) = 1 exactly, which the binomial (masses at 0 and 1, however small) has only for a <= 1
    and the point mass has for every a <= 2**62 (Pla et al., 2024, eq. (12); docs/choices.md §1.4).  At
    n alpha^2 = 1, phi(a) >= c5 ln(8 / ln 8) > 1 for every a (c5 = 1737/2, y >= c4 = 8), so
    m~ = 1 and the bound is the trivial 4; both paths agree."""
    law = sizes.binomial(2**62, 1 - 1e-16)
    for kw in ({}, {"precision": 40}):
        r = bounds.dame.upper_bound(law, n_alpha2=1.0, **kw)
        assert (r.m_tilde, float(r.value)) == (1, 4.0)
    assert bounds.dame.upper_bound(sizes.point(2**62), n_alpha2=1.0).m_tilde == 2**62
    assert (bounds.dame.upper_bound(law, n_alpha2=1e4).m_tilde
            == bounds.dame.upper_bound(law, n_alpha2=1e4, precision=40).m_tilde)


# =========================================================================== the tests

TARGETS = _targets()


def _fuzz(target: Target, examples: int, seconds: float) -> None:
    base = dict(target.baseline or {})
    missing = [p for p in target.params if p not in base and p in target.required]

    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              phases=(Phase.explicit, Phase.generate), suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def prop(data):
        kwargs = dict(base)
        if target.baseline is None:  # no valid call known: every required argument is hostile
            chosen = [p for p in target.params if p in missing]
        else:
            chosen = data.draw(st.lists(st.sampled_from(target.params), min_size=1, max_size=2, unique=True))
        for p in chosen:
            kwargs[p] = data.draw(hostile, label=p)
        problem = verdict(target, kwargs, seconds=seconds)
        assert problem is None, problem

    if target.params:
        prop()


def _param(target: Target):
    marks = []
    if target.id in KNOWN:
        marks.append(pytest.mark.xfail(strict=True, reason=KNOWN[target.id][1]))
    return pytest.param(target, id=target.id, marks=marks)


def _reproduce_known(target: Target) -> None:
    if target.id in KNOWN:
        problem = verdict(target, {**(target.baseline or {}), **KNOWN[target.id][0]}, seconds=3.0)
        assert problem is None, problem


@pytest.mark.parametrize("target", [_param(t) for t in TARGETS])
def test_public_callable_survives_hostile_input(target):
    _reproduce_known(target)
    _fuzz(target, target.examples, CALL_SECONDS)


@pytest.mark.slow
@pytest.mark.parametrize("target", [_param(t) for t in TARGETS])
def test_public_callable_survives_hostile_input_exhaustive(target):
    _reproduce_known(target)
    _fuzz(target, EXAMPLES_SLOW, 4 * CALL_SECONDS)


def test_the_time_limit_counts_cpu_time_not_wall_time():
    """Waiting (a loaded machine, a sleep) never trips the limit; computing does."""
    def spin(cpu: float) -> float:
        start = time.process_time()
        while time.process_time() - start < cpu:
            pass
        return cpu

    slept = _run(time.sleep, ["secs"], {"secs": 0.6}, seconds=0.2)
    assert slept.returned and slept.seconds < 0.2
    spun = _run(spin, [], {"cpu": 2.0}, seconds=0.2)
    assert isinstance(spun.error, CallTimeout)


def test_the_api_is_enumerated():
    """The enumeration sees every module's public functions (a guard against an empty suite)."""
    ids = {t.id for t in TARGETS}
    for must in ("bounds.cummings.k_star", "bounds.rameshwar.sensitivities", "bounds.kent.covering",
                 "bounds.numerics.check_real", "bounds.sizes.point", "bounds.dame.Constants"):
        assert must in ids
    assert len(TARGETS) >= 100
    assert sum(t.baseline is not None for t in TARGETS) >= 0.8 * len(TARGETS)


# =========================================================================== the command line

_CLI_BASE = {
    "dame": ["--sizes", "poisson:5", "--n-alpha2", "10"],
    "rameshwar": ["--collection", "counts:3,1,2", "--eps", "1"],
    "kent": ["--n", "100", "--T", "10", "--alpha", "0.5"],
    "cummings": ["--k", "5,3,1", "--eps", "1"],
}
_CLI_OPTIONS = {
    "dame": ["--sizes", "--n", "--alpha", "--n-alpha2", "--constants", "--precision", "--sweep", "--range"],
    "rameshwar": ["--collection", "--U", "--eps", "--sweep", "--range"],
    "kent": ["--problem", "--n", "--T", "--alpha", "--d", "--s", "--beta", "--ball", "--sweep", "--range"],
    "cummings": ["--k", "--eps", "--p", "--sigma-p2", "--beta", "--sweep", "--range"],
}
_CLI_VALUES = [
    "", "0", "-1", "1", "2", "0.5", "nan", "inf", "-inf", "1e400", "1e-400", "1e308", "1e-308", "1" * 400, "abc",
    "True", "poisson:5,6", "point:10,20", "point:" + "1" * 30, "geometric:40", "finite:1", "finite:1=0.5,2=0.5",
    "uniform:1,9", "zipf:1.5", "poisson:1e-10", "binomial:1000000000,1e-9", "counts:1,2", "counts:", "extreme:3",
    "extreme:101,10", "geometric:6", "1,2,3", "1e308,5,1", "9" * 25 + ",5", "3,,2", "l2", "xyz", "sparse", "density",
    "paper", "unit", "1000000",
    # sweeps and ranges past the float range or 2**53 (they raised OverflowError)
    "n_alpha2=1e-300:1e300:3", "n=2:1e400:3", "eps=1e-300:1e300:3", "eps=1e-3:1e400:3", "T=1:1e400:3", "n=1:1e300:3",
    "1e-300:1e300", "2:1e400", "1:9007199254740993",
]
cli_value = st.one_of(st.sampled_from(_CLI_VALUES), st.text(max_size=8),
                      st.floats().map(repr), st.integers(-(10**40), 10**40).map(str))


def _no_nonfinite(token):
    raise AssertionError(f"non-finite number {token} in --json output")


def cli_verdict(argv: list) -> str | None:
    """``None`` if ``bounds <argv>`` exits 0 (valid JSON with ``--json``) or 2 with one line naming an option."""
    import contextlib
    import io
    import json

    from bounds import cli

    out, err = io.StringIO(), io.StringIO()
    code: object = None

    def call():
        nonlocal code
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(argv)
            except SystemExit as exc:  # argparse: usage and one error line
                code = ("argparse", exc.code)

    outcome = _run(call, [], {}, seconds=CALL_SECONDS)
    shown = "bounds " + " ".join(argv)
    if isinstance(outcome.error, CallTimeout):
        return f"{shown} used more than {CALL_SECONDS:g} s of CPU time"
    if outcome.error is not None:
        return f"{shown} raised {type(outcome.error).__name__}: {outcome.error}"
    foreign = [w for w in outcome.warnings if not issubclass(w.category, PaperAssumptionWarning)]
    if foreign:
        return f"{shown} warned {foreign[0].category.__name__}: {foreign[0].message}"
    if code == ("argparse", 2):
        return None if "error: argument" in err.getvalue() else f"{shown}: argparse exit without naming the argument"
    if code == 0:
        if "--json" in argv:
            try:
                json.loads(out.getvalue(), parse_constant=_no_nonfinite)
            except (ValueError, AssertionError) as exc:
                return f"{shown} --json printed no strict JSON: {exc}"
        return None
    lines = err.getvalue().strip().splitlines()
    if code != 2 or len(lines) != 1 or not lines[0].startswith(f"bounds {argv[0]}: error: "):
        return f"{shown} exited {code!r} with stderr {err.getvalue()!r}"
    if "--" not in lines[0]:
        return f"{shown}: the error names no option: {lines[0]}"
    return None


def _cli_fuzz(command: str, examples: int) -> None:
    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              phases=(Phase.explicit, Phase.generate), suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def prop(data):
        argv = [command, *_CLI_BASE[command]]
        for option in data.draw(st.lists(st.sampled_from(_CLI_OPTIONS[command]), min_size=1, max_size=2, unique=True)):
            argv += [option, data.draw(cli_value, label=option)]
        if data.draw(st.booleans(), label="--json"):
            argv.append("--json")
        problem = cli_verdict(argv)
        assert problem is None, problem

    prop()


@pytest.mark.parametrize("command", sorted(_CLI_BASE))
def test_command_line_survives_hostile_options(command):
    _cli_fuzz(command, EXAMPLES)


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(_CLI_BASE))
def test_command_line_survives_hostile_options_exhaustive(command):
    _cli_fuzz(command, EXAMPLES_SLOW)


def test_every_known_failure_is_still_a_public_callable():
    """A renamed or removed callable leaves a stale entry: remove it (or rename it) in KNOWN."""
    assert set(KNOWN) <= {t.id for t in TARGETS}
