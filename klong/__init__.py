"""klong: the Klong array language in Python."""
from .errors import KlongError
from .interpreter import KlongInterpreter

__version__ = "0.1.0"
__all__ = ["KlongInterpreter", "KlongError", "__version__", "load_ipython_extension"]


def load_ipython_extension(ipython):
    """`%load_ext klong` in IPython or Jupyter: the %klong and %%klong magics."""
    from .frontends.magics import load_ipython_extension as load     # IPython only when asked
    load(ipython)
