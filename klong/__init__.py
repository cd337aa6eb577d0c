"""klong: the Klong array language in Python, on numpy or PyTorch, with gradients.

Klong is a terse array language in the APL family: `+/!10` is the sum of 0..9, and
`{x^2}:>3.0` the derivative of x^2 at 3. This package runs it on numpy arrays or, with
PyTorch installed, on torch tensors (CPU, CUDA or MPS), where `:>` differentiates exactly.

Where to start:

    >>> from klong import KlongInterpreter
    >>> k = KlongInterpreter()          # or KlongInterpreter(backend="torch")
    >>> k("+/!10")
    45
    >>> k["double"] = lambda x: x * 2   # Python values and functions go in,
    >>> k("double(21)")                 # and Klong's values come out (lists as arrays)
    42

  KlongInterpreter   one interpreter with its own variables (help(KlongInterpreter))
  KlongError         what a failing Klong program raises: kind, message, line, column
  kgpy               the command line: kgpy FILE, kgpy -e EXPR, or kgpy for the prompt
  %load_ext klong    the %klong and %%klong magics in IPython and Jupyter
  python -m klong.kernel install --user   a Jupyter kernel for Klong notebooks

The documentation is in the checkout's docs/ folder (docs/index.md first; python.md for
this API, language.md and verbs.md for the language).
"""
from .errors import KlongError
from .interpreter import KlongInterpreter

__version__ = "0.1.0"
__all__ = ["KlongInterpreter", "KlongError", "__version__", "load_ipython_extension"]


def load_ipython_extension(ipython):
    """`%load_ext klong` in IPython or Jupyter: the %klong and %%klong magics."""
    from .frontends.magics import load_ipython_extension as load     # IPython only when asked
    load(ipython)
