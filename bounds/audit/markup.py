r"""Markdown for the audit's documentation pages: formulas as TeX math, the rest escaped plain text.

The statements and claims are stored in plain Unicode (what ``bounds check --atlas`` and ``--statement``
print).  :data:`FORMULAS` maps each formula fragment of them that carries TeX-like markup (``e^{…}``,
``π_{α/6}``, ``Σ_{i<m̃}``) to its TeX form; :func:`md` emits those fragments as ``$…$`` (MyST's
dollarmath) and escapes everything else that MyST would read as markup (``$``, ``*``, a ``_`` at a word's
edge, ``<``, ``|`` of a table).  Formatting only: no value is computed here.

Examples
--------
>>> md("Hoeffding: P(|X̄_i − θ| ≥ τ) ≤ 2e^{−iτ²/2}")
'Hoeffding: $P(\\lvert\\bar X_i - \\theta\\rvert \\ge \\tau) \\le 2e^{-i\\tau^2/2}$'
"""

from __future__ import annotations

import re

__all__ = ["FORMULAS", "md"]

FORMULAS: dict[str, str] = {
    # Pla, Richard and Vono (2024)
    "τ = √(2 ln(8(√(m̃nα²) ∨ 1))/m̃)": r"\tau = \sqrt{2\ln(8(\sqrt{\tilde m n\alpha^2} \vee 1))/\tilde m}",
    "1 − 4e^{−m̃τ²/2} ≥ 1/2": r"1 - 4e^{-\tilde m\tau^2/2} \ge 1/2",
    "R ≥ max_a c1 e^{−c2 nα² P(m>a)²}/(nα² E[√m 1{m≤a}]² ∨ 1)":
        r"R \ge \max_a c_1 e^{-c_2 n\alpha^2 P(m>a)^2}/(n\alpha^2 E[\sqrt m\,1\{m\le a\}]^2 \vee 1)",
    "c1 = e⁻⁹/16": r"c_1 = e^{-9}/16",
    "c2 = 24": r"c_2 = 24",
    "Ω(e^{−cnα²} ∧ (mnα²)⁻¹)": r"\Omega(e^{-cn\alpha^2} \wedge (mn\alpha^2)^{-1})",
    "Ω(e^{−c nα²} ∧ (mnα²)^{−1})": r"\Omega(e^{-c n\alpha^2} \wedge (mn\alpha^2)^{-1})",
    "1 − D_TV ≥ e^{−KL}/2": r"1 - D_{\mathrm{TV}} \ge e^{-\mathrm{KL}}/2",
    "θ = √m̃/E[√(m∧m̃)]·E[X̄ 1{m ≥ m̃}] + Σ_{i<m̃} √i E[X̄ 1{m=i}]/E[√(m∧m̃)]":
        r"\theta = \sqrt{\tilde m}/E[\sqrt{m\wedge\tilde m}]\cdot E[\bar X\,1\{m \ge \tilde m\}]"
        r" + \sum_{i<\tilde m} \sqrt i\,E[\bar X\,1\{m=i\}]/E[\sqrt{m\wedge\tilde m}]",
    "P(|X̄_i − θ| ≥ τ) ≤ 2e^{−iτ²/2}": r"P(\lvert\bar X_i - \theta\rvert \ge \tau) \le 2e^{-i\tau^2/2}",
    "p_l − p_k ≥ (π_{α/6} − 1/2) P(m ≥ m̃)": r"p_l - p_k \ge (\pi_{\alpha/6} - 1/2)\,P(m \ge \tilde m)",
    "P(Z_l ≤ Z_k) ≤ exp(−n/4 (p_l − p_k)²) ≤ exp(−n/4 (π_{α/6} − 1/2)² P²)":
        r"P(Z_l \le Z_k) \le \exp(-n/4\,(p_l - p_k)^2) \le \exp(-n/4\,(\pi_{\alpha/6} - 1/2)^2 P^2)",
    "(π_{α/6} − 1/2)² ≥ α²/579": r"(\pi_{\alpha/6} - 1/2)^2 \ge \alpha^2/579",
    "α²/(π_{α/6} − 1/2)² ≤ 579": r"\alpha^2/(\pi_{\alpha/6} - 1/2)^2 \le 579",
    "exp(−n/4·(π_{α/6} − 1/2)²P²) ≤ exp(−nα²P²/579)":
        r"\exp(-n/4\cdot(\pi_{\alpha/6} - 1/2)^2P^2) \le \exp(-n\alpha^2P^2/579)",
    "2·Σ_{i≤m̃} P(B̄_i, m = i) ≤ 1/(2√(m̃nα²))":
        r"2\cdot\sum_{i\le\tilde m} P(\bar B_i, m = i) \le 1/(2\sqrt{\tilde m n\alpha^2})",
    "exp(−nα²P(m ≥ m̃)²/579) ≤ (ln y/y)^{3/2}": r"\exp(-n\alpha^2P(m \ge \tilde m)^2/579) \le (\ln y/y)^{3/2}",
    "y = 8(m̃nα² ∨ 1)": r"y = 8(\tilde m n\alpha^2 \vee 1)",
    # Kent, Berrett and Yu (2024)
    "c{1/(nTα²) ∨ e^{−cnα²}} ≲ R": r"c\{1/(nT\alpha^2) \vee e^{-cn\alpha^2}\} \lesssim R",
    "e^{−cnα²/s}": r"e^{-cn\alpha^2/s}",
    "T† ≈ (nα²)^{2β+1}": r"T^\dagger \approx (n\alpha^2)^{2\beta+1}",
    "e^{α/(2k)}/(1+e^{α/(2k)})": r"e^{\alpha/(2k)}/(1+e^{\alpha/(2k)})",
    "e^{alpha/k}/(1 + e^{alpha/k})": r"e^{\alpha/k}/(1 + e^{\alpha/k})",
    "log N(δ) ≍ δ^{−1/β}": r"\log N(\delta) \asymp \delta^{-1/\beta}",
    "τ = √(2 log(nT*α²)/T*)": r"\tau = \sqrt{2\log(nT^*\alpha^2)/T^*}",
    "1/(1+e^{α/6})": r"1/(1+e^{\alpha/6})",
    "1/(1 + e^{α/6})": r"1/(1 + e^{\alpha/6})",
    "1/(1 + e^{alpha/3})": r"1/(1 + e^{\alpha/3})",
    "1/(nT*α²)": r"1/(nT^*\alpha^2)",
    # Cummings, Feldman, McMillan and Talwar (2022)
    "(1/τ) e^{−nα²P²/579}": r"(1/\tau)\, e^{-n\alpha^2P^2/579}",
    "P(Z_l ≤ Z_k) ≤ exp(−n/4 (p_l − p_k)²) ≤ exp(−n/4 (π_{α/6} − 1/2)² P(m ≥ m̃)²)":
        r"P(Z_l \le Z_k) \le \exp(-n/4\,(p_l - p_k)^2) \le \exp(-n/4\,(\pi_{\alpha/6} - 1/2)^2 P(m \ge \tilde m)^2)",
    "p_j = (2π_{α/6} − 1)P(V_j = 1) + 1 − π_{α/6}": r"p_j = (2\pi_{\alpha/6} - 1)P(V_j = 1) + 1 - \pi_{\alpha/6}",
    "(2π − 1)P(1 − 4e^{−m̃τ²/2})": r"(2\pi - 1)P(1 - 4e^{-\tilde m\tau^2/2})",
    "√m̃ − Σ_{i≤m̃}(√m̃ − √i)M(i) = E[√(m ∧ m̃)]":
        r"\sqrt{\tilde m} - \sum_{i\le\tilde m}(\sqrt{\tilde m} - \sqrt i)M(i) = E[\sqrt{m \wedge \tilde m}]",
    "A = {|ĵ − l| ≤ 2} = ∩_{k : |l − k| > 2} {Z_l > Z_k}":
        r"A = \{\lvert\hat\jmath - l\rvert \le 2\} = \bigcap_{k : \lvert l - k\rvert > 2} \{Z_l > Z_k\}",
    "A = {|ĵ − l| ≤ 2} = ∩_{|l−k|>2} {Z_l > Z_k}":
        r"A = \{\lvert\hat\jmath - l\rvert \le 2\} = \bigcap_{\lvert l-k\rvert>2} \{Z_l > Z_k\}",
    "P(Ā) ≤ Σ_{|k−l|>2} P(Z_l ≤ Z_k) ≤ (1/τ) exp(−nα² P(m ≥ m̃)²/579)":
        r"P(\bar A) \le \sum_{\lvert k-l\rvert>2} P(Z_l \le Z_k) \le (1/\tau) \exp(-n\alpha^2 P(m \ge \tilde m)^2/579)",
    "P(Ā) ≤ Σ_{|j−l|>2} P(Z_l ≤ Z_j) ≤ (1/τ) exp(−nα²P²/579)":
        r"P(\bar A) \le \sum_{\lvert j-l\rvert>2} P(Z_l \le Z_j) \le (1/\tau) \exp(-n\alpha^2P^2/579)",
    "σ²_{k_med} ≤ (n/2 − log n)/log n · σ²_{k_max}":
        r"\sigma^2_{k_{\mathrm{med}}} \le (n/2 - \log n)/\log n \cdot \sigma^2_{k_{\max}}",
}
"""Plain Unicode formula (as stored in the registry and the checks) → its TeX form (no ``$``, no ``|``)."""

_FRAGMENT = re.compile("|".join(re.escape(k) for k in sorted(FORMULAS, key=len, reverse=True)))


def _plain(text: str) -> str:
    """``text`` with every character MyST would read as markup escaped."""
    t = text.replace("\\", "\\\\")
    for ch in "$*<|":
        t = t.replace(ch, "\\" + ch)
    return re.sub(r"(?<!\w)_|_(?!\w)", r"\\_", t)


def md(text: str) -> str:
    r"""``text`` as MyST Markdown safe in a table cell: each fragment of :data:`FORMULAS` as ``$TeX$``,
    the rest escaped plain text (a ``$``, ``*``, ``<``, ``|``, backslash, and a ``_`` not inside a word).

    Examples
    --------
    >>> md("keep e^{α/(2k)}/(1+e^{α/(2k)}) at $1 | w_i* and _x")
    'keep $e^{\\alpha/(2k)}/(1+e^{\\alpha/(2k)})$ at \\$1 \\| w_i\\* and \\_x'
    """
    text = str(text)
    out, last = [], 0
    for m in _FRAGMENT.finditer(text):
        out += [_plain(text[last:m.start()]), "$" + FORMULAS[m.group()] + "$"]
        last = m.end()
    out.append(_plain(text[last:]))
    return "".join(out)
