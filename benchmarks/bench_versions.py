"""Interleaved CPU time of the 100 x 100 ``dame.grid`` maps: this tree against a git revision, in one process.

The revision's package is extracted with ``git archive`` into a temporary folder and imported beside this
one under the name ``bounds_rev`` (the DAME and size-law modules import each other relatively).  Each
map alternates between the two versions call by call, so that the machine's speed swings hit both alike;
the table gives each version's median and best CPU time and the median of the pairwise ratios.

Run: ``python benchmarks/bench_versions.py REV [--repeat N]`` (from the repository root; N = 7 by default).
"""

import argparse
import importlib
import io
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

from bench_regimes import MAPS  # this directory's maps: (family, parameters)
from bounds import dame

ROOT = Path(__file__).resolve().parents[1]


def load_revision(rev: str, folder: Path):
    """The ``bounds`` package of ``rev`` as ``bounds_rev`` (its ``dame`` and ``sizes`` modules)."""
    archive = subprocess.run(["git", "archive", "--format=tar", rev, "bounds"], cwd=ROOT, check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    (folder / "bounds").rename(folder / "bounds_rev")
    sys.path.insert(0, str(folder))
    return importlib.import_module("bounds_rev.dame"), importlib.import_module("bounds_rev.sizes")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rev", help="the git revision to compare with (e.g. a commit or HEAD~3)")
    ap.add_argument("--repeat", type=int, default=7, help="runs of each version per map (alternated)")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    xs = np.geomspace(1.0, 1e12, 100)
    with tempfile.TemporaryDirectory() as tmp:
        rev_dame, rev_sizes = load_revision(args.rev, Path(tmp))
        print(f"100 x 100 maps, CPU s (time.process_time), {args.repeat} interleaved runs each: {args.rev} vs this tree")
        print(f"{'map':32s} {'rev median':>10s} {'rev best':>9s} {'this median':>11s} {'this best':>9s} {'ratio':>6s}")
        for label, (family, ps) in MAPS.items():
            runs = {"rev": [], "this": []}
            fam_rev = family if isinstance(family, str) else (lambda p: rev_sizes.binomial(1000, p))
            calls = {"rev": lambda: rev_dame.grid(fam_rev, ps, xs), "this": lambda: dame.grid(family, ps, xs)}
            rev_dame.grid(fam_rev, ps[:2], xs)  # imports and first-use set-up, both versions
            dame.grid(family, ps[:2], xs)
            for r in range(args.repeat):
                for key in (("rev", "this") if r % 2 == 0 else ("this", "rev")):
                    t = time.process_time()
                    calls[key]()
                    runs[key].append(time.process_time() - t)
            ratio = statistics.median(b / a for a, b in zip(runs["rev"], runs["this"]))
            print(f"{label:32s} {statistics.median(runs['rev']):10.2f} {min(runs['rev']):9.2f} "
                  f"{statistics.median(runs['this']):11.2f} {min(runs['this']):9.2f} {ratio:6.2f}")


if __name__ == "__main__":
    main()
