"""The limits of Klong values, and Python's own limits that Klong steps around.

- Integers are exact. A list of integers is an int64 array while its elements fit; an
  operation whose result could leave int64 is done on Python integers instead, never
  wrapped. Whether it could is decided from magnitude bounds (an array's largest and
  smallest element), before the operation. A big array's bound is remembered for the
  array's lifetime (Klong never changes an array once made), and an operation's result
  gets the bound its operands imply, so that `+/a*a` scans `a` once, not at every use.
- An integer vector made as an arithmetic progression (Enumerate, a number times or plus
  one, a number joined before one) has that remembered too, with its bound: Amend writes
  at such indices as a slice without scanning them for their order (the sieve's
  s:=0,(x*x)+x*!k).
- An integer has at most MAX_INT_BITS bits: a result beyond that is a range error, not
  minutes of arithmetic.
- A list has at most `max_elements` elements (the size guard): an operation that would
  make more is a range error before it allocates. The limit belongs to the interpreter
  (`KlongInterpreter(max_elements=...)`, else $KLONG_MAX_ELEMENTS, else a share of the
  memory available when the interpreter starts).
- Integers print and read at any size: Python refuses str(int) beyond 4300 digits
  (sys.get_int_max_str_digits), a process-wide setting that is not ours to change.
- A real written beyond float64's range is a range error, not inf.

The size guard's limit and the remembered magnitudes belong to one interpreter: its
`Limits` (`interp.limits`), which its running code finds through its context (context.py,
recorded in backends.running) as `current()`.
"""
import functools
import math
import os
import weakref

from .. import backends
from ..backends import arrays
from ..errors import KlongError
from .mixed import MixedNumbers

INT64_MIN = -2**63
INT64_MAX = 2**63 - 1
MAX_INT_BITS = 2**22                 # about 1.26 million decimal digits: a product of two
                                     # such integers takes Python well under a second

ENV_MAX_ELEMENTS = "KLONG_MAX_ELEMENTS"
BYTES_PER_ELEMENT = 64               # an element's share of the memory available
BYTES_PER_RESULT_ELEMENT = 8         # what an element of a result takes (int64, float64)
FALLBACK_MEMORY = 2**32              # bytes assumed where the system does not say

SMALL_VECTOR = 64          # up to this many elements, Python's min/max are the quickest
REMEMBERED = SMALL_VECTOR  # from this many elements on, an array's magnitude is remembered
SWEEP = 4096               # remembered entries, at the least, before those of dead arrays go


# ---------------------------------------------------------------- one interpreter's limits


class Limits:
    """One interpreter's limits: the size guard's `max_elements`, and the magnitudes of its
    big integer arrays (upper bounds of |element|) as far as they are known."""

    def __init__(self, max_elements=None):
        self.max_elements = (default_max_elements() if max_elements is None
                             else parse_max_elements(max_elements))
        # id(array) -> (weak reference, bound, progression or None: see `progression`); an
        # entry whose array is gone is never used (its reference is dead), and is dropped
        # once the table holds `_sweep_at` entries (a callback on each reference would cost
        # a closure per array made: a fifth of a verb's time on a few hundred numbers)
        self._magnitudes = {}
        self._sweep_at = SWEEP
        self.memory = None             # the interpreter's klong.runtime.memory.Memory (its limit)

    def magnitude(self, x):
        """An upper bound of |e| over the elements of integer array x (or |x| for an
        integer), as a Python int: exact when it was scanned, implied when remembered."""
        if not isinstance(x, arrays.ARRAY_TYPES) or x.ndim == 0:
            return abs(int(x))
        if x.ndim == 1 and x.shape[0] <= SMALL_VECTOR:
            elems = x.tolist()
            return max(max(elems), -min(elems)) if elems else 0
        known = self._magnitudes.get(id(x))
        if known is not None and known[0]() is x:
            return known[1]
        if 0 in x.shape:
            m = 0
        else:
            lo, hi = backends.current().bounds(x)
            m = max(hi, -lo)
        self.remember(x, m)
        return m

    def known(self, x):
        """The bound remembered for the array x, or None (no scan: see `magnitude`)."""
        known = self._magnitudes.get(id(x))
        if known is not None and known[0]() is x:
            return known[1]
        return None

    def remember(self, x, bound, progression=None):
        """Note that no element of the new array x exceeds `bound` in magnitude, and, for an
        integer vector, that it is the arithmetic `progression` (see `progression`)."""
        if math.prod(x.shape) >= REMEMBERED:
            table = self._magnitudes
            if len(table) >= self._sweep_at:
                self._sweep()
            table[id(x)] = (weakref.ref(x), bound, progression)

    def _sweep(self):
        """Drop the entries of arrays that are gone; sweep again when the table has grown
        to twice what is left (each entry is swept a bounded number of times)."""
        table = self._magnitudes
        for key in [key for key, known in table.items() if known[0]() is None]:
            del table[key]
        self._sweep_at = max(SWEEP, 2 * len(table))

    def progression(self, x):
        """(first, step, skip) when integer vector x is known to hold first, first+step,
        first+2*step ... from its element `skip` on (its first `skip` elements are any
        integers), else None. Known only where `remember` was told, for a big array."""
        known = self._magnitudes.get(id(x))
        if known is not None and known[0]() is x:
            return known[2]
        return None

    def recording(self):
        """The table of what is known, emptied for an evaluation recorded for replay
        (runtime/capture.py), which gives it back when done: the replay runs on new arrays,
        so nothing known of the arrays made before may be taken for granted (a bound is
        found from the array, a check the record makes again); what the evaluation learns
        of the arrays it makes itself holds in the replay too (it follows from the recorded
        operations and the numbers the record guards)."""
        table, self._magnitudes = self._magnitudes, {}
        return table

    def recorded(self, table):
        """The table `recording` returned, back in force."""
        self._magnitudes = table

    def allows(self, n):
        """Whether a list of n elements passes the size guard (check_elements) here: both
        of its limits are fixed when the interpreter is made."""
        memory = self.memory
        return n <= self.max_elements and (memory is None or memory.limit is None
                                           or n * BYTES_PER_RESULT_ELEMENT <= memory.limit)

    def overwritten(self, x, v):
        """Some elements of array x were written with v in place (verbs/inplace.py): a bound
        remembered for x still holds if it covers v, else it is forgotten."""
        known = self._magnitudes.get(id(x))
        if known is None or known[0]() is not x:
            return
        if type(v) is int and abs(v) <= known[1]:
            self._magnitudes[id(x)] = known[:2] + (None,)   # the bound, no progression now
            return
        del self._magnitudes[id(x)]


def current():
    """The running interpreter's Limits; defaults outside any interpreter, and while code
    runs on another backend than the interpreter's (list literals are read on the host)."""
    running = backends.running
    context = running.context
    if context is not None and context.backend is running.backend:
        return context.limits
    return Limits()


# ---------------------------------------------------------------- exact integers

def magnitude(x):
    """The largest magnitude in an integer array or integer (see Limits.magnitude)."""
    return current().magnitude(x)


def fits_int64(n):
    return INT64_MIN <= n <= INT64_MAX


def too_large():
    return KlongError("range", "number too large")


def check_bits(bits):
    """Raise a range error when an integer of `bits` bits would be too large."""
    if bits > MAX_INT_BITS:
        raise too_large()


def times(a, b):
    """a*b on numbers, exact for integers, refusing an integer of more than MAX_INT_BITS bits
    (repeated squaring would otherwise run for hours)."""
    if type(a) is int and type(b) is int and a.bit_length() + b.bit_length() > 64:
        check_bits(a.bit_length() + b.bit_length() - 1)
    return a * b


# ---------------------------------------------------------------- the size guard

def _available_memory():
    """Bytes of memory available, as read the first time (a fact about the machine). Not
    through functools.lru_cache: torch's compiler, tracing a Klong function whose limits
    are made anew, runs what that wraps, and cannot follow the file read."""
    if not _MEMORY:
        _MEMORY.append(_read_available_memory())
    return _MEMORY[0]


_MEMORY = []


def _read_available_memory():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    for pages in ("SC_AVPHYS_PAGES", "SC_PHYS_PAGES"):
        try:
            return os.sysconf(pages) * os.sysconf("SC_PAGE_SIZE")
        except (AttributeError, ValueError, OSError):
            continue
    return FALLBACK_MEMORY


def default_max_elements():
    """$KLONG_MAX_ELEMENTS, else a share of the available memory."""
    text = os.environ.get(ENV_MAX_ELEMENTS, "").strip()
    if text:
        return parse_max_elements(text)
    return max(2**20, _available_memory() // BYTES_PER_ELEMENT)


def parse_max_elements(v):
    """A limit given by a user (an int, or the text of one), checked."""
    try:
        n = int(v)
    except (TypeError, ValueError):
        n = 0
    if n < 1:
        raise ValueError(f"the element limit must be a positive integer, not {v!r}")
    return n


def check_elements(n):
    """The size guard: raise a range error before making a list of n elements when n is
    over the interpreter's limit, or when it would take more than its memory limit
    (memory.py). Call it where a list's size comes from a value."""
    limits = current()
    memory = limits.memory
    if memory is not None and (memory.limit is not None or memory.watching):
        # (a request without a limit, unwatched, does nothing: a pair in a loop asks often)
        memory.request(n * BYTES_PER_RESULT_ELEMENT)
    limit = limits.max_elements
    if n > limit:
        digits = int_text(n)
        shown = digits if len(digits) <= 15 else f"about 10^{len(digits) - 1}"
        raise KlongError("range", f"too many elements: {shown} (the limit is {limit}, "
                                  f"set by {ENV_MAX_ELEMENTS})")


def gather(parts, n):
    """list(parts): the n parts of a list being assembled (Each's results, a scan's), counted
    as they come under a memory limit, so that a result over it is refused as soon as the
    parts made so far are (a list of many parts is otherwise only measured once they all
    exist). Without a limit, nothing is counted."""
    memory = current().memory
    if memory is None or memory.limit is None:
        return list(parts)
    out, add = gatherer(n)
    for v in parts:
        add(v)
    return out


def gatherer(n):
    """(out, add): the list `gather` assembles and the function that appends one part to
    it, counted as gather counts it; for a loop that makes its parts itself (a scan run
    inline). Without a memory limit, `add` is the list's own append."""
    out = []
    memory = current().memory
    if memory is None or memory.limit is None:
        return out, out.append
    bound = memory.limit // BYTES_PER_RESULT_ELEMENT
    total = 0

    def add(v):
        nonlocal total
        out.append(v)
        t = type(v)
        if t is list or t is str or t is MixedNumbers:
            total += len(v)
        elif t is not int and t is not float and isinstance(v, arrays.ARRAY_TYPES):
            total += math.prod(v.shape)
        else:
            total += 1
        if total > bound:
            counts = {elements_of(v) for v in out}
            if len(counts) == 1 and n is not None:     # equal parts: what all n would take
                memory.request(n * counts.pop() * BYTES_PER_RESULT_ELEMENT)
            memory.request(total * BYTES_PER_RESULT_ELEMENT, at_least=True)
    return out, add


def check_items(n, like):
    """The size guard for a list of n items, each the size of an item of list `like`."""
    is_array = isinstance(like, arrays.ARRAY_TYPES) and like.ndim
    per_item = math.prod(like.shape[1:]) if is_array else 1
    check_elements(n * per_item)


def elements_of(v):
    """How many elements (numbers, characters, or items of a Python list) a value holds,
    counted cheaply: an array's size, a string's length, a list's length."""
    if isinstance(v, arrays.ARRAY_TYPES):
        return math.prod(v.shape)
    if type(v) in (list, str, MixedNumbers):
        return len(v)
    return 1


# ---------------------------------------------------------------- integers as text

_SMALL_BITS = 8192                   # str() is quick below this many bits,
_SMALL_DIGITS = 2000                 # and int() below this many digits


def int_text(n):
    """The decimal text of an integer of any size. Large ones are split in binary halves
    and joined in decimal arithmetic (its multiplication is fast at any size), so that
    this takes far less than the quadratic time of converting digit by digit."""
    if n.bit_length() <= _SMALL_BITS:
        return str(n)
    text = str(_decimal(abs(n), {}, _decimal_context()))
    return "-" + text if n < 0 else text


@functools.cache
def _decimal_context():
    """Exact decimal arithmetic; made on first use: decimal is not imported at start-up."""
    import decimal
    return decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)


def _decimal(n, powers, context):
    """n >= 0 as an exact Decimal in `context`; `powers` caches 2^k as Decimals."""
    bits = n.bit_length()
    if bits <= _SMALL_BITS:
        return context.create_decimal(n)
    k = _SMALL_BITS
    while 2 * k < bits:
        k *= 2
    high, low = n >> k, n & ((1 << k) - 1)
    scale = powers.get(k)
    if scale is None:
        scale = powers[k] = context.power(context.create_decimal(2), k)
    return context.add(context.multiply(_decimal(high, powers, context), scale),
                       _decimal(low, powers, context))


def int_from_text(text):
    """The integer written in `text` (optional sign, decimal digits), of any length:
    halves are read apart and combined, which Python's int() refuses beyond 4300 digits."""
    text = text.strip()
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-").lstrip("0") or "0"
    check_bits(int(len(digits) * math.log2(10)))
    return sign * _digits_value(digits, {})


def _digits_value(digits, powers):
    if len(digits) <= _SMALL_DIGITS:
        return int(digits)
    k = _SMALL_DIGITS
    while 2 * k < len(digits):
        k *= 2
    scale = powers.get(k)
    if scale is None:
        scale = powers[k] = 10 ** k
    return _digits_value(digits[:-k], powers) * scale + _digits_value(digits[-k:], powers)


def real_from_text(text):
    """The real written in `text` (Python's float syntax). A real beyond float64's range
    is a range error rather than inf: a written number is meant as written, and inf is not
    what was written. One too small to represent reads as 0.0 (or a subnormal), an error
    no larger than the rounding every written real undergoes."""
    value = float(text)
    if math.isinf(value) and "inf" not in text.lower():
        raise KlongError("range", f"real beyond the range of 64-bit reals: {text.strip()}")
    return value
