"""Tests of the command line's options: help, integers, --counts files, --json/--save, hostile input."""

import argparse
import json
import subprocess
import sys

import pytest

from bounds import cli
from bounds.cli import _common


def _fails(capsys, argv, *needles):
    """``bounds <argv>`` exits 2 with one line on stderr naming the option, no traceback."""
    try:
        code = cli.main(argv)
    except SystemExit as exc:  # argparse: usage, then one error line naming the argument
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err and "Traceback" not in "\n".join(err)
    assert err[-1].startswith(f"bounds {argv[0]}: error: "), err[-1]
    for needle in needles:
        assert needle in err[-1], err[-1]


def _subparsers():
    parser = cli.build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sub.choices


# --------------------------------------------------------------------------- help


def test_every_option_has_help_and_shows_its_default():
    for name, parser in _subparsers().items():
        text = parser.format_help()
        for action in parser._actions:
            if action.option_strings and action.dest != "help":
                assert action.help, (name, action.option_strings)
                if action.default not in (None, False, argparse.SUPPRESS):
                    assert "(default" in _common.HelpFormatter("bounds")._get_help_string(action), (name, action.dest)
        assert "default: " in text or name in ("check",), name


def test_figures_help_lists_the_ids():
    from bounds import figures

    text = _subparsers()["figures"].format_help()
    assert all(fid in text.replace("\n", " ").replace(" ", "") or fid in text for fid in figures.REGISTRY)


def test_help_and_parsing_import_no_heavy_module():
    code = ("import sys\nfrom bounds.cli import build_parser\np = build_parser()\np.format_help()\n"
            "p.parse_args(['kent', '--n', '1e3', '--T', '100', '--alpha', '0.5'])\n"
            "p.parse_args(['dame', '--sizes', 'poisson:5', '--n', '1e4', '--alpha', '0.5'])\n"
            "print(sorted(m for m in ('numpy', 'scipy', 'sympy', 'mpmath', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0 and capsys.readouterr().out.startswith("bounds ")


# --------------------------------------------------------------------------- integers


@pytest.mark.parametrize("text, value", [("1e6", 10**6), ("1E3", 1000), ("2.5e3", 2500), ("1_000", 1000),
                                         ("7", 7), ("1" + "0" * 400, 10**400), ("1e400", 10**400)])
def test_integers_read_exact_scientific_notation(text, value):
    assert _common.integer(1)(text) == value


@pytest.mark.parametrize("text", ["1.5", "1e-3", "nan", "inf", "abc", "", "1e1001", "0x10", "1e99999999"])
def test_integers_refuse_inexact_or_absurd_values(text):
    with pytest.raises(argparse.ArgumentTypeError):
        _common.integer(1)(text)


def test_integer_options_accept_1e6_and_refuse_a_fraction_by_name(capsys):
    assert cli.main(["kent", "--n", "1e3", "--T", "1e2", "--alpha", "0.5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["inputs"]["n"] == 1000 and out["inputs"]["T"] == 100
    _fails(capsys, ["kent", "--n", "1.5", "--T", "10", "--alpha", "0.5"], "--n", "not an integer")
    _fails(capsys, ["dame", "--sizes", "point:3", "--n", "2.5e0", "--alpha", "0.5"], "--n")
    _fails(capsys, ["rameshwar", "--collection", "counts:1.5,2", "--eps", "1"], "--collection")
    _fails(capsys, ["cummings", "--k", "2,1.5", "--eps", "1"], "--k")
    assert cli.main(["cummings", "--k", "1e2,5e1", "--eps", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["inputs"]["k"] == [100, 50]


# --------------------------------------------------------------------------- --counts FILE


def test_counts_file_equals_inline_counts(tmp_path, capsys):
    path = tmp_path / "k.txt"
    path.write_text("# samples per user\n100, 50\n20 5\n\n1\n")
    for command, inline in (("cummings", ["--k", "100,50,20,5,1"]),
                            ("rameshwar", ["--collection", "counts:100,50,20,5,1"])):
        assert cli.main([command, *inline, "--eps", "1", "--json"]) == 0
        a = json.loads(capsys.readouterr().out)
        assert cli.main([command, "--counts", str(path), "--eps", "1", "--json"]) == 0
        b = json.loads(capsys.readouterr().out)
        a["inputs"].pop("counts_file"), b["inputs"].pop("counts_file")
        a["inputs"].pop("collection", None), b["inputs"].pop("collection", None)
        assert a["inputs"].pop("counts_read") is None
        assert b["inputs"].pop("counts_read") == {"lines": 5, "used": 3, "header": None, "blank": 1, "comment": 1}
        assert a == b


def test_counts_csv_column(tmp_path, capsys):
    path = tmp_path / "k.csv"
    path.write_text("user,flights\na,3\nb,1\nc,3\n")
    assert cli.main(["rameshwar", "--counts", str(path), "--column", "flights", "--eps", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["counts"] == [3, 1, 3]
    _fails(capsys, ["rameshwar", "--counts", str(path), "--column", "nope", "--eps", "1"], "--column", "no column")
    _fails(capsys, ["rameshwar", "--collection", "counts:1", "--column", "x", "--eps", "1"], "--column")


def test_long_counts_are_summarised_not_echoed(tmp_path, capsys):
    path = tmp_path / "k.txt"
    path.write_text("\n".join(str(1 + (7 * i) % 500) for i in range(500)))
    for command in ("cummings", "rameshwar"):
        assert cli.main([command, "--counts", str(path), "--eps", "1"]) == 0
        out = capsys.readouterr().out
        assert len(out.splitlines()) < 45, command
        assert "500 users" in out and "rows left out" in out


@pytest.mark.parametrize("content, needle", [
    ("1\n0\n", "line 2: counts must be positive"), ("1\n-3\n", "positive"), ("2\n1.5\n", "line 2: not an integer"),
    ("abc\n", "line 1: not an integer"), ("", "holds no counts"), ("# nothing\n\n", "holds no counts"),
])
def test_bad_counts_files_are_refused_by_name(tmp_path, capsys, content, needle):
    path = tmp_path / "k.txt"
    path.write_text(content)
    for command in ("cummings", "rameshwar"):
        _fails(capsys, [command, "--counts", str(path), "--eps", "1"], "--counts", needle)


def test_unreadable_counts_are_refused_by_name(tmp_path, capsys):
    binary = tmp_path / "b.dat"
    binary.write_bytes(bytes(range(256)) * 4)
    _fails(capsys, ["cummings", "--counts", str(tmp_path / "missing.txt"), "--eps", "1"], "--counts", "cannot read")
    _fails(capsys, ["cummings", "--counts", str(tmp_path), "--eps", "1"], "--counts", "is a directory")
    _fails(capsys, ["cummings", "--counts", str(binary), "--eps", "1"], "--counts", "not UTF-8 text")
    _fails(capsys, ["cummings", "--k", "1,2", "--counts", str(binary), "--eps", "1"], "--counts", "not allowed")


# --------------------------------------------------------------------------- --json, --save


@pytest.mark.parametrize("argv", [
    ["dame", "--sizes", "point:10", "--n-alpha2", "3"], ["kent", "--n", "10", "--T", "2", "--alpha", "0.5"],
    ["cummings", "--k", "3,2", "--eps", "1"], ["rameshwar", "--collection", "counts:3,1", "--eps", "1"],
])
def test_json_flag_and_save_everywhere(tmp_path, capsys, argv):
    assert cli.main([*argv, "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["command"] == argv[0]
    stem = str(tmp_path / "out")
    assert cli.main([*argv, "--save", stem]) == 0
    text = capsys.readouterr().out
    assert json.loads((tmp_path / "out.json").read_text()) == obj
    assert (tmp_path / "out.txt").read_text().splitlines()[0] in text and "written" in text


def test_figures_json(tmp_path, capsys):
    assert cli.main(["figures", "--quick", "--only", "dame-fig1a-bottom", "--out", str(tmp_path), "--jobs", "1",
                     "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["figures"]["dame-fig1a-bottom"]["rows"] == 20


def test_metrics_and_kinds_are_printed(capsys):
    cases = {("dame", "--sizes", "point:10", "--n-alpha2", "3"): ("MSE bound", "ln ", "`bounds figures` defaults to unit"),
             ("kent", "--n", "1000", "--T", "100", "--alpha", "0.5"):
                 ("squared l2", "not numeric bounds", "[S] supported", "LOWER rate's", "UPPER rate's"),
             ("cummings", "--k", "3,2", "--eps", "1"): ("MSE", "eq. (5) as printed", "polylog"),
             ("rameshwar", "--collection", "counts:3,1", "--eps", "1"):
                 ("absolute error, not MSE", "eq. (12) as printed", "not E_OPT")}
    for argv, needles in cases.items():
        assert cli.main(list(argv)) == 0
        out = capsys.readouterr().out
        for needle in needles:
            assert needle in out, (argv[0], needle)


# --------------------------------------------------------------------------- hostile input


@pytest.mark.parametrize("argv, needle", [
    (["check", "--report", ""], "--report: empty value"),
    (["check", "--report="], "--report: empty value"),
    (["figures", "--out", " "], "--out: empty value"),
    (["dame", "--sizes", "", "--n-alpha2", "3"], "--sizes: empty value"),
    (["dame", "--sizes", "point:3", "--n-alpha2", "3", "--save", ""], "--save: empty value"),
    (["dame", "--sizes", "point:3", "--n-alpha2", "3", "--save", "/nonexistent/dir/out"], "--save: no folder"),
    (["dame", "--sizes", "point:3", "--n-alpha2", "3", "--save", "out/"], "--save: needs a file stem"),
    (["cummings", "--counts", "", "--eps", "1"], "--counts: empty value"),
    (["kent", "--T", "10", "--alpha", "0.5"], "--n: is required"),
    (["kent", "--n", "10", "--T", "10", "--alpha", "0.5", "--sweep", "T=1:10:2"], "--T: is swept"),
    (["kent", "--n", "10", "--alpha", "0.5", "--solve", "T", "--target", "middle<1"], "--target"),
    (["figures", "--jobs", "1e9"], "--jobs"),
    (["dame", "--sizes", "point:3", "--n", "1e99999", "--alpha", "0.5"], "--n"),
    (["kent", "--n", "10", "--T", "10", "--alpha", "nan"], "--alpha"),
    (["rameshwar", "--eps", "1"], "one of the arguments --collection --counts is required"),
])
def test_hostile_input_is_one_line_naming_the_option(capsys, argv, needle):
    _fails(capsys, argv, needle)


def test_interrupt_is_one_line(monkeypatch, capsys):
    from bounds import kent

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(kent, "rate", interrupted)
    _fails(capsys, ["kent", "--n", "10", "--T", "2", "--alpha", "0.5"], "interrupted")
