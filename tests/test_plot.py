"""Pictures: .plot .hist .imshow (matplotlib, the `plot` extra) written to files and given
to notebooks, their options and their errors; the example notebook run by nbclient in the
Klong kernel."""
import base64
import os
import subprocess
import sys

import pytest

from klong import KlongError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def mpl():
    return pytest.importorskip("matplotlib")


@pytest.fixture
def inline(k):
    """The interpreter as a notebook has it: .plot gives a picture."""
    k.inline_plots = True
    return k


def host(a):
    return [float(v) for v in a]


def test_plot_to_a_file(k, mpl, tmp_path):
    path = tmp_path / "loss.png"
    assert k(f'.plot(1+!10;"{path}")') == str(path)
    assert path.read_bytes().startswith(PNG)
    svg = tmp_path / "loss.svg"
    k(f'.plot(!5;[1 4 9 16 25];:{{["title" "squares"] ["file" "{svg}"]}})')
    assert "<svg" in svg.read_text() and "squares" in svg.read_text()


def test_plot_lines_and_options(inline, mpl):
    picture = inline('.plot([1 4 9];:{["title" "T"] ["xlabel" "step"] ["ylabel" "loss"]})')
    [ax] = picture.figure.axes
    [line] = ax.get_lines()
    assert host(line.get_xdata()) == [0, 1, 2] and host(line.get_ydata()) == [1, 4, 9]
    assert (ax.get_title(), ax.get_xlabel(), ax.get_ylabel()) == ("T", "step", "loss")
    assert picture._repr_png_().startswith(PNG)


def test_plot_x_and_y_and_several_series(inline, mpl):
    [ax] = inline(".plot([10 20 30];[1 2 3])").figure.axes
    assert host(ax.get_lines()[0].get_xdata()) == [10, 20, 30]
    [ax] = inline('.plot([0 1 2];[[1 2 3] [3 2 1]];:{["labels" ["up" "down"]]})').figure.axes
    lines = ax.get_lines()
    assert [host(l.get_ydata()) for l in lines] == [[1, 2, 3], [3, 2, 1]]
    assert [l.get_label() for l in lines] == ["up", "down"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["up", "down"]


def test_hist_and_imshow(inline, mpl):
    [ax] = inline('.hist(!100;:{["bins" 4]})').figure.axes
    assert [p.get_height() for p in ax.patches] == [25, 25, 25, 25]
    ax = inline(".imshow([2 3]:^!6)").figure.axes[0]
    assert ax.get_images()[0].get_array().shape == (2, 3)


def test_reals_and_tensors(inline, mpl, backend):
    [ax] = inline(".plot(0.5*!4)").figure.axes
    assert host(ax.get_lines()[0].get_ydata()) == [0, 0.5, 1, 1.5]


@pytest.mark.parametrize("src, kind", [
    (".plot(:a)", "type"),
    ('.plot(!3;:{["colour" 1]})', "domain"),
    (".plot([1 2];[1 2 3])", "length"),
    ('.plot([1 2];:{["labels" ["a" "b"]]})', "length"),
    (".imshow(!3)", "domain"),
    ('.hist(!3;:{["bins" 0]})', "type"),
    ('.plot(!3;"nosuchdir/x.png")', "io"),
    ('.plot(!3;:{["title" 1]})', "type"),
])
def test_bad_calls_are_klong_errors(inline, mpl, src, kind, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(KlongError) as info:
        inline(src)
    assert info.value.kind == kind and "\n" not in str(info.value)


def test_at_a_terminal_without_a_display_a_file_is_needed(k, mpl, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    with pytest.raises(KlongError) as info:
        k(".plot(!3)")
    assert str(info.value) == 'domain error: .plot: no display to show it on: name a file, ' \
                              '.plot(...;"plot.png")'


def test_without_matplotlib_one_line(tmp_path):
    """matplotlib hidden: .plot is a one-line error, not a traceback."""
    (tmp_path / "matplotlib").mkdir()
    (tmp_path / "matplotlib" / "__init__.py").write_text("raise ImportError('hidden')\n")
    (tmp_path / "p.kg").write_text('.plot(!3;"x.png")\n')
    r = subprocess.run([sys.executable, "-m", "klong", "p.kg"], capture_output=True,
                       text=True, cwd=tmp_path, timeout=120,
                       env=dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{ROOT}"))
    assert r.returncode == 1
    assert r.stderr.splitlines() == [
        "p.kg:1: module error: .plot needs matplotlib: pip install -e '.[plot]'"]


def test_example_notebook_runs_in_the_klong_kernel(tmp_path):
    """examples/notebooks/linear_regression.ipynb, executed by nbclient in the Klong kernel
    (its kernel spec installed in a temporary folder): the loss curve is a PNG."""
    pytest.importorskip("matplotlib")
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager
    from klong.frontends.kernel.install import install
    install(prefix=str(tmp_path))
    specs = KernelSpecManager(kernel_dirs=[str(tmp_path / "share" / "jupyter" / "kernels")])
    nb = nbformat.read(os.path.join(ROOT, "examples", "notebooks", "linear_regression.ipynb"),
                       as_version=4)
    manager = KernelManager(kernel_name="klong", kernel_spec_manager=specs)
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("KLONG_BACKEND", None)
    client = nbclient.NotebookClient(nb, km=manager, timeout=300, kernel_name="klong")
    client.execute(env=env, cwd=str(tmp_path))
    results = [out for cell in nb.cells if cell.cell_type == "code"
               for out in cell.outputs if out.output_type == "execute_result"]
    assert [out.data["text/plain"] for out in results if "image/png" not in out.data] == [
        "57.0", "1000", "[2.0001 0.9995]"]
    [picture] = [out.data for out in results if "image/png" in out.data]
    assert base64.b64decode(picture["image/png"]).startswith(PNG)
    assert not any(out.output_type == "error" for cell in nb.cells if cell.cell_type == "code"
                   for out in cell.outputs)


def test_at_a_terminal_with_a_display_a_window(k, mpl, monkeypatch):
    """With a display, .plot opens a pyplot window (here pyplot's non-interactive backend
    stands in for the window system) and gives the picture."""
    import warnings
    import matplotlib.pyplot as plt
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(sys, "platform", "linux")
    before = plt.get_backend()
    plt.switch_backend("agg")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")          # agg: "cannot show the figure"
            picture = k('.plot([3 1 2];:{["title" "window"]})')
        assert plt.fignum_exists(picture.figure.number)     # a window of pyplot's
        [ax] = picture.figure.axes
        assert ax.get_title() == "window" and host(ax.get_lines()[0].get_ydata()) == [3, 1, 2]
        plt.close(picture.figure)
    finally:
        plt.switch_backend(before)


def test_matplotlib_is_imported_only_when_drawing(tmp_path):
    code = ("import klong, sys; k = klong.KlongInterpreter(); k('+/!10'); "
            "print('matplotlib' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=tmp_path, env=dict(os.environ, PYTHONPATH=ROOT), timeout=120)
    assert r.stdout.split() == ["False"], r.stderr
