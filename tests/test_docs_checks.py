"""The documentation checks can fail: a page whose formulas would stay raw TeX offline is
named by check_site.py, and a rendered DOM without typeset output by render_check.py."""

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"
sys.path.insert(0, str(DOCS))

import check_site  # noqa: E402
import render_check  # noqa: E402

PAGE = '<html><head>{script}</head><body><p>Text <span class="math notranslate">\\(n\\alpha^2\\)</span>{extra}</p></body></html>'


def _site(tmp_path, script, extra=""):
    (tmp_path / "index.html").write_text(PAGE.format(script=script, extra=extra))
    return tmp_path


def test_math_from_a_cdn_or_without_mathjax_fails(tmp_path):
    for script in ('<script src="https://cdn.example/mathjax/tex-chtml.js"></script>', ""):
        problems = []
        check_site.check_offline_math(_site(tmp_path, script), problems)
        assert problems, script


def test_local_mathjax_passes_and_a_missing_file_fails(tmp_path):
    site = _site(tmp_path, '<script src="_static/mathjax/tex-chtml.js"></script>')
    problems = []
    check_site.check_offline_math(site, problems)
    assert problems and "missing" in problems[0]
    (site / "_static" / "mathjax").mkdir(parents=True)
    (site / "_static" / "mathjax" / "tex-chtml.js").write_text("")
    problems = []
    assert check_site.check_offline_math(site, problems) == (1, 1) and problems == []


def test_raw_tex_outside_math_fails(tmp_path):
    (tmp_path / "_static" / "mathjax").mkdir(parents=True)
    (tmp_path / "_static" / "mathjax" / "tex-chtml.js").write_text("")
    site = _site(tmp_path, '<script src="_static/mathjax/tex-chtml.js"></script>', extra=" and $$x$$")
    problems = []
    check_site.check_offline_math(site, problems)
    assert problems == ["index.html: shows raw TeX '$$' outside a math element"]


def test_rendered_dom_without_typeset_output_is_named():
    raw = render_check.Rendered()
    raw.feed('<p><span class="math">\\(x^2\\)</span></p>')
    assert raw.untypeset == ["\\(x^2\\)"] and raw.typeset == 0
    done = render_check.Rendered()
    done.feed('<p><span class="math"><mjx-container><mjx-math>x</mjx-math></mjx-container></span> text</p>')
    assert done.untypeset == [] and done.typeset == 1 and "\\(" not in " ".join(done.text)
    broken = render_check.Rendered()
    broken.feed('<span class="math"><mjx-container><mjx-merror>x</mjx-merror></mjx-container></span>')
    assert broken.errors == 1


def test_tex_in_inline_code_is_meant_to_show(tmp_path):
    (tmp_path / "index.html").write_text('<html><body><p>Type <code>\\(x\\)</code> or <code>$$</code>.</p></body></html>')
    problems = []
    assert check_site.check_offline_math(tmp_path, problems) == (0, 0) and problems == []


def test_the_static_files_conf_lists_exist():
    """conf.py's html_css_files and html_js_files are files of docs/_static (read without running
    conf.py, which generates the pages)."""
    import ast

    tree = ast.parse((DOCS / "conf.py").read_text())
    listed = {}
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id in ("html_css_files", "html_js_files", "html_static_path"):
            listed[target.id] = ast.literal_eval(node.value)
    assert listed["html_static_path"] == ["_static"]
    files = listed["html_css_files"] + listed["html_js_files"]
    assert {"wide.css", "fit-math.js"} <= set(files)
    assert all((DOCS / "_static" / name).is_file() for name in files)
