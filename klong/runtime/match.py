"""Match (`~`): Klong's whole-value equality, used by verbs and adverbs alike."""
from .. import backends
from ..backends import arrays
from . import values
from .mixed import MixedNumbers, general
from .values import Dict, is_number, is_real

REAL_TOLERANCE = 1e-14


def numbers_match(a, b):
    if a == b:
        return True
    if is_real(a) or is_real(b):
        # float64 counterpart of the reference's 18-digit equality (decided in verbs.md)
        return abs(a - b) <= REAL_TOLERANCE * max(abs(a), abs(b))
    return False


def match(a, b):
    """The question "are a and b the same value?" as a Python bool. Never raises."""
    if type(a) is str and type(b) is str:          # two strings (words compared, often)
        return a == b
    if type(a) is MixedNumbers or type(b) is MixedNumbers:
        a, b = general(a), general(b)
    if isinstance(a, arrays.ARRAY_TYPES) or isinstance(b, arrays.ARRAY_TYPES):
        a, b = values.plain(a), values.plain(b)     # match only looks
        if values.is_array(a) or values.is_array(b):
            return _match_arrays(a, b)
    if is_number(a):
        return is_number(b) and numbers_match(a, b)
    if type(a) is list:
        if type(b) is not list or len(a) != len(b):
            return False
        return all(match(x, y) for x, y in zip(a, b))
    if isinstance(a, Dict):
        if not isinstance(b, Dict) or len(a) != len(b):
            return False
        for k, (_, v) in a.table.items():
            entry = b.table.get(k)
            if entry is None or not match(v, entry[1]):
                return False
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, str):
        return str.__eq__(a, b)
    return a is b


def _match_arrays(a, b):
    if not values.is_array(a):
        a, b = b, a
    if values.is_array(b):
        if tuple(a.shape) != tuple(b.shape):
            return False
        backend = backends.current()
        if not (backend.is_array(a) and backend.is_array(b)):   # compared from Python
            a, b, backend = backends.to_host(a), backends.to_host(b), backends.HOST
        return backend.equal(a, b, REAL_TOLERANCE)
    if type(b) is list:
        if len(b) != a.shape[0]:
            return False
        return all(match(x, y) for x, y in zip(values.items(a), b))
    return False
