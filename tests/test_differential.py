"""One answer in every mode: numpy and torch, each through generated code and through
closures, agree on every program of the differential corpus and on random programs.

Agreeing means, exactly: the same printed output, the same written value (as the REPL
shows it) with the same element type all the way down (tests/differential/harness.py,
`signature`), or the same error kind, message and line. The corpus
(tests/differential/corpus.jsonl) holds the conformance expressions, every example program
and seeded generated programs; tests/differential/pending.txt lists the entries known to
disagree today, and nothing else may. `python3 tests/differential/run.py` prints every
disagreement; KLONG_DIFF_EXAMPLES=20000 gives the property test a larger budget.
"""
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from differential import generate, harness, run

CORPUS = harness.load_corpus()
PROGRAMS = [e for e in CORPUS if "file" not in e]
EXAMPLES = [e for e in CORPUS if "file" in e]
PENDING = harness.load_list(harness.PENDING)
BUDGET = int(os.environ.get("KLONG_DIFF_EXAMPLES", "200"))

needs_both = pytest.mark.skipif(len(harness.BACKENDS) < 2, reason="needs torch")


def check(entries):
    found = run.corpus_disagreements(entries)
    ids = {e["id"] for e in entries}
    unexpected = {k: v for k, v in found.items() if k not in PENDING}
    stale = sorted(k for k in PENDING if k in ids and k not in found)
    report = "".join(f"\n{k}: {harness.entry_source(next(e for e in entries if e['id'] == k))[0][:200]!r}"
                     f"\n{v}" for k, v in unexpected.items())
    assert not unexpected, f"{len(unexpected)} disagreements not in pending.txt:{report}"
    assert not stale, f"agree now; remove from tests/differential/pending.txt: {stale}"


def test_corpus_is_large_and_covers_its_sources():
    assert len(CORPUS) >= 3000
    assert sum(e["id"].startswith("gen-") for e in CORPUS) >= 1000
    assert sum(e["id"].startswith(("nmh-", "display-")) for e in CORPUS) >= 1000
    on_disk = sorted(str(p.relative_to(harness.ROOT))
                     for p in (harness.ROOT / "examples").rglob("*.kg"))
    assert sorted(e["file"] for e in EXAMPLES) == on_disk, \
        "examples/ changed: rebuild the corpus (tests/differential/build_corpus.py)"
    assert set(PENDING) <= {e["id"] for e in CORPUS} | {k for k in PENDING if k.startswith('"')}


@needs_both
def test_corpus_programs_agree_in_every_mode():
    check(PROGRAMS)


@needs_both
def test_examples_agree_in_every_mode():
    check(EXAMPLES)


@needs_both
def test_corpus_programs_agree_captured():
    """The captured mode: each program run three times in one torch interpreter, with
    capture and replay on and with it off (KLONG_CAPTURE=0): the same outcomes."""
    found = run.captured_disagreements(PROGRAMS)
    report = "".join(f"\n{k}: {v}" for k, v in found.items())
    assert not found, f"{len(found)} programs that capture changes:{report}"


@needs_both
@settings(max_examples=BUDGET, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False))
def test_generated_programs_agree(rng):
    """Random programs from the generator's grammar. A program known to disagree is listed
    in pending.txt by its source (a JSON string)."""
    source = generate.program(rng)
    problem = harness.disagreement(harness.run_all_modes(source))
    if json.dumps(source) in PENDING:
        return
    assert problem is None, f"{source!r}\n{problem}"


def test_a_disagreement_is_seen():
    """Not vacuous: a mode that keeps reals in float32 disagrees in text and element type,
    and one whose error differs in its message disagrees too."""
    program = "%[3 6]"
    results = {("numpy", True): harness.outcome(harness.interpreter(("numpy", True)), program)}
    from klong import KlongInterpreter
    single = KlongInterpreter(backend="numpy", dtype="float32")
    results[("numpy", False)] = harness.outcome(single, program)
    assert harness.disagreement(results)
    assert results[("numpy", True)][3] == "Lfloat64"
    assert results[("numpy", False)][3] == "Lfloat32"
    a = ("error", "", "type", "plus: not a number", 1)
    assert harness.disagreement({("numpy", True): a, ("torch", True): a[:3] + ("x", 1)})
    assert harness.disagreement({("numpy", True): a, ("torch", True): a[:4] + (2,)})
    assert harness.disagreement({("numpy", True): a, ("torch", True): ("error", "out",) + a[2:]})
    assert harness.disagreement({("numpy", True): a, ("torch", True): a}) is None


@pytest.mark.parametrize("source, expected", [
    ("1", "i"), ("1.5", "float64"), ("2^70", "i"), ('"ab"', "s"), ("0ca", "c"), (":a", "y"),
    ("[1 2]", "Li"), ("[1.5 2]", "L{float64,i}"), ("[1.5 2.5]", "Lfloat64"), ("%[2 4]", "Lfloat64"), ("[[1 2] [3 4]]", "LLi"), ("[]", "L0"),
    ("[1 :a]", "L{i,y}"), ("[[1] [2 3]]", "LLi"), (":{[1 2]}", "D{i:i}"), ("{x}", "f"),
    ("[1 [2.5 3.5]]", "L{i,Lfloat64}"), ('["a" "bc"]', "Ls"),
])
def test_signature_names_element_types_alike(backend, source, expected):
    interp = harness.interpreter((backend, True))
    assert harness.outcome(interp, source)[3] == expected


def test_numpy_output_matches_kg():
    """numpy, generated code and closures, prints what the reference kg printed for every
    corpus program (the record tests/differential/kg_record.jsonl, reals to 15 significant
    digits), except the differences listed in accepted.txt (with their reasons) and in
    pending_kg.txt (not decided yet). With KG naming a kg executable the record is made
    afresh first (tests/differential/record_kg.py) and must equal the committed one."""
    from differential import kg_compare, record_kg
    kg = os.environ.get("KG")
    if kg and os.access(kg, os.X_OK):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            fresh = os.path.join(tmp, "record.jsonl")
            record_kg.main(["--kg", kg, "--out", fresh])
            assert kg_compare.load_record(fresh) == kg_compare.load_record(), \
                "kg's output changed: run tests/differential/record_kg.py"
    found = kg_compare.differences()
    allowed = {**harness.load_list(kg_compare.ACCEPTED), **harness.load_list(kg_compare.PENDING_KG)}
    unexpected = {k: v for k, v in found.items() if k not in allowed}
    assert not unexpected, "differences from kg not listed:\n" + "\n".join(
        f"{k}: {v}" for k, v in unexpected.items())
    stale = sorted(set(allowed) - set(found))
    assert not stale, f"agree with kg now; remove from accepted.txt/pending_kg.txt: {stale}"


def test_kg_comparison_rounds_reals_to_15_digits():
    from differential.kg_compare import same_text
    assert same_text("0.333333333333333", "0.333333333333333333")
    assert same_text("[1.41421356237309]", "[1.41421356237309504]")   # one unit in the 15th
    assert not same_text("0.309999999999998", "0.31")     # two units
    assert not same_text("[49.0 49.0]", "[49 49]")
    assert same_text("1.0e+20", "1.0e+20") and not same_text("1.0e+20", "1.0e+21")


def test_generator_covers_the_language():
    """The generated share of the corpus uses every verb, adverb and value kind."""
    sources = [e["source"] for e in CORPUS if e["id"].startswith("gen-")]
    text = "\n".join(sources)
    for token in generate.DYADS + generate.MONADS + generate.ADVERBS:
        assert token in text, token
    for kind, literals in generate.KINDS.items():
        assert any(literal in text for literal in literals), kind
    for form in ["'[[", ":'", "/", "\\", ":*", ":~", "\\~", "\\*", ":[", "{[a b];", "(x@"]:
        assert form in text, form
