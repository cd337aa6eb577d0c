"""Python interop (system.md B.3): .py .pyf .pyc .pya, and .bkf with gradients through the
backend's math functions. Tests using `k` run on both backends."""
import datetime
import math
import sys
import textwrap
import uuid

import numpy as np
import pytest

from klong import KlongError, KlongInterpreter
from klong.backends import list_backends

from conftest import host  # noqa: E402

HAS_TORCH = "torch" in list_backends()
TOL = {"numpy": 1e-6, "torch": 1e-12}


@pytest.fixture
def dt(k):
    k["dt"] = datetime.datetime(2020, 1, 2, 3, 4, 5)
    return k


@pytest.fixture
def clean_imports():
    """Modules written by a test are imported under fresh names; forget them afterwards."""
    path, modules = list(sys.path), set(sys.modules)
    yield
    sys.path[:] = path
    for name in set(sys.modules) - modules:
        del sys.modules[name]


def close(k, src, expected, tol=None):
    got = host(k.run(src))
    want = np.asarray(expected, dtype=np.float64)
    assert got.shape == want.shape, f"{src}: shape {got.shape}, expected {want.shape}"
    tol = TOL[k.backend.name] if tol is None else tol
    assert np.allclose(got, want, rtol=0, atol=tol), f"{src}: got {got}, expected {want}"


def unique(prefix):
    return f"{prefix}{uuid.uuid4().hex[:10]}"


# ------------------------------------------------------------------ .py

def test_py_math_examples(k):
    assert k('.py("math")') == 1
    assert k("sqrt(64)") == 8.0
    assert k("fsum(!100)") == 4950.0
    assert k("pi") == math.pi
    assert k("e") == math.e
    assert k("gcd(12;18)") == 6                  # variadic: both arguments passed on
    assert k("floor(2.5)") == 2


def test_py_file_with_sibling_module(k, tmp_path, clean_imports):
    helper, name = unique("khelper"), unique("kmod")
    (tmp_path / f"{helper}.py").write_text("def helped(x):\n    return x + 100\n")
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(f"""\
        import {helper}
        K = 42
        NAME = "zed"
        def double(x):
            return 2 * x
        def opt(a, b=10):
            return a + b
        def withk(x, klong):
            return klong("1+1") + x
        def gen(n):
            return (i * i for i in range(n))
        class Box:
            def __init__(self, v):
                self.v = v
            def get(self):
                return self.v
        """))
    assert k(f'.py("{tmp_path / name}.py")') == 1
    assert k("K") == 42
    assert k("NAME") == "zed"
    assert k("double(21)") == 42
    assert k("opt(1)") == 11 and k("opt(1;2)") == 3
    assert k("withk(5)") == 7                    # `klong` gets the interpreter, is not counted
    assert k(f'.pyc({helper},"helped";1;:{{}})') == 101
    assert list(host(k(".pyc(gen;4;:{})"))) == [0, 1, 4, 9]   # generator drained
    assert k('bx::Box(5);.pyc(bx,"get";[];:{})') == 5
    assert k('.pya(bx;"v")') == 5


def test_py_exports_table(k, tmp_path, clean_imports):
    name = unique("kexp")
    (tmp_path / f"{name}.py").write_text(textwrap.dedent("""\
        def _hello():
            return "hi"
        def _add(x, y):
            return x + y
        hidden = 5
        klongpy_exports = {".hello": _hello, "plus": _add}
        """))
    assert k(f'.py("{tmp_path / name}.py")') == 1
    assert k(".hello()") == "hi"
    assert k("plus(2;3)") == 5
    with pytest.raises(KlongError):
        k("hidden")


def test_py_package_directory(k, tmp_path, clean_imports):
    pkg = tmp_path / unique("kpkg")
    pkg.mkdir()
    (pkg / "__init__.py").write_text("def triple(x):\n    return 3 * x\nVALUE = 7\n")
    assert k(f'.py("{pkg}")') == 1
    assert k("triple(3)") == 9
    assert k("VALUE") == 7


def test_py_files_of_one_name_in_two_folders_are_two_modules(tmp_path, clean_imports):
    name = unique("mymain")
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / f"{name}.py").write_text(textwrap.dedent(f"""\
            STAMP = object()
            def hello():
                return "{folder}"
            """))
    a, b = KlongInterpreter(), KlongInterpreter()
    assert a(f'.py("{tmp_path / "one" / name}.py")') == 1
    assert b(f'.py("{tmp_path / "two" / name}.py")') == 1
    assert a("hello()") == "one" and b("hello()") == "two"
    # the same file again, by any path, is the same module, not run again
    assert a(f'.py("{tmp_path / "two" / ".." / "two" / name}.py");hello()') == "two"
    assert a["STAMP"] is b["STAMP"]


def test_py_package_directories_of_one_name_in_two_folders(tmp_path, clean_imports):
    name = unique("pkgsame")
    for folder in ("one", "two"):
        pkg = tmp_path / folder / name
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text(f'WHERE = "{folder}"\n')
        (pkg / "part.py").write_text(f'def which():\n    return "{folder} part"\n')
    a, b = KlongInterpreter(), KlongInterpreter()
    assert a(f'.py("{tmp_path / "one" / name}");WHERE') == "one"
    assert b(f'.py("{tmp_path / "two" / name}");WHERE') == "two"
    assert b(f'.pyf("{tmp_path / "two" / name}";"part");.pyc(part,"which";[];:{{}})') == "two part"


def test_py_errors(k):
    with pytest.raises(KlongError):
        k(".py(3)")
    with pytest.raises(KlongError) as info:
        k('.py("nosuchmodule_klong_xyz")')
    assert "failed to load module" in str(info.value)


# ------------------------------------------------------------------ .pyf

def test_pyf_examples(k):
    assert k('.pyf("math";"sqrt");sqrt(4)') == 2.0
    assert k('.pyf("math";["sqrt" "fsum"]);fsum(!100)') == 4950.0
    assert k('.pyf("json";"loads");loads("{}")') == {}
    assert k('loads("{""a"": 1, ""b"": ""x""}")') == {"a": 1, "b": "x"}
    assert k('.pyf("math";"pow")') == 1


def test_pyf_numpy_mean_numpy_backend(kn):
    assert kn('.pyf("numpy";"mean");mean(!100)') == 49.5


@pytest.mark.skipif(not HAS_TORCH, reason="torch is not installed")
def test_pyf_numpy_mean_torch_backend(kt):
    assert kt('.pyf("numpy";"mean");mean(!100)') == 49.5


def test_pyf_numpy_functions(k):
    close(k, '.pyf("numpy";"linspace");linspace(0;1;5)', [0.0, 0.25, 0.5, 0.75, 1.0], tol=0)
    assert list(host(k('.pyf("numpy";"cumsum");cumsum([1 2 3])'))) == [1, 3, 6]


def test_pyf_lazy_submodule(k):
    k('.pyf("numpy";"random");seed::.pya(random;"seed");seed(0)')
    a = k('r::.pya(random;"rand");r()')
    k("seed(0)")
    assert k("r()") == a


def test_pyf_errors(k):
    with pytest.raises(KlongError):
        k('.pyf("math";"nosuch")')
    with pytest.raises(KlongError):
        k('.pyf("math";[1 2])')
    with pytest.raises(KlongError):
        k('.pyf("math";["sqrt" 3])')
    with pytest.raises(KlongError):
        k('.pyf("nosuchmodule_klong_xyz";"f")')


# ------------------------------------------------------------------ .pyc

def test_pyc_examples(dt):
    k = dt
    assert k('.pyf("math";"pow");.pyc(pow;[2 3];:{})') == 8.0
    assert k('.pyc("pow";[2 3];:{})') == 8.0
    close(k, '.pyf("numpy";"linspace");.pyc(linspace;[0 1];:{["num" 3]})', [0.0, 0.5, 1.0],
          tol=0)
    assert k('.pyc(dt,"strftime";"%Y";:{})') == "2020"


def test_pyc_target_forms(dt):
    k = dt
    assert k('.pyc([dt "strftime"];"%Y-%m-%d";:{})') == "2020-01-02"
    assert k('.pyc(:dt,"isoformat";[];:{})') == "2020-01-02T03:04:05"
    assert k('.pyc(dt,"year";[];:{})') == 2020              # not callable: the value
    assert k('d2::.pyc(:dt,"replace";[];:{["year" 2021]});.pya(d2;"year")') == 2021


def test_pyc_builds_objects(k):
    k('.pyf("datetime";"datetime");d::.pyc(datetime;[2020 1 2 3 4 5];:{})')
    assert k('.pyc(d,"isoformat";[];:{})') == "2020-01-02T03:04:05"
    assert k('.pya(d;"minute")') == 4


def test_pyc_errors(dt):
    k = dt
    k('.pyf("math";"pow")')
    with pytest.raises(KlongError) as info:
        k(".pyc(pow;[2 3];3)")
    assert "dictionary" in str(info.value)
    with pytest.raises(KlongError) as info:
        k('.pyc(dt,"nosuch";[];:{})')
    assert "not found" in str(info.value)
    with pytest.raises(KlongError):
        k(".pyc(pow;[1 0 0];:{})")                # Python's TypeError
    with pytest.raises(KlongError):
        k('.pyf("math";"sqrt");.pyc(sqrt;-1;:{})')   # Python's ValueError


# ------------------------------------------------------------------ .pya

def test_pya_examples(dt):
    k = dt
    assert k('.pya(dt;"year")') == 2020
    assert k('.pya(:dt;"month")') == 1
    assert k('a:::{[1 2]};len::.pya(a;"__len__");len()') == 1
    assert k('iso::.pya(dt;"isoformat");iso()') == "2020-01-02T03:04:05"


def test_pya_errors(dt):
    k = dt
    with pytest.raises(KlongError) as info:
        k('.pya(dt;"nosuch")')
    assert "not found" in str(info.value)
    with pytest.raises(KlongError):
        k(".pya(dt;3)")


# ------------------------------------------------------------------ .bkf

def test_bkf_values(k):
    assert k('.bkf(["exp" "tanh"]);tanh(0)') == 0.0
    assert k('.bkf("exp");exp(1)') == 2.718281828459045
    assert k('.bkf("sqrt");sqrt(16)') == 4.0
    close(k, '.bkf(["sin" "cos" "log"]);sin(0)+cos(0)+log(1)', 1.0, tol=1e-15)
    v = k.run("exp([0 1])")
    assert isinstance(v, k.backend.array_type)
    close(k, "exp([0 1])", [1.0, math.e], tol=1e-15)
    close(k, '.bkf("abs");abs([-1.5 2.0])', [1.5, 2.0], tol=0)
    close(k, '.bkf("abs");abs(-3)', 3.0, tol=0)


def test_bkf_mixed_numeric_list(k):
    close(k, '.bkf("exp");exp([1 2.5])', [math.e, math.exp(2.5)], tol=1e-15)


def test_bkf_returns_no_value(k):
    assert k('.bkf("exp")') is None
    assert k.run('.bkf(["sin" "cos"])') is None


def test_bkf_errors(k):
    with pytest.raises(KlongError) as info:
        k('.bkf(["exp" "nosuchfn"])')
    assert "nosuchfn" in str(info.value)
    assert k("exp(0)") == 1.0                     # names before the bad one stay bound
    with pytest.raises(KlongError):
        k(".bkf(3)")
    with pytest.raises(KlongError):
        k('.bkf("exp");exp("a")')


def test_bkf_torch_only_names(k):
    if k.backend.name == "torch":
        assert k('.bkf("sigmoid");sigmoid(0)') == 0.5
        close(k, '.bkf("erf");erf(0.5)', math.erf(0.5), tol=1e-15)
    else:
        with pytest.raises(KlongError):
            k('.bkf("sigmoid")')
        with pytest.raises(KlongError):
            k('.bkf("erf")')


@pytest.mark.parametrize("src, expected", [
    ('.bkf("tanh");{tanh(x)}:>0.5', 1 - math.tanh(0.5) ** 2),
    ('.bkf(["sin" "cos"]);{sin(x^2)}:>1.0', 2 * math.cos(1.0)),
    ('.bkf("exp");{exp(x)}:>1.0', math.e),
    ('.bkf("exp");{+/exp(x)}:>[0 1]', [1.0, math.e]),
    ('.bkf("log");{log(x)}:>2.0', 0.5),
    ('.bkf("sqrt");{sqrt(x)}:>4.0', 0.25),
    ('.bkf("cos");{cos(x)}:>1.0', -math.sin(1.0)),
    ('.bkf(["exp" "tanh"]);{+/tanh(exp(x))}:>[0.0 0.5]',
     [(1 - math.tanh(math.exp(v)) ** 2) * math.exp(v) for v in (0.0, 0.5)]),
    ('.bkf("exp");[0.0 1.0]∂{exp(x)}', [[1.0, 0.0], [0.0, math.e]]),
])
def test_bkf_gradients(k, src, expected):
    close(k, src, expected)


def test_bkf_spec_gradient_examples(k):
    close(k, '.bkf("tanh");{tanh(x)}:>0.5', 0.7864477, tol=1e-7)
    close(k, '.bkf(["sin" "cos"]);{sin(x^2)}:>1.0', 1.0806046, tol=1e-7)


@pytest.mark.skipif(not HAS_TORCH, reason="torch is not installed")
def test_bkf_keeps_the_torch_graph(kt):
    import torch
    kt('.bkf(["tanh" "sigmoid"]);W::[0.5 -0.5];net::{+/sigmoid(tanh(W*x))}')
    g = kt.run("net:>[1.0 2.0]")
    w = torch.tensor([0.5, -0.5], dtype=torch.float64, device=kt.backend.device)
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, device=kt.backend.device,
                     requires_grad=True)
    (want,) = torch.autograd.grad(torch.sigmoid(torch.tanh(w * x)).sum(), x)
    assert torch.allclose(g, want, rtol=0, atol=1e-12)
    assert kt(".gradcheck(net;[1.0 2.0])") == 1


# ------------------------------------------------------------------ where modules are found

def test_pyf_finds_a_module_in_the_current_folder(k, in_tmp, clean_imports):
    name = unique("here")
    (in_tmp / f"{name}.py").write_text("def triple(x):\n    return 3 * x\n")
    assert k(f'.pyf("{name}";"triple");triple(4)') == 12


def test_pyf_finds_a_module_beside_the_running_script(k, tmp_path, in_tmp, clean_imports):
    name = unique("beside")
    folder = tmp_path / "prog"
    folder.mkdir()
    (folder / f"{name}.py").write_text("def double(x):\n    return 2 * x\n")
    (folder / "main.kg").write_text(f'.py("{name}")\nr::double(21)\n')
    k(f'.l("{folder / "main.kg"}")')
    assert k("r") == 42


def test_py_package_in_the_current_folder(k, in_tmp, clean_imports):
    name = unique("pkg")
    (in_tmp / name).mkdir()
    (in_tmp / name / "__init__.py").write_text("answer = 42\n")
    assert k(f'.py("{name}");answer') == 42


# ------------------------------------------------------------------ the name klong

def test_klong_names_the_interpreter_for_python(k):
    received = []
    k["take"] = lambda interp, names: received.append((interp, list(names))) or 0
    k('take(klong;["w" "b"])')
    assert received[0][0] is k and received[0][1] == ["w", "b"]


def test_python_callable_comes_back_as_itself(k):
    def f(x):
        return x
    k["f"] = f
    assert k("f") is f
