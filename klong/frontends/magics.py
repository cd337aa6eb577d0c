"""Klong inside IPython and Jupyter's Python kernel: `%load_ext klong`, then

    %klong +/!10                  the value of a Klong line, as a Python value
    x = %klong !5                 (so it can be assigned)
    %%klong                       a cell of Klong: lines run as at kgpy's prompt, the
    sq::{x*x}                     last value is shown as the REPL shows it
    sq'!5

Every %klong and %%klong of one IPython session shares one interpreter (backend and device
from KLONG_BACKEND and KLONG_DEVICE). Python variables go in and out by name:
`%%klong -i data -o total` copies the Python variable `data` into Klong before the cell and
the Klong variable `total` into Python after it (several names: -i a,b or -i a -i b). The
same flags work on a %klong line before the Klong code.

An error (or an interrupt) fails the cell, so that "Run all" stops there, and shows as
Klong's one-line report, without a Python traceback. A Python object with a rich form (a
plot, an SVG, a frame) shows as that form. Tab completes Klong names and Shift-Tab shows
Klong's help inside %klong lines and %%klong cells (klong/frontends/completion.py).
"""
import os
import re

from IPython.core.magic import Magics, line_cell_magic, magics_class, no_var_expand

from . import completion
from ..runtime.display import Summary
from ..interpreter import KlongInterpreter
from ..runtime.pyconv import to_python
from .replcommands import FAILED, CellSession
from .richdisplay import KlongResult, is_rich

_FLAG = re.compile(r"\s*(-i|--input|-o|--output)\s+([A-Za-z_][\w.,]*)")


def parse_flags(line):
    """'-i a,b -o c code...' -> (["a", "b"], ["c"], "code...")."""
    inputs, outputs = [], []
    while True:
        m = _FLAG.match(line)
        if not m:
            return inputs, outputs, line.strip()
        names = [n for n in m.group(2).split(",") if n]
        (inputs if m.group(1) in ("-i", "--input") else outputs).extend(names)
        line = line[m.end():]


class KlongCellError(Exception):
    """A failed %klong: IPython marks the cell failed and shows only Klong's report."""

    def __init__(self, report):
        super().__init__(report)
        self.report = report

    def _render_traceback_(self):       # IPython's hook: these lines instead of a traceback
        return self.report.split("\n")


@magics_class
class KlongMagics(Magics):
    def __init__(self, shell, interp=None):
        super().__init__(shell)
        self.interp = interp or KlongInterpreter(
            backend=os.environ.get("KLONG_BACKEND") or None,
            device=os.environ.get("KLONG_DEVICE") or None)
        self.interp.summary = Summary()
        self.interp.inline_plots = True        # .plot gives a picture the notebook shows
        self.session = CellSession(self.interp)

    @no_var_expand          # {x*x} and $ are Klong, not IPython's variable expansion
    @line_cell_magic
    def klong(self, line, cell=None):
        """Run Klong: %klong EXPR gives its value to Python; %%klong runs a cell and shows
        its last value. -i NAMES copies Python variables in, -o NAMES copies Klong
        variables out."""
        inputs, outputs, code = parse_flags(line)
        for name in inputs:
            if name not in self.shell.user_ns:
                raise KlongCellError(f"%klong: no Python variable {name}")
            self.interp[name] = self.shell.user_ns[name]
        try:
            value = self.session.run_cell(code if cell is None else cell)
        except KeyboardInterrupt:
            self.session.reset()
            raise KlongCellError("interrupted") from None
        if value is FAILED:
            raise KlongCellError(self.session.last_error.report())
        missing = [name for name in outputs if name not in self.interp]
        if missing:
            raise KlongCellError(f"%klong: no Klong variable {', '.join(missing)}")
        for name in outputs:
            self.shell.user_ns[name] = self.interp[name]
        if value is None:
            return None
        if cell is None or is_rich(value):
            return to_python(value)
        return KlongResult(value, self.interp.summary)


def _in_klong(context):
    """The Klong text before the cursor when it is in a %klong line or a %%klong cell,
    else None."""
    lines = context.full_text.split("\n")
    before = "\n".join(lines[:context.cursor_line] + [context.text_until_cursor])
    if lines and lines[0].lstrip().startswith("%%klong"):
        first_end = len(lines[0]) + 1
        return before[first_end:] if len(before) >= first_end else None
    line = context.text_until_cursor
    at = line.find("%klong ")
    if at < 0:
        return None
    return parse_flags(line[at + len("%klong "):])[2] or ""


def _klong_matcher(magics):
    def klong_completions(context):
        from IPython.core.completer import SimpleCompletion
        text = _in_klong(context)
        if text is None:
            return {"completions": []}
        matches = completion.complete(magics.interp, text)
        typed = text[len(text) - matches[0].replaces:] if matches else ""
        return {"completions": [SimpleCompletion(m.text, type="klong") for m in matches],
                "matched_fragment": typed, "suppress": bool(matches)}
    klong_completions.matcher_api_version = 2
    klong_completions.matcher_priority = 100
    return klong_completions


def _klong_inspector(magics, python_inspect):
    """The kernel's do_inspect, answering with Klong's help inside Klong code."""
    def do_inspect(code, cursor_pos, detail_level=0, omit_sections=()):
        lines = code[:cursor_pos].split("\n")
        klong_cell = code.lstrip().startswith("%%klong")
        if klong_cell or "%klong " in lines[-1]:
            start = code.index("\n") + 1 if klong_cell and "\n" in code else None
            if start is None:
                start = cursor_pos - len(lines[-1]) + lines[-1].index("%klong ") + 7
            text = completion.inspect(magics.interp, code[start:], cursor_pos - start,
                                      magics.interp.summary) if cursor_pos >= start else None
            return {"status": "ok", "found": text is not None, "metadata": {},
                    "data": {"text/plain": text} if text is not None else {}}
        return python_inspect(code, cursor_pos, detail_level, omit_sections)
    return do_inspect


def load_ipython_extension(ipython):
    magics = KlongMagics(ipython)
    ipython.register_magics(magics)
    completer = getattr(ipython, "Completer", None)
    if completer is not None and hasattr(completer, "custom_matchers"):
        completer.custom_matchers.append(_klong_matcher(magics))
    kernel = getattr(ipython, "kernel", None)      # in a Jupyter kernel: Shift-Tab help
    if kernel is not None and hasattr(kernel, "do_inspect"):
        kernel.do_inspect = _klong_inspector(magics, kernel.do_inspect)
