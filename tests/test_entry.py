"""k(src) from Python: the path a call takes when its line ran before (the line's runnable
code kept with its text, the interpreter's context entered once) gives what the first call
gave: values, conversions, errors and their locations, modules, both renderers."""
import numpy as np
import pytest

from klong import KlongError, KlongInterpreter
from klong import backends
from klong.runtime.values import Symbol

from conftest import BACKENDS  # noqa: E402  (torch where it is installed)


@pytest.fixture(params=BACKENDS)
def k(request):
    return KlongInterpreter(backend=request.param)


def test_a_line_run_again_gives_the_same_values(k):
    k["m"] = np.arange(12.0).reshape(4, 3)
    for _ in range(3):
        assert k("1") == 1
        assert k("2.5*2") == 5.0
        assert backends.to_host(k("*'m")).tolist() == [0.0, 3.0, 6.0, 9.0]
        assert backends.to_host(k("#'m")).tolist() == [3, 3, 3, 3]
        assert backends.to_host(k("{*|x}'m")).tolist() == [2.0, 5.0, 8.0, 11.0]
        assert backends.to_host(k("+/'m")).tolist() == [3.0, 12.0, 21.0, 30.0]
    assert k.complete_lines["*'m"][0] == k.codegen


def test_a_kept_line_reads_the_globals_of_now(k):
    k("a::1")
    assert k("a+1") == 2
    k("a::10")
    assert k("a+1") == 11
    k["a"] = 100
    assert k("a+1") == 101


def test_results_are_converted_as_before(k):
    for _ in range(2):
        r = k('[1 "ab" :c]')
        assert type(r) is np.ndarray and r.dtype == object and len(r) == 3
        assert r[0] == 1 and r[1] == "ab"
        assert k('d:::{};d,[1 2];d') == {1: 2}
        f = k("{x*2}")
        assert callable(f) and f(21) == 42
        assert k('"abc"') == "abc"


def test_an_error_from_a_kept_line_is_as_the_first_time(k):
    messages = []
    for _ in range(3):
        with pytest.raises(KlongError) as info:
            k('1+"a"')
        messages.append((str(info.value), info.value.line, info.value.filename))
    assert messages == [('type error: plus [1 "a"]: number expected', 1, None)] * 3
    for _ in range(2):
        with pytest.raises(KlongError, match=r'^type error: plus \[1 "a"\]: number expected '
                                             r'\(in \{x\+"a"\}\)$'):
            k('{x+"a"}(1)')


def test_a_line_run_from_a_file_names_its_file(k):
    assert k('1+1') == 2
    with pytest.raises(KlongError) as info:
        k.run('1+"a"', filename="x.kg")
    assert info.value.filename == "x.kg"
    with pytest.raises(KlongError) as info:
        k('1+"a"')
    assert info.value.filename is None


def test_a_kept_line_reads_a_modules_private_name_while_it_is_open(k):
    got = [k(s) for s in ["v::7", ".module(:m)", "v::1", "v", ".module(0)", "v::2", "v",
                          ".module(:m)", "v", ".module(0)", "v"]]
    got = [g for g in got if not isinstance(g, Symbol)]     # (what .module(:m) gives)
    assert got == [7, 1, 1, 0, 2, 2, 1, 0, 2]      # v`m while m is open


def test_a_kept_line_renders_again_for_the_other_renderer(k):
    assert k("{x*x}'!4").tolist() == [0, 1, 4, 9]
    k.codegen = not k.codegen
    assert k("{x*x}'!4").tolist() == [0, 1, 4, 9]
    assert k.complete_lines["{x*x}'!4"][0] == k.codegen


def test_the_running_backend_is_the_interpreters_only_while_it_runs(k):
    seen = []
    k["see"] = lambda: seen.append(backends.current()) or 0
    for _ in range(2):
        k("see()")
        with pytest.raises(KlongError):
            k('see();1+"a"')
    assert all(b is k.backend for b in seen) and len(seen) == 4
    assert backends.current() is backends.HOST
    assert backends.running.context is None
