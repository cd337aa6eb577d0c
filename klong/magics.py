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
same flags work on a %klong line before the Klong code. Errors are Klong's one-line
reports.
"""
import os
import re
import sys

from IPython.core.magic import Magics, line_cell_magic, magics_class, no_var_expand

from .display import Summary, write
from .interpreter import KlongInterpreter
from .pyconv import to_python
from .replcommands import FAILED, CellSession, print_error

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


@magics_class
class KlongMagics(Magics):
    def __init__(self, shell, interp=None):
        super().__init__(shell)
        self.interp = interp or KlongInterpreter(
            backend=os.environ.get("KLONG_BACKEND") or None,
            device=os.environ.get("KLONG_DEVICE") or None)
        self.interp.summary = Summary()
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
                print(f"%klong: no Python variable {name}", file=sys.stderr)
                return None
            self.interp[name] = self.shell.user_ns[name]
        value = self.session.run_cell(code if cell is None else cell)
        if value is FAILED:
            print_error(self.session.last_error)
        for name in outputs:
            if name in self.interp:
                self.shell.user_ns[name] = self.interp[name]
            else:
                print(f"%klong: no Klong variable {name}", file=sys.stderr)
        if value is FAILED or value is None:
            return None
        if cell is None:
            return to_python(value)
        print(write(value, self.interp.summary))
        return None


def load_ipython_extension(ipython):
    ipython.register_magics(KlongMagics(ipython))
