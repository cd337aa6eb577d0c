"""What a user configures for one interpreter beyond its backend: the seed, deterministic
runs, a memory limit and the memory hooks' threshold, and mixed precision (amp).

Each comes from a KlongInterpreter keyword, else from its environment variable (kgpy's
options pass the keywords), and is checked when the interpreter is made: bad input is one
KlongOptionError, never a traceback. Deterministic runs and amp change the array library's
behaviour only while the interpreter evaluates (`Evaluation`, through the backend's
`deterministic` and `autocast`), so that other interpreters in the process keep theirs.
"""
import contextlib
import os

from ..errors import KlongError
from .memory import parse_size

ENV = {"seed": "KLONG_SEED", "deterministic": "KLONG_DETERMINISTIC",
       "memory_limit": "KLONG_MEMORY_LIMIT", "memory_hook_threshold": "KLONG_MEMORY_HOOK_THRESHOLD",
       "amp": "KLONG_AMP", "amp_dtype": "KLONG_AMP_DTYPE"}
AMP_DTYPES = ("bfloat16", "float16")
MAX_SEED = 2**64 - 1               # torch's generators take seeds below 2^64
DEFAULT_HOOK_THRESHOLD = 2**20     # 1 MB
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off", "")


class KlongOptionError(KlongError, ValueError):
    """An option of the interpreter (a keyword, a kgpy option or an environment variable)
    that cannot be used. Also a ValueError, as a bad argument is in Python."""

    def __init__(self, message):
        super().__init__("option", message)


LABELS = {"seed": "the seed", "deterministic": "deterministic", "memory_limit": "the memory limit",
          "memory_hook_threshold": "the memory hook threshold", "amp": "amp",
          "amp_dtype": "the amp dtype"}


def _given(value, name):
    """(value, where it came from): the keyword (or kgpy option) when given, else the
    environment variable."""
    if value is not None:
        return value, LABELS[name]
    text = os.environ.get(ENV[name], "").strip()
    return (text, ENV[name]) if text else (None, None)


def _flag(value, name):
    value, source = _given(value, name)
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    word = str(value).strip().lower()
    if word in _TRUE or word in _FALSE:
        return word in _TRUE
    raise KlongOptionError(f"{source} must be 1 or 0 (true/false, yes/no, on/off), not {value!r}")


def _seed(value):
    value, source = _given(value, "seed")
    if value is None:
        return None
    try:
        n = int(value) if isinstance(value, (int, str)) and not isinstance(value, bool) else None
    except ValueError:
        n = None
    if n is None or not 0 <= n <= MAX_SEED:
        raise KlongOptionError(f"{source} must be an integer from 0 to 2^64-1, not {value!r}")
    return n


def _size(value, name):
    value, source = _given(value, name)
    if value is None:
        return None
    try:
        return parse_size(value)
    except ValueError as e:
        raise KlongOptionError(f"{source}: {e}") from None


class Options:
    """The checked settings of one interpreter (before its backend is made: amp decides the
    dtype of reals when none is named)."""

    def __init__(self, backend, dtype, seed=None, deterministic=None, memory_limit=None,
                 memory_hook_threshold=None, amp=None, amp_dtype=None):
        self.seed = _seed(seed)
        self.deterministic = _flag(deterministic, "deterministic")
        if self.deterministic and self.seed is None:
            self.seed = 0                 # a deterministic run repeats its random numbers too
        self.memory_limit = _size(memory_limit, "memory_limit")
        threshold = _size(memory_hook_threshold, "memory_hook_threshold")
        self.hook_threshold = DEFAULT_HOOK_THRESHOLD if threshold is None else threshold
        self.amp = _flag(amp, "amp")
        self.amp_dtype, source = _given(amp_dtype, "amp_dtype")
        if self.amp_dtype is not None and self.amp_dtype not in AMP_DTYPES:
            raise KlongOptionError(f"{source}: no mixed-precision dtype {self.amp_dtype!r}; "
                                   f"use {' or '.join(AMP_DTYPES)}")
        self.dtype = dtype
        if self.amp:
            if (backend or "numpy") != "torch":
                raise KlongOptionError(f"amp (mixed precision) needs the torch backend, not "
                                       f"{backend or 'numpy'}")
            if dtype is None:
                self.dtype = "float32"    # autocast works on float32; float64 it leaves alone
            elif dtype != "float32":
                raise KlongOptionError(f"amp needs float32 reals (the values it keeps), not "
                                       f"{dtype}: autocast leaves other dtypes alone")


def default_amp_dtype(device):
    """Reduced precision for autocast: bfloat16 on the CPU, float16 on GPUs."""
    return "bfloat16" if getattr(device, "type", device) == "cpu" else "float16"


class Evaluation:
    """What holds while one interpreter evaluates: the library's deterministic algorithms,
    autocast (amp), and, when memory is watched, a look at it afterwards. `held()` is
    entered by context.entered when the interpreter starts evaluating (not again when it
    calls itself), while `active` (nothing to hold: nothing entered)."""

    def __init__(self, backend, options, memory):
        self.backend, self.memory = backend, memory
        self.deterministic = options.deterministic
        self.amp_dtype = None
        self.active = False
        if options.amp:
            self.amp_dtype = backend.amp_dtype = \
                options.amp_dtype or default_amp_dtype(backend.device)
            try:                    # a device whose autocast lacks the dtype says so now
                with backend.autocast():
                    pass
            except Exception as e:
                raise KlongOptionError(f"amp with {self.amp_dtype} on {backend.device}: "
                                       f"{e}") from None

    def needed(self):
        return (self.deterministic and self.backend.name != "numpy"
                or self.amp_dtype is not None or self.memory.watching)

    @contextlib.contextmanager
    def held(self):
        with contextlib.ExitStack() as stack:
            if self.deterministic:
                stack.enter_context(self.backend.deterministic())
            stack.enter_context(self.backend.autocast())
            if self.memory.watching:
                stack.callback(self.memory.checkpoint)
            yield

    def update(self):
        """Whether there is anything to hold, again (after memory hooks come or go)."""
        self.active = self.needed()
