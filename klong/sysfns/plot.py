"""Pictures of numbers: .plot .hist .imshow, drawn with matplotlib (the `plot` extra).

    .plot(y)  .plot(x;y)        a line; y a matrix: one line per row
    .hist(v)                    a histogram
    .imshow(m)                  a matrix as an image
    ...;opts                    a dictionary: title, xlabel, ylabel, labels, bins, file
    ...;"loss.png"              written to a file (any format matplotlib knows)

Where the picture goes: a file when one is named; in a notebook (the kernel and the
magics set `interp.inline_plots`) the value is a Picture the notebook shows; at a terminal
with a display, a window. Files are drawn without pyplot, so no display is ever needed
for them.
"""
import os
import sys

from .. import backends
from ..backends import arrays
from ..errors import KlongError
from ..runtime.values import Dict, is_string, is_symbol
from .table import table

FUNCTIONS, register = table()

MISSING = "needs matplotlib: pip install -e '.[plot]'"
OPTIONS = ("title", "xlabel", "ylabel", "labels", "bins", "file")


class Picture:
    """A matplotlib figure as a Klong value: notebooks show it (PNG), `save` writes it."""
    klong_name = ":picture"

    def __init__(self, figure):
        self.figure = figure

    def save(self, path):
        try:
            self.figure.savefig(path, bbox_inches="tight")
        except (OSError, ValueError) as e:
            reason = getattr(e, "strerror", None) or str(e).split("\n")[0]
            raise KlongError("io", f"cannot write {path}: {reason}") from None
        return path

    def _repr_png_(self):
        import io
        buffer = io.BytesIO()
        self.figure.savefig(buffer, format="png", bbox_inches="tight")
        return buffer.getvalue()


def matplotlib_figure(name):
    """A new matplotlib Figure, not managed by pyplot (no display, no global state)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise KlongError("module", f"{name} {MISSING}") from None
    return Figure(figsize=(6.4, 4.0))


def has_display():
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def numbers(name, v):
    """A Klong list as Python floats: a list of numbers, or a list of rows (a matrix)."""
    if isinstance(v, arrays.ARRAY_TYPES):
        v = backends.to_host(v).tolist()
    if not isinstance(v, list):
        v = [v]
    out = [_row(name, e) if isinstance(e, (list, arrays.ARRAY_TYPES)) else _real(name, e)
           for e in v]
    if len({type(e) for e in out}) > 1:
        raise KlongError("type", f"{name}: a list of numbers or a matrix is needed")
    return out


def _row(name, e):
    if isinstance(e, arrays.ARRAY_TYPES):
        e = backends.to_host(e).tolist()
    return [_real(name, x) for x in e] if isinstance(e, list) else [_real(name, e)]


def _real(name, x):
    if isinstance(x, arrays.ARRAY_TYPES) and x.ndim == 0:
        x = x.item()
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise KlongError("type", f"{name}: numbers are needed")
    return float(x)


def _is_matrix(a):
    return bool(a) and isinstance(a[0], list)


def split_arguments(name, args):
    """(data arguments, options dict, file name) of a call: a trailing string names the
    file and a trailing dictionary holds the options."""
    args, options, path = list(args), {}, None
    while args and (is_string(args[-1]) or isinstance(args[-1], Dict)):
        last = args.pop()
        if is_string(last):
            path = last
        else:
            options = {str(k): v for k, v in last.pairs()}
    unknown = [k for k in options if k not in OPTIONS]
    if unknown:
        raise KlongError("domain", f"{name}: unknown option {unknown[0]} "
                                   f"(known: {' '.join(OPTIONS)})")
    if "file" in options:
        path = options["file"]
    if path is not None and not is_string(path):
        raise KlongError("type", f"{name}: the file name must be a string")
    if not args:
        raise KlongError("arity", f"{name}: no data to draw")
    return args, options, path


def _text(name, options, key):
    v = options.get(key)
    if v is None:
        return None
    if is_string(v) or is_symbol(v):
        return str(v)
    raise KlongError("type", f"{name}: {key} must be a string")


def _label(ax, name, options):
    for key, setter in (("title", ax.set_title), ("xlabel", ax.set_xlabel),
                        ("ylabel", ax.set_ylabel)):
        text = _text(name, options, key)
        if text is not None:
            setter(text)


def draw_lines(ax, name, data, options):
    if len(data) > 2:
        raise KlongError("arity", f"{name}: at most x;y, then options or a file name")
    y = numbers(name, data[-1])
    x = numbers(name, data[0]) if len(data) == 2 else None
    series = y if _is_matrix(y) else [y]
    if x is not None and (_is_matrix(x) or any(len(x) != len(row) for row in series)):
        raise KlongError("length", f"{name}: x has {len(x)} items, y {len(series[0])}")
    labels = options.get("labels")
    if labels is not None:
        labels = [str(label) for label in (labels if isinstance(labels, list) else [labels])]
        if len(labels) != len(series):
            raise KlongError("length", f"{name}: {len(labels)} labels for {len(series)} lines")
    for i, row in enumerate(series):
        points = (row,) if x is None else (x, row)
        ax.plot(*points, label=labels[i] if labels else None)
    if labels:
        ax.legend()


def draw_histogram(ax, name, data, options):
    bins = options.get("bins", 10)
    if isinstance(bins, bool) or not isinstance(bins, int) or bins < 1:
        raise KlongError("type", f"{name}: bins must be a positive integer")
    v = numbers(name, data[0])
    ax.hist([e for row in v for e in row] if _is_matrix(v) else v, bins=bins)


def draw_image(ax, name, data, options):
    m = numbers(name, data[0])
    if not _is_matrix(m) or len({len(row) for row in m}) != 1:
        raise KlongError("domain", f"{name}: a matrix is needed")
    ax.figure.colorbar(ax.imshow(m, aspect="auto"), ax=ax)


def _drawn(interp, name, draw, most, args):
    """What .plot, .hist or .imshow gives for `args`: the file written, or the Picture."""
    data, options, path = split_arguments(name, args)
    if len(data) > most:
        raise KlongError("arity", f"{name}: too many arguments")
    figure = matplotlib_figure(name)
    ax = figure.add_subplot()
    draw(ax, name, data, options)
    _label(ax, name, options)
    if path is not None:
        return Picture(figure).save(path)
    if getattr(interp, "inline_plots", False):
        return Picture(figure)
    return _window(name, draw, data, options)


@register(".plot", (1, 3))
def plot(interp, *args):
    return _drawn(interp, ".plot", draw_lines, 2, args)


@register(".hist", (1, 3))
def hist(interp, *args):
    return _drawn(interp, ".hist", draw_histogram, 1, args)


@register(".imshow", (1, 3))
def imshow(interp, *args):
    return _drawn(interp, ".imshow", draw_image, 1, args)


def _window(name, draw, data, options):
    """At a terminal: a pyplot window, or an error saying how to write a file instead."""
    if not has_display():
        raise KlongError("domain", f"{name}: no display to show it on: "
                                   f"name a file, {name}(...;\"plot.png\")")
    import matplotlib.pyplot as plt
    figure = plt.figure()
    ax = figure.add_subplot()
    draw(ax, name, data, options)
    _label(ax, name, options)
    plt.show(block=False)
    plt.pause(0.001)
    return Picture(figure)


# each takes data, then options or a file name: 1 to 3 arguments
