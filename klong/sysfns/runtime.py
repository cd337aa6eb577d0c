"""Random numbers and memory from Klong: .rn .srn, .mem .memreset .memclear (settings.py,
memory.py, randomness.py)."""
from ..errors import KlongError
from ..runtime.settings import MAX_SEED
from ..runtime.values import Dict
from .table import table

FUNCTIONS, register = table()


@register(".rn", 0)
def random_real(interp):
    return interp.random.real()


@register(".srn", 1)
def reseed(interp, n):
    if type(n) is not int or not 0 <= n <= MAX_SEED:
        raise KlongError("type" if type(n) is not int else "range",
                         ".srn: the seed is an integer from 0 to 2^64-1")
    interp.random.reseed(n)
    return n


@register(".mem", 0)
def memory_stats(interp):
    return Dict(interp.memory.stats().items())


@register(".memreset", 0)
def reset_peak(interp):
    interp.memory.reset_peak()
    return memory_stats(interp)


@register(".memclear", 0)
def clear_memory(interp):
    interp.memory.clear()
    return memory_stats(interp)
