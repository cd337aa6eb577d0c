"""Passes over the IR, shared by both renderers: facts about each function literal first
(facts.py, wholes.py: read from the IR as lowered), then rewrites by rules (loops.py), then
the verbs applied to values known to be plain numbers (numbers.py)."""
from . import facts, loops, numbers, wholes
from .rewrite import functions, rewrite

REWRITES = (loops.inline_loop, loops.sum_of_products)


def run(chunk):
    """The lowered chunk, its function literals' facts settled and its nodes rewritten."""
    for fn in functions(chunk):
        facts.settle(fn)
        wholes.settle(fn)
    chunk = rewrite(chunk, REWRITES)
    numbers.settle(chunk)
    for fn in reversed(list(functions(chunk))):     # nested ones first: copies keep theirs
        numbers.integer_entry(fn)
    return chunk
