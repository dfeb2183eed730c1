"""Progress bars: tqdm's notebook bar where ipywidgets can draw it, its plain-text bar elsewhere.

``tqdm.auto`` warns (TqdmWarning "IProgress not found") in a Jupyter kernel without ipywidgets;
the plain bar says the same on stderr without the warning.
"""

import sys


def _widgets() -> bool:
    if "ipykernel" not in sys.modules:  # a terminal or a script: tqdm.auto would pick the plain bar
        return False
    try:
        import ipywidgets  # noqa: F401
    except ImportError:
        return False
    return True


if _widgets():
    from tqdm.auto import tqdm
else:
    from tqdm.std import tqdm

__all__ = ["tqdm"]
