"""klong: the Klong array language in Python."""
from .errors import KlongError
from .interpreter import KlongInterpreter

__version__ = "0.1.0"
__all__ = ["KlongInterpreter", "KlongError", "__version__"]
