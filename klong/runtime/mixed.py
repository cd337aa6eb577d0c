"""A list of numbers that are reals but for a few integers, held compactly.

Klong keeps each number's kind, so `0,+\\x` (an integer joined to reals) is a general list:
as Python numbers, a million of them cost a hundred times what the real array does. A
`MixedNumbers` holds such a list as one real array of the backend plus the positions and
exact values of its integers. It is a list like any other to Klong: only the verbs that
know it look inside (verbs/mixed.py: join, take, drop, tally, shape, and the arithmetic and
comparisons beside reals); every other consumer takes the ordinary value, the general list,
from `general` (values.items, the verb tables and the runtime's walkers call it).
"""
from .. import backends

# Below this length the general list is cheap: a shorter result is made one.
MIN_LENGTH = 64
# The most integers held apart; with more, the list is the general one.
MAX_INTS = 8
# Integers below this in magnitude are reals exactly: only those are held apart.
EXACT = 2 ** 53


class MixedNumbers:
    """`reals`: a 1-d real array of the backend (float64, no gradient) with every element,
    the integers as their reals; `ints`: ((position, int), ...) in position order, at least
    one, each below EXACT in magnitude. The list's length is at least MIN_LENGTH, so it is
    never empty and never all integers. Never changed once made."""
    __slots__ = ("reals", "ints", "_list")

    def __init__(self, reals, ints):
        self.reals = reals
        self.ints = ints
        self._list = None

    def __len__(self):
        return self.reals.shape[0]

    def general(self):
        """The general list (Python numbers), made once: a consumer that does not know
        this form may ask for it again and again (s@i in a loop)."""
        if self._list is None:
            elems = backends.to_host(self.reals).tolist()
            for i, v in self.ints:
                elems[i] = v
            self._list = elems
        return self._list

    def __repr__(self):
        return f"MixedNumbers({len(self)} numbers, integers at {[i for i, _ in self.ints]})"


def general(v):
    """v, or the general list a MixedNumbers stands for."""
    return v.general() if type(v) is MixedNumbers else v
