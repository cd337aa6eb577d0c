"""Passes over the IR, shared by both renderers: facts about each function literal first
(facts.py, wholes.py, batching.py: read from the IR as lowered), then rewrites by rules
(loops.py, updates.py, progressions.py), values a conditional's predicate computes and its
consequent again shared (shared.py), then the verbs applied to values known to be plain
numbers (numbers.py)."""
from . import loops, progressions, shared, updates
from .rewrite import rewrite

REWRITES = (loops.inline_loop, loops.sum_of_products, loops.sum_of_each, loops.compress,
            loops.joined_chars, updates.in_place_update, updates.join_entry,
            progressions.progression)


def run(chunk, batch=True):
    """The lowered chunk, its function literals' facts settled and its nodes rewritten.
    `batch`: monads get batched forms (the interpreter's; KLONG_BATCH=0 turns it off)."""
    rules = REWRITES + (shared.Slots().rule,)
    if not chunk.lambdas:       # it runs once: marks would not pay
        return rewrite(chunk, rules)
    # imported here, not at start-up: only function literals need them, and a chunk without
    # one (all that kgpy -e 1 runs) is read sooner without them
    from . import batching, facts, numbers, wholes
    for fn in chunk.lambdas:
        facts.settle(fn)
        wholes.settle(fn)
        if batch:
            batching.settle(fn)
    chunk = rewrite(chunk, rules)
    numbers.settle(chunk)
    for fn in chunk.lambdas:      # nested ones first: a copy keeps what they got
        numbers.integer_entry(fn)
        numbers.real_entry(fn)
    return chunk
