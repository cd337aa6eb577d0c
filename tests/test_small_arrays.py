"""Small arrays (issue 35): the shorter paths taken on small tensors give what the verbs gave
before, in every mode (numpy and torch, generated code and closures): the programs of
tests/benchmarks/programs/, Expand of a mask, Rotate, the range checks of At and Expand,
exact integers past int64, and Each over a function torch cannot trace, which is not traced
again once it failed.
"""
from pathlib import Path

import pytest

from klong import KlongError, KlongInterpreter
from klong.runtime.display import write
from conftest import BACKENDS, TORCH_DEVICE

PROGRAMS = Path(__file__).resolve().parent / "benchmarks" / "programs"


@pytest.fixture
def k(km):
    return km


def printed(k, src):
    return write(k.run(src))


def failure(k, src):
    with pytest.raises(KlongError) as e:
        k.run(src)
    return str(e.value)


def test_kmeans_program(k):
    k.run((PROGRAMS / "kmeans.kg").read_text())
    assert printed(k, "centres") == (
        "[[0.162684647694559 0.238676961406478] [0.840703332925023 0.263789833290815]"
        " [0.740577356978681 0.7679947911197] [0.50438320310575 0.285214858769696]"
        " [0.243156132621532 0.755796494313421]]")
    assert printed(k, "^centres") == "[5 2]"


def test_life_program(k):
    k.run((PROGRAMS / "life.kg").read_text())
    assert printed(k, "&,/final") == ("[337 338 367 368 404 405 413 414 415 433 443 444 446 447"
                                      " 464 465 473 474 476 477 486 487 505 506 516 518 547]")
    assert printed(k, "^final") == "[30 30]"
    assert printed(k, "life(life([[0 0 0 0] [0 1 1 0] [0 1 1 0] [0 0 0 0]]))") == \
        "[[0 0 0 0] [0 1 1 0] [0 1 1 0] [0 0 0 0]]"


@pytest.mark.parametrize("src, result", [
    ("&[0 1 1 0 1]", "[1 2 4]"),          # a mask: its positions
    ("&[0 0]", "[]"),
    ("&[1 1 1]", "[0 1 2]"),
    ("&[2 0 1]", "[0 0 2]"),              # counts above 1: each index repeated
    ("&[]", "[]"),
    ("&3", "[0 0 0]"),
    ("&[0 1]@0", "[]"),
    ("{x@&x>2}'[[1 5 2] [7 3 9]]", "[[5] [7 3 9]]"),
    ("^&[0 1]", "[1]"),
])
def test_expand(k, src, result):
    assert printed(k, src) == result


def test_expand_refuses_a_negative_count(k):
    assert failure(k, "&[1 -1]") == "domain error: expand [1 -1]: negative count"
    assert failure(k, "&[0 -1 1]") == "domain error: expand [0 -1 1]: negative count"


@pytest.mark.parametrize("src, result", [
    ("1:+[1 2 3]", "[3 1 2]"),
    ("(-1):+[1 2 3]", "[2 3 1]"),
    ("(-1):+[[1 2] [3 4] [5 6]]", "[[3 4] [5 6] [1 2]]"),
    ("7:+[1.5 2 3]", "[3 1.5 2]"),
    ("(-4):+!5", "[4 0 1 2 3]"),
    ("3:+[1 2 3]", "[1 2 3]"),
    ("0:+[1 2]", "[1 2]"),
    ("1:+[7]", "[7]"),
    ("1:+\"abc\"", "\"cab\""),
    ("{1:+x}'[[1 2 3] [4 5 6]]", "[[3 1 2] [6 4 5]]"),
    ("a::[1 2 3];b::1:+a;b,a", "[3 1 2 1 2 3]"),     # a new list: the argument unchanged
])
def test_rotate(k, src, result):
    assert printed(k, src) == result


def test_at_checks_its_range(k):
    assert printed(k, "[1 2 3]@[2 0]") == "[3 1]"
    assert failure(k, "[1 2 3]@[0 5]") == \
        "index error: at [[1 2 3] [0 5]]: index 5 out of range 0..2"
    assert failure(k, "[1 2 3]@[-1 0]") == \
        "index error: at [[1 2 3] [-1 0]]: index -1 out of range 0..2"


def test_integers_stay_exact_past_int64(k):
    assert printed(k, "[4611686018427387904 1]+[4611686018427387904 1]") == \
        "[9223372036854775808 2]"
    # 70 elements: the magnitude is scanned (not read off the list) and remembered
    assert printed(k, "a::(!70)+4611686018427387834;(a+a)@[0 69]") == \
        "[9223372036854775668 9223372036854775806]"
    assert printed(k, "(a+a+1)@69") == "9223372036854775807"
    assert printed(k, "(a+a+2)@69") == "9223372036854775808"


def _counted_traces(k, monkeypatch):
    """The (dtype, shape, failed) of every array torch.vmap is asked to trace Each over."""
    traces = []
    vmap = k.backend.vmap

    def counted(fn, a, *others):
        r = vmap(fn, a, *others)
        traces.append((str(a.dtype), tuple(a.shape), r is None))
        return r
    monkeypatch.setattr(k.backend, "vmap", counted)
    return traces


def _repeated(text, n):
    return "[" + " ".join([text] * n) + "]"


@pytest.mark.skipif("torch" not in BACKENDS, reason="torch is not installed")
@pytest.mark.parametrize("codegen", [True, False], ids=["codegen", "closures"])
def test_each_not_traced_again_after_a_failed_trace(codegen, monkeypatch):
    # (no batched bodies: rows whose Where gives as many positions would batch, untraced)
    k = KlongInterpreter(backend="torch", codegen=codegen, device=TORCH_DEVICE, batch=False)
    traces = _counted_traces(k, monkeypatch)
    # Expand needs the values of a row: torch cannot trace it, the loop runs
    k.run("f::{[w];w::&x>2;+/x@w}")
    assert printed(k, "f'(16,3):^[1 5 2 7 3 9]") == _repeated("5 19", 8)
    assert printed(k, "f'(18,3):^[1 5 2 7 3 9 0 0 4]") == _repeated("5 19 4", 6)
    assert traces == [("torch.int64", (16, 3), True)]
    assert printed(k, "f'(16,3):^[1.5 5.0 2.5 7.0 3.0 0.5]") == _repeated("7.5 10.0", 8)  # once
    assert printed(k, "f'(16,4):^[1 5 2 4 7 3 9 1]") == _repeated("9 19", 8)   # longer rows
    assert printed(k, "f'(17,4):^[0.5 4.0 9.5 1.0]") == _repeated("13.5", 17)
    assert printed(k, "f'(16,4):^[0.5 4.0 9.5 1.0 1.0 2.0 3.0 4.0]") == \
        _repeated("13.5 7.0", 8)
    # once per element type and row shape: the number of rows does not matter
    assert traces[1:] == [("torch.float64", (16, 3), True), ("torch.int64", (16, 4), True),
                          ("torch.float64", (17, 4), True)]
    # a function that traces is traced every time
    k.run(".bkf(\"tanh\");h::{+/tanh(x)}")
    assert printed(k, "h'(16,2):^[1.0 2.0 3.0 4.0]") == \
        _repeated("1.72562173603158 1.9943840534258", 8)
    assert printed(k, "h'(16,2):^[1.0 2.0 3.0 5.0]") == \
        _repeated("1.72562173603158 1.99496395794933", 8)
    assert traces[4:] == [("torch.float64", (16, 2), False)] * 2


@pytest.mark.skipif("torch" not in BACKENDS, reason="torch is not installed")
@pytest.mark.parametrize("codegen", [True, False], ids=["codegen", "closures"])
def test_each_over_a_few_elements_loops(codegen, monkeypatch):
    # a trace costs as much as a loop over some tens of elements: fewer rows (or numbers)
    # than that are looped over, as a tree's three-element leaves
    k = KlongInterpreter(backend="torch", codegen=codegen, device=TORCH_DEVICE)
    traces = _counted_traces(k, monkeypatch)
    k.run(".bkf(\"tanh\");h::{+/tanh(x)};g::{:[@x;x;0]}")
    assert printed(k, "h'(15,2):^[1.0 2.0 3.0 4.0]") == \
        "[" + " ".join(["1.72562173603158 1.9943840534258"] * 7) + " 1.72562173603158]"
    assert printed(k, "g'!63") == printed(k, "!63")
    assert traces == []
    assert printed(k, "+/g'!64") == "2016"
    assert traces == [("torch.int64", (64,), False)]
    k.run("mk::{:[x=0;y;mk(x-1;)'(3*y)+!3]};sm::{:[@x;x;+/sm'x]}")
    assert printed(k, "sm(mk(5;0))") == "29403"
    assert traces[1:] == []


@pytest.mark.parametrize("src, result", [
    # a list read around the function is repeated for every row of the batch
    ("v::[1.5 2.5 3.5];{(v-*x)^2}'[[1.0 0.0] [2.0 0.0]]", "[[0.25 2.25 6.25] [0.25 0.25 2.25]]"),
    ("v::[1 2];{v+x}'[[10 20] [30 40] [50 60]]", "[[11 22] [31 42] [51 62]]"),
    ("m::[[1 2] [3 4]];{m*x}'[[1 2] [3 4]]", "[[[1 2] [6 8]] [[3 6] [12 16]]]"),
])
def test_each_over_rows_with_a_list_read_around(k, src, result):
    assert printed(k, src) == result


@pytest.mark.skipif("torch" not in BACKENDS, reason="torch is not installed")
def test_torch_repeat_by_one_count():
    import torch
    backend = KlongInterpreter(backend="torch", device=TORCH_DEVICE).backend
    for shape in [(3,), (3, 2), (1, 4), (2, 2, 2)]:
        a = torch.arange(int(torch.tensor(shape).prod()), device=backend.device).reshape(shape)
        for count in (0, 1, 2, 3):
            r = backend.repeat(a, count)
            assert torch.equal(r, torch.repeat_interleave(a, count, dim=0))
            assert r.is_contiguous() and r.data_ptr() != a.data_ptr()


@pytest.mark.parametrize("src, result", [
    # two integer lists: the library's maximum and minimum
    ("[1 5 3]|[4 2 3]", "[4 5 3]"),
    ("[1 5 3]&[4 2 3]", "[1 2 3]"),
    ("[[1 5] [3 2]]|[2 4]", "[[2 5] [4 4]]"),
    ("[[1 5] [3 2]]&[2 4]", "[[1 2] [3 2]]"),
    ("(!5)|(5-!5)", "[5 4 3 3 4]"),
    ("[-9223372036854775807 3]|[-9223372036854775807 4]", "[-9223372036854775807 4]"),
    # otherwise one operand or the other, as it is
    ("[1 5]|3", "[3 5]"),
    ("[1 5]&3", "[1 3]"),
    ("[1 5]|[2.0 4.5]", "[2.0 5]"),
    ("[1 5]&[1.0 5.0]", "[1.0 5.0]"),
    ("[1.0 5.0]|[1 5]", "[1.0 5.0]"),
])
def test_max_min(k, src, result):
    assert printed(k, src) == result


@pytest.mark.parametrize("src, result", [
    # the groups of = (views of one vector on torch): their first positions, their sizes
    ("*'=[5 3 5 5 1 3]", "[0 1 4]"),
    ("#'=[5 3 5 5 1 3]", "[3 2 1]"),
    ("*'=\"mississippi\"", "[0 1 2 8]"),
    ("{(x@*'g),'#'g}(w)", "[[:a 3] [:b 2] [:c 1]]"),
    # pieces cut from one vector of reals (views of it), and of vectors of their own
    ("*'[2 3]:_[0.5 -0.0 2.5 1e300 7.0]", "[0.5 2.5 1.0e+300]"),
    ("*'[[1.5 2] [-0.0] [3 4 5]]", "[1.5 0.0 3]"),
    ("#'[[1.5 2] [-0.0] [3 4 5]]", "[2 1 3]"),
    # a group far smaller than the vector it views: read from the group itself
    ("*'[99]:_!100", "[0 99]"),
    # an empty vector among them: First of it, as the loop takes it
    ("*'[[1 2] [] [3]]", "[1 [] 3]"),
])
def test_firsts_and_sizes_of_vectors(k, src, result):
    k.run("g::=w::[:a :b :a :c :a :b]")
    assert printed(k, src) == result


def test_torch_reads_the_firsts_of_groups_from_the_vector_they_view(kt, monkeypatch):
    """The groups of = are views of one vector: their first elements come from its list,
    not from one list per group."""
    kt.run("g::=[5 3 5 5 1 3 8 8]")
    groups = kt["g"]
    assert all(v._base is groups[0]._base for v in groups)

    def per_group(a, i):
        raise AssertionError("a list per group")
    monkeypatch.setattr(kt.backend, "element", per_group)
    assert kt.backend.firsts(groups) == [0, 1, 4, 6]
    assert printed(kt, "*'g") == "[0 1 4 6]"


# The quicksort's steps (issue 35): a@&a<n picked from the library's truths at the positions
# it finds (Backend.selected), two vectors of one dtype joined at once
@pytest.mark.parametrize("src, result", [
    ("qs::{:[2>#x;x;{(qs(x@&x<y)),(x@&x=y),qs(x@&x>y)}(x;x@0)]};qs([5 3 8 1 5 9 0])",
     "[0 1 3 5 5 8 9]"),
    ("qs::{:[2>#x;x;{(qs(x@&x<y)),(x@&x=y),qs(x@&x>y)}(x;x@0)]};qs([2.5 -1.0 2.5 0.5])",
     "[-1.0 0.5 2.5 2.5]"),
    ("a::[4 7 1 9];(a@&a>100),a@&a<5", "[4 1]"),       # an empty part: its kind kept
    ("a::[[1 2] [3 4] [5 6]];a@&(*'a)>2", "[[3 4] [5 6]]"),
    ("[1 2],[3.5]", "[1 2 3.5]"),                      # two kinds: a list of both
    ("[1 2],[]", "[1 2]"),
])
def test_partition_and_join(k, src, result):
    assert printed(k, src) == result


def test_positions_are_int64_and_kinds_come_from_the_dtype():
    import numpy as np
    from klong.backends import arrays, get_backend
    from klong.runtime.values import array_kind
    backend = get_backend("numpy")
    truths = np.array([True, False, True, True])
    positions = backend.where(truths)
    assert positions.dtype == np.int64 and positions.tolist() == [0, 2, 3]
    assert backend.selected(np.array([5, 6, 7, 8]), truths).tolist() == [5, 7, 8]
    assert backend.selected(np.arange(8).reshape(4, 2), truths).tolist() == [[0, 1], [4, 5], [6, 7]]
    for a, kind in [(np.arange(3), "i"), (np.arange(3, dtype=">i8"), "i"),
                    (np.arange(3, dtype=np.uint8), "i"), (np.ones(2), "f"),
                    (np.ones(2, np.float32), "f"), (np.array([True]), "b"),
                    (np.array(["a"]), "o")]:
        assert array_kind(a) == kind, a.dtype
        assert arrays.dtype_kind(a.dtype) == (None if kind == "o" else kind)
