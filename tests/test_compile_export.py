"""torch.compile and torch.export from Klong (system.md B.2): .compile .compilex .cmodes
.export. They need the torch backend; on numpy each is an error. Most tests compile with
the "eager" compiler backend to stay fast; one test uses the default (inductor)."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from klong import KlongError, KlongInterpreter
from klong.backends import list_backends

from conftest import host  # noqa: E402

HAS_TORCH = "torch" in list_backends()
needs_torch = pytest.mark.skipif(not HAS_TORCH, reason="torch is not installed")
HAS_CXX = any(shutil.which(c) for c in ("c++", "g++", "clang++"))

EAGER = ':{["backend" "eager"]}'


# ------------------------------------------------------------------ numpy backend refuses

@pytest.mark.parametrize("src", [
    ".compile({x^2};3.0)",
    '.compilex({x^2};3.0;:{["backend" "eager"]})',
    ".cmodes()",
    '.export({x^2};3.0;"never.pt2")',
])
def test_numpy_backend_refuses(kn, in_tmp, src):
    with pytest.raises(KlongError) as info:
        kn(src)
    assert "torch" in str(info.value)
    assert not os.path.exists(in_tmp / "never.pt2")


# ------------------------------------------------------------------ .compile / .compilex

@needs_torch
@pytest.mark.skipif(not HAS_CXX, reason="the inductor backend needs a C++ compiler")
def test_compile_default_inductor(kt):
    assert kt("cf::.compile({x^2};3.0);cf(5.0)") == 25.0
    assert kt("cf(3)") == 9.0
    assert kt("cf(-1.5)") == 2.25


@needs_torch
def test_compilex_spec_example(kt):
    assert kt(f"cf::.compilex({{x^2}};3.0;{EAGER});cf(5.0)") == 25.0


@needs_torch
@pytest.mark.parametrize("fn, example, points", [
    ("{x^2}", "3.0", ["5.0", "-2", "0.5"]),
    ("{(x^3)+(2*x^2)+x}", "2.0", ["3.0", "-1.5", "0"]),
    ("{+/x^2}", "[1.0 2.0]", ["[3.0 4.0]", "[1 2]"]),
    ("{x*2}", "[1.0 2.0]", ["[3 4]", "[0.5 -1.0]"]),
    ("{x,x}", "[1.0]", ["[1.0 2.0]"]),
    ("{(|x)-x}", "[1.0 2.0 4.0]", ["[1.0 2.0 4.0]"]),
])
def test_compiled_function_agrees_with_klong(kt, fn, example, points):
    kt(f"f::{fn};cf::.compilex(f;{example};{EAGER})")
    for p in points:
        want = host(kt.run(f"f({p})"))
        got = kt.run(f"cf({p})")
        assert np.array_equal(host(got), want), f"cf({p})"


@needs_torch
def test_compiled_results_are_real_and_not_tracking(kt):
    import torch
    v = kt.run(f"cc::.compilex({{x*2}};[1.0 2.0];{EAGER});cc([3 4])")
    assert isinstance(v, torch.Tensor)
    assert v.dtype == torch.float64 and not v.requires_grad
    assert v.tolist() == [6.0, 8.0]
    s = kt.run("cs::.compilex({x^2};3.0;" + EAGER + ");cs(2)")
    assert s == 4.0 and isinstance(s, float)


@needs_torch
def test_compiled_function_with_adverbs(kt):
    kt(f"cf::.compilex({{+/x^2}};[1.0 2.0];{EAGER})")
    assert host(kt("cf'[[1.0 2.0] [3.0 4.0]]")).tolist() == [5.0, 25.0]


@needs_torch
def test_compiled_function_called_from_python(kt):
    kt(f"cf::.compilex({{+/x^2}};[1.0 2.0];{EAGER})")
    assert kt["cf"]([3.0, 4.0]) == 25.0


@needs_torch
@pytest.mark.parametrize("opts", [
    ':{["backend" "aot_eager"]}',
    ':{["backend" "eager"] ["fullgraph" 1]}',
    ':{["backend" "eager"] ["dynamic" 1]}',
    ':{["backend" "eager"] ["dynamic" 0]}',
    ':{["backend" "eager"] ["mode" "max-autotune"]}',
    ':{["backend" "eager"] ["mode" "reduce-overhead"]}',
    ':{["backend" "eager"] ["mode" "default"] ["unknown" 1]}',
])
def test_compilex_options(kt, opts):
    assert kt(f"cf::.compilex({{+/x^2}};[1.0 2.0];{opts});cf([3.0 4.0])") == 25.0


@needs_torch
def test_compilex_branching_function(kt):
    kt(f"ca::.compilex({{:[x>0;x;-x]}};2.0;{EAGER})")
    assert kt("ca(-3.0)") == 3.0 and kt("ca(3.0)") == 3.0


@needs_torch
@pytest.mark.parametrize("src", [
    '.compilex({x^2};3.0;:{["mode" "bogus"]})',
    '.compilex({x^2};3.0;:{["backend" "nosuchcompiler"]})',
    '.compilex({:[x>0;x;-x]};2.0;:{["backend" "eager"] ["fullgraph" 1]})',
    '.compilex(3;3.0;:{["backend" "eager"]})',
    '.compilex({x};"abc";:{["backend" "eager"]})',
    ".compile(3;3.0)",
])
def test_compile_errors(kt, src):
    with pytest.raises(KlongError):
        kt(src)


# ------------------------------------------------------------------ .cmodes

@needs_torch
def test_cmodes_contents(kt):
    modes = kt(".cmodes()")
    assert set(modes) == {"modes", "backends", "recommendations"}
    assert set(modes["modes"]) == {"default", "reduce-overhead", "max-autotune"}
    assert set(modes["backends"]) == {"inductor", "eager", "aot_eager", "cudagraphs"}
    assert all(isinstance(v, str) and v for v in modes["modes"].values())
    assert all(isinstance(v, str) and v for v in modes["backends"].values())
    assert modes["recommendations"] == {
        "development": {"mode": "reduce-overhead", "backend": "inductor"},
        "production": {"mode": "max-autotune", "backend": "inductor"},
        "debugging": {"mode": "default", "backend": "eager"},
        "gpu_inference": {"mode": "max-autotune", "backend": "cudagraphs"},
    }


@needs_torch
def test_cmodes_spec_example(kt):
    from klong.runtime.display import write
    v = kt.run('((.cmodes())?"recommendations")?"debugging"')
    assert write(v) == ':{["mode" "default"] ["backend" "eager"]}'


# ------------------------------------------------------------------ .export

@needs_torch
def test_export_writes_a_loadable_program(kt, tmp_path):
    import torch
    path = tmp_path / "model.pt2"
    kt("poly::{(x^3)+(2*x^2)+x}")
    info = kt(f'info::.export(poly;2.0;"{path}")')
    assert set(info) >= {"compiled_fn", "export_path", "graph", "mode", "backend"}
    assert "export_error" not in info
    assert info["export_path"] == str(path)
    assert info["mode"] == "default" and info["backend"] == "inductor"
    assert isinstance(info["graph"], str) and "placeholder" in info["graph"]
    assert path.exists()
    module = torch.export.load(str(path)).module()
    for x in (2.0, 3.0, -1.5, 0.0):
        want = kt(f"poly({x})")
        got = module(torch.tensor(x, dtype=torch.float64, device=kt.backend.device))
        assert abs(got.item() - want) < 1e-12
    assert kt('g::info?"compiled_fn";g(3.0)') == 48.0


@needs_torch
def test_export_vector_function(kt, tmp_path):
    import torch
    path = tmp_path / "vec.pt2"
    kt(f'f::{{+/(x^2)-x}};info::.export(f;[1.0 2.0 3.0];"{path}")')
    module = torch.export.load(str(path)).module()
    for point in ([1.0, 2.0, 3.0], [0.5, -1.0, 4.0]):
        src = "[" + " ".join(repr(v) for v in point) + "]"
        want = kt(f"f({src})")
        got = module(torch.tensor(point, dtype=torch.float64, device=kt.backend.device))
        assert abs(got.item() - want) < 1e-12
    vec = tmp_path / "elementwise.pt2"
    kt(f'h::{{x*x+1}};.export(h;[1.0 2.0];"{vec}")')
    out = torch.export.load(str(vec)).module()(
        torch.tensor([3.0, 4.0], dtype=torch.float64, device=kt.backend.device))
    assert out.tolist() == host(kt("h([3.0 4.0])")).tolist() == [12.0, 20.0]


@needs_torch
def test_export_failure_is_reported_in_the_dictionary(kt, tmp_path):
    path = tmp_path / "branch.pt2"
    info = kt(f'info::.export({{:[x>0;x;-x]}};2.0;"{path}")')
    assert "export_error" in info and isinstance(info["export_error"], str)
    assert info["export_error"]
    assert not path.exists()
    assert "export_path" not in info
    assert kt('g::info?"compiled_fn";g(-2.0)') == 2.0


@needs_torch
def test_export_path_must_be_a_string(kt):
    with pytest.raises(KlongError):
        kt(".export({x^2};2.0;3)")


# ------------------------------------------------------------------ differentiating compiled code

@needs_torch
def test_compiled_functions_differentiate(kt):
    kt(f"ce::.compilex({{x^2}};3.0;{EAGER})")
    assert kt("{ce(x)}:>2.0") == 4.0
    assert kt("ce:>2.0") == 4.0
    assert host(kt("{+/ce(x)}:>[1.0 2.0]")).tolist() == [2.0, 4.0]
    assert host(kt("[1.0 2.0]∂ce")).tolist() == [[2.0, 0.0], [0.0, 4.0]]
    # second derivatives: torch's compiled backward is first order, the function runs as Klong
    assert kt("{ce:>x}:>2.0") == 2.0
    assert kt(".hessian(ce;2.0)") == 2.0
    assert kt("ce(3.0)") == 9.0


@needs_torch
def test_compiled_backward_with_aot_eager(kt):
    kt('ca::.compilex({x^3};2.0;:{["backend" "aot_eager"]})')
    assert kt("ca:>2.0") == 12.0
    assert kt("{ca:>x}:>2.0") == 12.0
    assert kt(".gradcheck(ca;1.5)") == 1


@needs_torch
def test_compiled_function_reading_a_differentiated_variable(kt):
    kt(f"w::3.0;cw::.compilex({{x*w}};1.0;{EAGER});loss::{{cw(2.0)}}")
    assert host(kt("loss:>[w]")).tolist() == [2.0]


# ------------------------------------------------------------------ .graph, export shapes

@needs_torch
def test_graph_text_without_writing_a_file(kt, in_tmp):
    g = kt('.graph({(x^3)+(2*x^2)+x};2.0)')
    assert g.text.startswith("graph():") and "aten.pow" in g.text and "aten.mul" in g.text
    assert list(in_tmp.iterdir()) == []
    assert "placeholder" in kt('.graph({+/x^2};[1.0 2.0 3.0])').text


@needs_torch
def test_graph_prints_as_its_text_and_is_drawn_as_svg(kt, in_tmp):
    pytest.importorskip("matplotlib")
    from klong.runtime.display import write
    g = kt('.graph({(x^3)+(2*x^2)+x};2.0)')
    assert write(g) == g.text                               # the prompt shows the text
    labels = [label for _, label, _ in g.nodes]
    assert labels == ["x", "pow 2", "mul 2", "add", "pow 3", "add", "output"]
    assert ("x", "pow_1") in g.edges() and ("add_1", "output") in g.edges()
    svg = g._repr_svg_()                                    # what a notebook shows
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert all(f">{label}<" in svg for label in labels)
    assert kt('.graph({x^2};2.0;"g.svg")') == "g.svg"
    assert "<svg" in (in_tmp / "g.svg").read_text()
    with pytest.raises(KlongError) as info:
        kt('.graph({x^2};2.0;"nosuchdir/g.svg")')
    assert info.value.kind == "io"


def test_graph_needs_torch(kn):
    with pytest.raises(KlongError) as info:
        kn(".graph({x^2};2.0)")
    assert info.value.kind == "backend"


def exported(kt, fn, example, path):
    """.export's dictionary, and the program it saved, loaded back."""
    import torch
    info = kt(f'.export({fn};{example};"{path}")')
    return info, torch.export.load(str(path)).module()


@needs_torch
def test_export_leading_dimension_is_dynamic(kt, tmp_path):
    import torch
    kt("f::{+/(x^2)-x}")
    info, module = exported(kt, "f", "[1.0 2.0 3.0]", tmp_path / "dyn.pt2")
    assert info["dynamic"] == 1 and info["input"] == "float64 [N]"
    for point in ([1.0, 2.0, 3.0, 4.0], [0.5] * 7, [2.0, -1.0]):
        src = "[" + " ".join(repr(v) for v in point) + "]"
        got = module(torch.tensor(point, dtype=torch.float64))
        assert abs(got.item() - kt(f"f({src})")) < 1e-12
    info, module = exported(kt, "{x*x}", "[[1.0 2.0] [3.0 4.0]]", tmp_path / "rows.pt2")
    assert info["input"] == "float64 [N 2]"
    assert tuple(module(torch.ones(5, 2, dtype=torch.float64)).shape) == (5, 2)


@needs_torch
def test_export_keeps_the_example_shape_when_the_function_needs_it(kt, tmp_path):
    import torch
    info, module = exported(kt, "{(#x)*x}", "[1.0 2.0 3.0]", tmp_path / "fixed.pt2")
    assert info["dynamic"] == 0 and info["input"] == "float64 [3]"
    assert module(torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).tolist() == [3.0, 6.0, 9.0]
    with pytest.raises(Exception):
        module(torch.ones(4, dtype=torch.float64))
    scalar = kt(f'.export({{x^2}};2.0;"{tmp_path / "scalar.pt2"}")')
    assert scalar["dynamic"] == 0 and scalar["input"] == "float64 []"


@needs_torch
def test_export_to_an_unwritable_path_is_an_io_error(kt, tmp_path):
    target = tmp_path / "no" / "such" / "dir" / "m.pt2"
    with pytest.raises(KlongError) as info:
        kt(f'.export({{x^2}};2.0;"{target}")')
    assert info.value.kind == "io" and str(target) in str(info.value)
    assert not target.exists()


@needs_torch
def test_compiled_function_from_a_dictionary_called_both_ways(kt, tmp_path):
    kt(f'info::.export({{(x^3)+(2*x^2)+x}};2.0;"{tmp_path / "p.pt2"}")')
    assert kt('(info?"compiled_fn")(3.0)') == 48.0
    assert kt('(info?"compiled_fn")@3.0') == 48.0


# ------------------------------------------------------------------ what torch's compiler prints

@needs_torch
def test_compiler_warnings_only_in_debug_mode(kt, capfd):
    assert kt(f"cp::.compilex({{.p(x);x}};1.0;{EAGER});cp(2.0)") == 2.0
    out, err = capfd.readouterr()
    assert out == "1.0\n2.0\n" and err == ""


@needs_torch
def test_compiler_warnings_with_debug(repo_root):
    # a process of its own: torch prints each kind of warning once per process
    src = f".compilex({{.p(x);x}};1.0;{EAGER})"
    proc = subprocess.run([sys.executable, str(repo_root / "kgpy"), "--backend", "torch",
                           "--debug", "-e", src], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and "Graph break" in proc.stderr


class _Terminal:
    """A stand-in for stderr on a terminal."""

    def __init__(self):
        self.text = ""

    def write(self, s):
        self.text += s

    def flush(self):
        pass

    def isatty(self):
        return True


@needs_torch
def test_compiling_says_so_on_a_terminal(kt, monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    kt(f".compilex({{x+1}};1.0;{EAGER})")
    assert terminal.text.startswith(".compilex: compiling ...") and terminal.text.endswith(" s\n")


@needs_torch
def test_compiling_is_silent_when_stderr_is_not_a_terminal(kt, capfd):
    kt(f".compilex({{x+2}};1.0;{EAGER})")
    assert capfd.readouterr().err == ""


@needs_torch
def test_a_compiled_loss_with_an_each_over_rows_traces_in_one_graph():
    """torch's compiler follows the whole Klong function, an Each over the rows (batched by
    torch.vmap) included, without a graph break: it reads the running backend (a
    thread-local set per thread, not a class attribute, which torch before 2.13 read in its
    place) and traces the function itself, not capture's runner standing in for it."""
    import inspect
    import torch
    from torch._dynamo.utils import counters
    from klong.backends import running
    for name in ("backend", "context"):
        with pytest.raises(AttributeError):
            inspect.getattr_static(running, name)
    k = KlongInterpreter(backend="torch", device="cpu")
    k(".bkf(\"tanh\");X::((([16 4]:^!64)!7)%7)-0.5;W::0.1*(([8 4]:^!32)!5)-2")
    counters.clear()
    k(f"lx::{{+/+/tanh({{x{{+/x*y}}:/W}}'x)}};cl::.compilex(lx;X;{EAGER})")
    assert dict(counters["graph_break"]) == {}
    # (compiled code sums in torch's order, not Klong's: docs/torch.md)
    assert k("cl(X)") == pytest.approx(k("lx(X)"), rel=1e-14)
