"""Random numbers and memory from Klong: .rn .srn, .mem .memreset .memclear (settings.py,
memory.py, randomness.py)."""
from ..errors import KlongError
from ..runtime.settings import MAX_SEED
from ..runtime.values import Dict


def random_real(interp):
    return interp.random.real()


def reseed(interp, n):
    if type(n) is not int or not 0 <= n <= MAX_SEED:
        raise KlongError("type" if type(n) is not int else "range",
                         ".srn: the seed is an integer from 0 to 2^64-1")
    interp.random.reseed(n)
    return n


def memory_stats(interp):
    return Dict(interp.memory.stats().items())


def reset_peak(interp):
    interp.memory.reset_peak()
    return memory_stats(interp)


def clear_memory(interp):
    interp.memory.clear()
    return memory_stats(interp)


FUNCTIONS = {
    ".rn": (0, random_real),
    ".srn": (1, reseed),
    ".mem": (0, memory_stats),
    ".memreset": (0, reset_peak),
    ".memclear": (0, clear_memory),
}
