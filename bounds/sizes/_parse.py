r"""Text specs of size laws (``poisson:5``), as the command line takes them.

Computes nothing: every spec builds a law with its public constructor.
"""

from __future__ import annotations

from typing import Callable


from ._base import SizeLaw
from ._finite import empirical, finite, point, uniform
from ._scipy import binomial, poisson
from ._geometric import geometric
from ._zipf import zipf


# parameters of the fixed-arity specs (empirical and finite take any number of entries)
_ARITY = {"poisson": ("lam",), "binomial": ("N", "p"), "uniform": ("lo", "hi"), "point": ("m",),
          "geometric": ("p",), "zipf": ("s",)}

_PARSERS: dict[str, Callable] = {
    "poisson": lambda xs: poisson(float(xs[0])),
    "binomial": lambda xs: binomial(int(xs[0]), float(xs[1])),
    "uniform": lambda xs: uniform(int(xs[0]), int(xs[1])),
    "point": lambda xs: point(int(xs[0])),
    "geometric": lambda xs: geometric(float(xs[0])),
    "zipf": lambda xs: zipf(float(xs[0])),
    "empirical": lambda xs: empirical([int(x) for x in xs]),
    "finite": lambda xs: finite({int(k): float(v) for k, v in (x.split("=") for x in xs)}),
}


def parse(spec: str) -> SizeLaw:
    """Build a law from a short text spec, as the command line takes it.

    ``poisson:5``, ``binomial:1000,0.005``, ``uniform:1,9``, ``point:10``,
    ``geometric:0.2``, ``zipf:2.5``, ``finite:1=0.5,100=0.5``, ``empirical:1,1,3,5``.

    Examples
    --------
    >>> parse("uniform:1,9")
    uniform(lo=1, hi=9)
    >>> parse("cauchy:1")
    Traceback (most recent call last):
    ...
    ValueError: spec 'cauchy:1': unknown size law 'cauchy'; choose one of binomial, empirical, finite, geometric, point, poisson, uniform, zipf
    """
    if not isinstance(spec, str):
        raise ValueError(f"spec must be a string such as 'poisson:5', got {spec!r}")
    kind, _, rest = spec.partition(":")
    kind = kind.strip().lower()
    if kind not in _PARSERS:
        raise ValueError(f"spec {spec!r}: unknown size law {kind!r}; choose one of {', '.join(sorted(_PARSERS))}")
    args = [x.strip() for x in rest.split(",") if x.strip()]
    names = _ARITY.get(kind)
    if names is not None and len(args) != len(names):
        raise ValueError(f"spec {spec!r}: {kind} takes {len(names)} parameter(s) ({', '.join(names)}), got {len(args)}")
    try:
        return _PARSERS[kind](args)
    except (IndexError, TypeError) as exc:
        raise ValueError(f"spec {spec!r} cannot be read: {exc}") from None
    except ValueError as exc:
        raise ValueError(f"spec {spec!r}: {exc}") from None

