"""What both renderers take from the IR the same way: a primitive verb's Python function,
from the verb registry (verbs/), which says how the differentiation operators are applied,
and which function literals under Each try their batched form first."""
import operator

from ..lower import ir
from ...verbs import VERBS


def monad(op, interp):
    """The Python function of the monad `op`: the verb's, or the one the interpreter
    applies (∇f, the gradient function of f, and ˙x)."""
    entry = VERBS[op]
    if entry.monad is not None:
        return entry.monad
    return entry.host_monad.action(interp.differentiation, None)


def dyad(op):
    return VERBS[op].dyad


def differentiation(node, interp):
    """f:>p, p∇f and p∂f (an ir.Differentiate) as a Python function of the two operands."""
    return VERBS[node.op].host_dyad.action(interp.differentiation, node.variable)


def whole_first(node):
    """How Each of `node` tries the whole form of a monadic function literal before the
    literal's value is made (verbs/forms.py _each_of tries the same form first, once the
    value is made): None, not at all (no literal, no such form); "bare", a Batched form
    alone, which gives None for anything but a numeric array (it needs no guard before
    it); "guarded", any other, only on a non-empty numeric array (adverbs.numeric), as
    _each_of tries it."""
    if not (isinstance(node, ir.Lambda) and node.arity == 1 and node.whole is not None):
        return None
    if isinstance(node.whole, ir.Batched) and node.whole.first is None:
        return "bare"
    return "guarded"


# the comparisons whose truths a Compress may take straight from the library (x@&x<y)
COMPARED = {"<": operator.lt, ">": operator.gt, "=": operator.eq}


def comparison(mask):
    """The mask of a Compress node where it is a comparison that may give a vector (`x<y`
    of operands not known to be numbers): its Dyad node, which both renderers try through
    structural.compress_compared first; else None."""
    if isinstance(mask, ir.Dyad) and mask.verb.primitive and mask.verb.op in COMPARED \
            and not mask.numbers:
        return mask
    return None
