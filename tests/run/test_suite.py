from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bluffcheck.errors import ConfigError
from bluffcheck.run.suite import default_suite_path, load_suite, method_label, parse_suite

BASE = """
[run]
name = "t"
[[datasets]]
name = "semeval-demo"
[[scorers]]
name = "lexical-tree"
[[generators]]
name = "random-chars"
n = 10
"""


def parse(text: str):
    return parse_suite(tomllib.loads(text), source="suite.toml")


def test_suite_parses_defaults_and_labels():
    suite = parse(BASE + '[[generators]]\nname = "char-ngrams"\n[generators.params]\nn = 3\ncorpus = "prompt"\n')
    assert suite.run.workers == 1 and suite.run.executor == "local" and suite.run.retry.retries == 2
    assert [g.label for g in suite.generators] == ["random-chars", "char-3gram-prompt"]
    assert suite.datasets[0].label == "semeval-demo" and suite.scorers[0].label == "lexical-tree"
    assert suite.output_dir() == Path("runs/t")
    resolved = suite.resolved()
    assert resolved["generators"][1]["params"] == {"corpus": "prompt", "n": 3}
    assert resolved["run"]["seed"] == 0


@pytest.mark.parametrize(
    ("snippet", "message"),
    [
        ('[[generators]]\nname = "x"\nn = "ten"\n', "suite.toml: [[generators]] #2: key 'n' must be a positive integer. Got 'ten' instead."),
        ('[[generators]]\nname = "x"\nn = 0\n', "[[generators]] #2: key 'n' must be a positive integer. Got 0 instead."),
        ("[[generators]]\nn = 5\n", "[[generators]] #2: key 'name' is required"),
        ('[[generators]]\nname = "x"\nnn = 5\n', "[[generators]] #2: unknown key 'nn'. Did you mean 'n'?"),
        ('[[generators]]\nmethods = "all"\n', "key 'methods' must be 'paper'"),
        ("[surprise]\nx = 1\n", "top level: unknown table 'surprise'"),
        ('[[perturbations]]\nname = "add-lies"\n', "[[perturbations]] is not implemented yet in this version"),
        ('[[attacks]]\nname = "beam"\n', "[[attacks]] is not implemented yet"),
        ('[[defenses]]\nname = "filter"\n', "[[defenses]] is not implemented yet"),
        ('[[scorers]]\nname = "lexical-tree"\n', "two [[scorers]] entries are both labelled 'lexical-tree'"),
        ('[[scorers]]\nname = "a"\npath = "b.skops"\n', "[[scorers]] #2: give exactly one of 'name'"),
        ('[[scorers]]\npath = "b.skops"\n[scorers.params]\nC = 1\n', "key 'params' cannot be combined with 'path'"),
        ("[gates]\nmin_arr = 1.5\n", "[gates]: key 'min_arr' must be a number between 0 and 1. Got 1.5 instead."),
        ("[gates]\n[gates.min_arr]\nrandom-chars = true\n", "[gates.min_arr]: key 'random-chars' must be a number"),
        ("[gates]\nmax_qwk_drop = -1\n", "key 'max_qwk_drop' must be a number >= 0.0"),
        ("[metrics]\nconfidence = 1.5\n", "[metrics]: key 'confidence' must be a number strictly between 0 and 1"),
    ],
)
def test_suite_errors_name_table_and_key(snippet, message):
    with pytest.raises(ConfigError) as info:
        parse(BASE + snippet)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("run_table", "message"),
    [
        ('executor = "ray"', "[run]: key 'executor' must be 'local' or 'dask'. Got 'ray' instead."),
        ("workers = 0", "[run]: key 'workers' must be a positive integer. Got 0 instead."),
        ("workers = true", "[run]: key 'workers' must be a positive integer. Got True instead."),
        ("seed = -1", "[run]: key 'seed' must be a non-negative integer"),
        ("wrokers = 2", "[run]: unknown key 'wrokers'. Did you mean 'workers'?"),
        ("preflight = 1", "[run]: key 'preflight' must be true or false"),
        ("retry = 3", "[run]: key 'retry' must be a table"),
        ('name = ""', "[run]: key 'name' must be a non-empty string"),
    ],
)
def test_suite_run_table_errors(run_table, message):
    with pytest.raises(ConfigError) as info:
        new = run_table if run_table.startswith("name") else f'name = "t"\n{run_table}'
        parse(BASE.replace('name = "t"', new, 1))
    assert message in str(info.value)


def test_suite_needs_each_component_kind():
    with pytest.raises(ConfigError, match=r"at least one \[\[scorers\]\] entry"):
        parse('[[datasets]]\nname = "d"\n[[generators]]\nname = "g"\n')
    with pytest.raises(ConfigError, match="must be an array of tables, written"):
        parse('datasets = "semeval-demo"\n')


def test_load_suite_file_errors(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_suite(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[run\nname = 1\n")
    with pytest.raises(ConfigError, match=r"bad\.toml: not valid TOML: .*line 1"):
        load_suite(bad)


def test_suite_gate_thresholds_by_label_method_default():
    suite = parse(BASE + '[gates]\nmax_n_pos = 10\n[gates.min_arr]\ndefault = 0.5\nrandom-chars = 0.9\n"x(n=3)" = 0.7\n')
    gates = suite.gates
    assert gates.arr_threshold("random-chars", "random-chars") == 0.9
    assert gates.arr_threshold("x(n=3)", "x") == 0.7
    assert gates.arr_threshold("other", "other") == 0.5
    assert gates.max_n_pos == 10.0 and gates.min_qwk is None


def test_method_label_is_the_generators_label():
    assert method_label("word-ngrams", {"n": 2, "corpus": "prompt"}) == "word-2gram-prompt"
    assert method_label("shuffle", {}) == "shuffle"


def test_paper_shorthand_expands_to_25_methods():
    suite = parse(BASE.replace('name = "random-chars"', 'methods = "paper"'))
    assert len(suite.generators) == 25 and len({g.label for g in suite.generators}) == 25
    assert all(g.n == 10 for g in suite.generators)
    with pytest.raises(ConfigError, match="cannot be combined with 'name'"):
        parse(BASE.replace('name = "random-chars"', 'methods = "paper"\nname = "x"'))


def test_default_suite_ships_and_parses():
    path = default_suite_path()
    assert path.is_file()
    suite = load_suite(path)
    assert suite.datasets[0].name == "semeval-demo"
    assert {s.name for s in suite.scorers} == {"lexical-tree", "ngram-svm"}
    assert len(suite.generators) >= 4 and all(g.n == 100 for g in suite.generators)
    assert suite.gates.min_arr and suite.gates.min_qwk is not None
