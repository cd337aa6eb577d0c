"""How a Klong value looks in a notebook (the Jupyter kernel and the IPython magics).

Klong values show as Klong text, as at the prompt (a wide matrix also as an HTML table). A
Python object that has a rich form of its own (IPython's `_repr_*_` methods: an SVG, a
pandas frame, a plot of .plot, the picture of .graph) shows as that form, as it would in
a Python notebook; a matplotlib figure shows as a PNG picture.
"""
import base64
import html
import sys

from ..backends import arrays
from ..runtime.display import write
from ..runtime.pyconv import to_python

MIME_METHODS = {
    "_repr_html_": "text/html",
    "_repr_markdown_": "text/markdown",
    "_repr_svg_": "image/svg+xml",
    "_repr_png_": "image/png",
    "_repr_jpeg_": "image/jpeg",
    "_repr_latex_": "text/latex",
    "_repr_json_": "application/json",
}
_BINARY = ("image/png", "image/jpeg")

# a matrix whose text is wider than this shows as a table too (when small enough to read)
TABLE_WIDTH, TABLE_CELLS = 100, 2000


def is_rich(value):
    """True for a Python object that knows how a notebook shows it."""
    if hasattr(value, "_repr_mimebundle_") or any(hasattr(value, m) for m in MIME_METHODS):
        return True
    return _is_figure(value)


def _is_figure(value):
    figure = sys.modules.get("matplotlib.figure")      # never imported just to ask
    return figure is not None and isinstance(value, figure.Figure)


def rich_forms(value):
    """{mime type: data} of a rich Python object, ready for a Jupyter message (pictures
    base64-encoded). A form that fails or is absent is left out."""
    forms = {}
    if _is_figure(value):
        import io
        buffer = io.BytesIO()
        value.savefig(buffer, format="png", bbox_inches="tight")
        forms["image/png"] = buffer.getvalue()
    bundle = _call(value, "_repr_mimebundle_")
    if isinstance(bundle, tuple):                      # (data, metadata)
        bundle = bundle[0]
    if isinstance(bundle, dict):
        forms.update(bundle)
    for method, mime in MIME_METHODS.items():
        if mime not in forms:
            data = _call(value, method)
            if isinstance(data, tuple):
                data = data[0]
            if data is not None:
                forms[mime] = data
    for mime in _BINARY:
        if isinstance(forms.get(mime), (bytes, bytearray)):
            forms[mime] = base64.b64encode(forms[mime]).decode("ascii")
    return forms


def _call(value, method):
    fn = getattr(value, method, None)
    if fn is None or not callable(fn):
        return None
    try:
        return fn()
    except Exception:
        return None          # a form that cannot be made is left out, as IPython does


def mime_bundle(value, summary=None):
    """The execute_result data of a value: its Klong text, and its rich forms."""
    text = write(value, summary)
    data = rich_forms(value) if is_rich(value) else {}
    data["text/plain"] = text
    table = html_table(value, text)
    if table:
        data["text/html"] = table
    return data


def html_table(value, text):
    """A wide numeric matrix as an HTML table, or None."""
    if not isinstance(value, arrays.ARRAY_TYPES) or value.ndim != 2:
        return None
    rows, columns = value.shape
    if rows * columns > TABLE_CELLS or max(len(line) for line in text.split("\n")) <= TABLE_WIDTH:
        return None
    cells = write(value).strip("[]").split("] [")
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row.split()) + "</tr>"
                   for row in cells)
    return f"<table class=\"klong-matrix\">{body}</table>"


class KlongResult:
    """A value given back by %%klong: IPython shows it as Klong text (or a table); the
    value itself, as Python sees it, is `.value`."""

    def __init__(self, value, summary=None):
        self.klong_value, self.summary = value, summary

    @property
    def value(self):
        return to_python(self.klong_value)

    def __repr__(self):
        return write(self.klong_value, self.summary)

    def _repr_pretty_(self, printer, cycle):
        printer.text(repr(self))

    def _repr_mimebundle_(self, include=None, exclude=None):
        return mime_bundle(self.klong_value, self.summary)
