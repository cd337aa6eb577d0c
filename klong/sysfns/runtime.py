"""Random numbers and memory from Klong: .rn .srn, .mem .memreset .memclear (settings.py,
memory.py, randomness.py)."""
from ..errors import KlongError
from ..runtime.settings import MAX_SEED
from ..runtime.values import Dict


def install(interp, define):
    def reseed(n):
        if type(n) is not int or not 0 <= n <= MAX_SEED:
            raise KlongError("type" if type(n) is not int else "range",
                             ".srn: the seed is an integer from 0 to 2^64-1")
        interp.random.reseed(n)
        return n

    def stats():
        return Dict(interp.memory.stats().items())

    def reset():
        interp.memory.reset_peak()
        return stats()

    def clear():
        interp.memory.clear()
        return stats()

    define(".rn", 0, interp.random.real)
    define(".srn", 1, reseed)
    define(".mem", 0, stats)
    define(".memreset", 0, reset)
    define(".memclear", 0, clear)
