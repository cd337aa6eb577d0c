"""The memory of one interpreter: its statistics (`.mem()`, `memory_stats()`), the memory
limit, and the hooks told when its arrays grow or shrink.

On CUDA the figures are the caching allocator's for the interpreter's device. On the CPU
(numpy, or torch on the CPU) no allocator keeps figures, so `allocated` is the bytes of the
arrays reachable from the interpreter's variables, each buffer counted once, measured at
checkpoints: between top-level statements and when an evaluation ends, once memory is
watched (a hook is registered, or statistics were asked for), and whenever they are asked
for. `peak` is the largest such figure (with the results announced to the size guard in
between) since the start or `.memreset()`; `process_peak` is the operating system's figure
for the whole process.

Sizes are written in bytes or with a unit: B, KB, MB, GB, TB (powers of 1024).
"""
import gc
import re
import sys
import weakref

from .. import backends
from ..backends import arrays
from . import values
from ..errors import KlongError

UNITS = {"b": 1, "kb": 2**10, "mb": 2**20, "gb": 2**30, "tb": 2**40,
         "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}
# given to re as text: compiled on first use, not at start-up
_SIZE = r"^\s*([+-]?\d+(?:\.\d*)?|[+-]?\.\d+)\s*([A-Za-z]*)\s*$"


def parse_size(v):
    """A number of bytes written as a plain integer or text with a unit ("4GB", "512 MB",
    "1.5GB", "1000"); must be positive. Raises ValueError saying what is wrong."""
    if isinstance(v, bool):
        raise ValueError(f"a size is a number of bytes or text such as 4GB, not {v!r}")
    if isinstance(v, (int, float)):
        number, unit = v, "b"
    else:
        m = re.match(_SIZE, str(v))
        if not m:
            raise ValueError(f"a size is a number of bytes or text such as 4GB, not {v!r}")
        number, unit = float(m.group(1)), (m.group(2) or "b").lower()
        if unit not in UNITS:
            raise ValueError(f"unknown unit {m.group(2)!r} in {v!r}; use B, KB, MB, GB or TB "
                             f"(or plain bytes)")
    n = int(number * UNITS[unit])
    if n <= 0:
        raise ValueError(f"a size must be positive, not {v!r}")
    return n


def size_text(n):
    """Bytes for a person: 800 B, 7.6 MB, 4 GB (about 2^k B beyond 2^64)."""
    if n >= 2**64:
        return f"about 2^{n.bit_length() - 1} B"
    for unit in ("TB", "GB", "MB", "KB"):
        scale = UNITS[unit.lower()]
        if n >= scale:
            text = f"{n / scale:.1f}".removesuffix(".0")
            return f"{text} {unit}"
    return f"{n} B"


def process_peak():
    """The most memory the process has held resident, in bytes (0 where unknown)."""
    try:
        import resource
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024     # macOS says bytes
    except (ImportError, OSError, ValueError):
        return 0


def held_arrays(roots):
    """{id: (owner, bytes)} of the arrays reachable from `roots` through lists and
    dictionaries, each buffer once. A loop rather than recursion: lists may nest deeply."""
    found, seen = {}, set()
    stack = list(roots)
    while stack:
        v = stack.pop()
        t = type(v)
        if t is list or t is values.Dict:
            if id(v) in seen:
                continue
            seen.add(id(v))
            stack.extend(v if t is list else [x for pair in v.pairs() for x in pair])
        elif isinstance(v, arrays.ARRAY_TYPES):
            owner, nbytes = backends.array_backend(v).buffer(v)
            found.setdefault(id(owner), (owner, nbytes))
        elif t is values.MixedNumbers:
            stack.append(v.reals)
    return found


class _Hook:
    __slots__ = ("fn", "threshold", "base", "reported")

    def __init__(self, fn, threshold, base):
        self.fn, self.threshold, self.base, self.reported = fn, threshold, base, False


class Memory:
    """One interpreter's memory figures, limit and hooks."""

    def __init__(self, interp, limit, hook_threshold):
        self.interp = interp
        self.limit = limit                  # bytes, or None
        self.hook_threshold = hook_threshold
        self.hooks = []
        self.watching = False               # checkpoints are taken (hooks, statistics asked)
        self.peak = 0
        self.allocated = 0                  # at the last checkpoint (the CPU's figure)
        self._in_hook = False

    # -- where the figures come from
    @property
    def backend(self):
        return self.interp.backend

    @property
    def device(self):
        return self.backend.device

    def _on_device(self):
        """Whether a device allocator keeps the figures (CUDA)."""
        return self.backend.device_memory() is not None

    def _held(self):
        return held_arrays(list(self.interp.globals.values()))

    def _measure(self):
        """The bytes allocated now (and, on the CPU, the arrays held)."""
        figures = self.backend.device_memory()
        if figures is not None:
            return figures["allocated"], None
        held = self._held()
        return sum(n for _, n in held.values()), held

    # -- the memory limit and the peak of results
    def request(self, nbytes, at_least=False):
        """A result of `nbytes` (`at_least` that many) is about to be made: refuse it when
        it is over the limit."""
        if self.limit is not None and nbytes > self.limit:
            exact = f" ({nbytes} bytes)" if nbytes < 2**64 else ""
            needs = "at least " if at_least else ""
            raise KlongError("range", f"not enough memory allowed: the result needs {needs}"
                                      f"{size_text(nbytes)}{exact}, over the memory "
                                      f"limit of {size_text(self.limit)} ({self.limit} bytes)")
        if self.watching and not self._on_device():
            self.peak = max(self.peak, self.allocated + nbytes)

    # -- statistics
    def stats(self):
        """{device, allocated, reserved, peak, limit, process_peak} in bytes (limit 0: none)."""
        self._start_watching()
        figures = self.backend.device_memory()
        if figures is not None:
            allocated, reserved, peak = figures["allocated"], figures["reserved"], figures["peak"]
        else:
            allocated, _ = self._measure()
            self.allocated = allocated
            self.peak = peak = max(self.peak, allocated)
            reserved = allocated              # no cache on the CPU: what is held is taken
        return {"device": str(self.device), "allocated": allocated, "reserved": reserved,
                "peak": peak, "limit": self.limit or 0, "process_peak": process_peak()}

    def reset_peak(self):
        self.backend.reset_peak()
        self.allocated, _ = self._measure()
        self.peak = self.allocated
        self._start_watching()

    def clear(self):
        """Give cached memory back: collect garbage, and empty CUDA's cache."""
        gc.collect()
        self.backend.empty_cache()

    def _start_watching(self):
        if not self.watching:
            self.watching = True
            self.interp.evaluation.update()

    # -- hooks
    def _counters(self):
        """What a hook compares with: CUDA's running totals of bytes allocated and freed, or
        the arrays held on the CPU."""
        totals = self.backend.device_totals()
        if totals is not None:
            return totals
        return {i: (weakref.ref(a), n) for i, (a, n) in self._held().items()}

    def register(self, fn, threshold=None):
        if not callable(fn):
            raise TypeError("a memory hook must be callable as fn(device, allocated, freed)")
        if threshold is None:
            threshold = self.hook_threshold
        elif threshold != 0:                # 0: told of every change
            threshold = parse_size(threshold)
        self.hooks.append(_Hook(fn, threshold, self._counters()))
        self._start_watching()

    def remove(self, fn):
        """Remove the hook `fn` (registered earlier); returns whether there was one."""
        for i, hook in enumerate(self.hooks):
            if hook.fn is fn or hook.fn == fn:
                del self.hooks[i]
                return True
        return False

    def checkpoint(self):
        """Measure, keep the peak, and call each hook whose arrays grew or shrank by more
        than its threshold since it was last called."""
        if self._in_hook:
            return
        try:
            allocated, held = self._measure()
        except Exception:           # a look at memory never stops the evaluation
            return
        self.allocated = allocated
        self.peak = max(self.peak, allocated)
        if not self.hooks:
            return
        now = self._counters() if held is None else \
            {i: (weakref.ref(a), n) for i, (a, n) in held.items()}
        for hook in list(self.hooks):
            grown, freed = _difference(hook.base, now)
            if abs(grown - freed) > hook.threshold:
                hook.base = now
                self._call(hook, grown, freed)

    def _call(self, hook, grown, freed):
        self._in_hook = True
        try:
            hook.fn(str(self.device), grown, freed)
        except Exception as e:      # a hook's failure is the hook's: said once, then quiet
            if not hook.reported:
                hook.reported = True
                name = getattr(hook.fn, "__name__", repr(hook.fn))
                print(f"klong: memory hook {name} failed: {type(e).__name__}: {e} "
                      f"(reported once)", file=sys.stderr)
        finally:
            self._in_hook = False


def _difference(before, now):
    """(bytes allocated, bytes freed) between two counters of _counters."""
    if isinstance(before, tuple):
        return now[0] - before[0], now[1] - before[1]
    grown = sum(n for i, (ref, n) in now.items()
                if i not in before or before[i][0]() is not ref())
    freed = sum(n for i, (ref, n) in before.items()
                if i not in now or now[i][0]() is not ref())
    return grown, freed
