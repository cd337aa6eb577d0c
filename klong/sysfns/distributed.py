"""Data-parallel Klong (docs/distributed.md): the rank and world size, collectives, and
gradients averaged over the processes that torchrun starts. They speak only to the backend's
group (backends/group.py); on numpy, or in a single process, that is a world of one and
every function still works, so one script runs everywhere.

Every collective begins with an exchange of short headers (which function, the root, the
kind of the numbers, their count and a digest of their shapes), so that every rank sees
every disagreement and all of them raise the same error, instead of some waiting forever on
a collective that cannot complete.
"""
import math
import os
import sys
import zlib

from ..runtime import context, values
from ..backends.base import DTYPES
from ..backends.group import ALONE
from ..errors import KlongError
from ..runtime.limits import INT64_MAX
from .io import display_line
from .table import table

FUNCTIONS, register = table()

# a header is [collective, root, real type, kind, count, digest]; collective 0: the rank refused
# its call
CALL, ROOT, REAL, KIND, COUNT = range(5)
COLLECTIVES = [None, ".barrier", ".allsum", ".allmean", ".allgather", ".bcast"]
KINDS = "if"
NO_SHAPE = -1


# ------------------------------------------------------------------ values as flat arrays

def _numbers(x, what, backend):
    """(kind, shapes, leaves) of a number, a numeric list, or a list of these (gradients of
    several shapes, say): the numeric parts in order, and a shape per part, nested as x
    nests (a tuple for each part, a list for each list of parts)."""
    if values.is_number(x):
        shapes, leaves = (), [x]
    elif values.is_array(x) and values.array_kind(x) in KINDS:
        shapes, leaves = tuple(int(n) for n in x.shape), [x]
    elif type(x) is list:
        shapes, leaves = [], []
        for e in x:
            shape, parts = _numbers(e, what, backend)[1:]
            shapes.append(shape)
            leaves += parts
    else:
        raise KlongError("type", f"{what}: a number, a list of numbers, "
                                 "or a list of these expected")
    if any(type(leaf) is int and not -INT64_MAX - 1 <= leaf <= INT64_MAX for leaf in leaves):
        raise KlongError("range", f"{what}: integers beyond 64 bits cannot be sent to other ranks")
    if any(backend.is_tracked(leaf) for leaf in leaves):
        # a value being differentiated exactly: the ranks cannot share its graph
        raise KlongError("type", f"{what}: collectives are not differentiable; take the "
                                 "gradient first, then average it (.allgrad)")
    real = any(values.is_real(leaf) if values.is_number(leaf) else values.array_kind(leaf) == "f"
               for leaf in leaves)
    return ("f" if real else "i"), shapes, leaves


def _count(shapes):
    if shapes is None:
        return 0
    if isinstance(shapes, tuple):
        return math.prod(shapes)
    return sum(_count(s) for s in shapes)


def _digest(shapes):
    return NO_SHAPE if shapes is None else zlib.crc32(repr(shapes).encode())


def _describe(shapes):
    if shapes is None:
        return "no numbers"
    if isinstance(shapes, tuple):
        return "shape [" + " ".join(map(str, shapes)) + "]" if shapes else "a number"
    return "(" + "; ".join(_describe(s) for s in shapes) + ")"


def _flat(leaves, kind, backend):
    parts = [backend.asarray(leaf, kind).reshape(-1) for leaf in leaves]
    return backend.concat(parts) if parts else backend.asarray([], kind)


def _rebuild(flat, shapes, backend):
    """The value of `shapes` from the numbers at the start of `flat`."""
    def build(shapes, start):
        if isinstance(shapes, tuple):
            n = _count(shapes)
            piece = flat[start:start + n]
            return (piece.reshape(shapes) if shapes else backend.item(piece.reshape(()))), start + n
        parts = []
        for s in shapes:
            part, start = build(s, start)
            parts.append(part)
        return values.make_list(parts), start
    return build(shapes, 0)[0]


def _exact_sum(rows, backend):
    """The sum of the ranks' integer arrays, refused where it leaves 64 bits (never wrapped)."""
    stacked = backend.stack(rows)
    bound = INT64_MAX // len(rows)
    if stacked.shape[1] and (backend.reduce("|", stacked.reshape(-1)) > bound or
                             backend.reduce("&", stacked.reshape(-1)) < -bound):
        exact = [sum(column) for column in zip(*(row.tolist() for row in rows))]
        if any(not -INT64_MAX - 1 <= v <= INT64_MAX for v in exact):
            raise KlongError("range", ".allsum: the sum does not fit in 64 bits")
    return backend.reduce("+", stacked)


def _same_shapes(rows, reference):
    return all(row[COUNT:] == reference[COUNT:] for row in rows)


def _common_kind(rows):
    """Reals if any rank has a real, else integers."""
    return "f" if any(KINDS[row[KIND]] == "f" for row in rows) else "i"


# ------------------------------------------------------------------ the functions

class Collectives:
    """The distributed functions of one interpreter, on its backend's group."""

    def __init__(self, interp):
        self.interp = interp
        self.warned = False

    @property
    def group(self):
        try:
            group = self.interp.backend.group       # joined by the first call that asks
        except ValueError as e:
            raise KlongError("distributed", str(e)) from None
        if group is ALONE and not self.warned and os.environ.get("WORLD_SIZE", "1") != "1":
            self.warned = True
            print(f"klong: WORLD_SIZE is {os.environ['WORLD_SIZE']}, but only the torch backend "
                  "under torchrun joins the other ranks: this one works alone", file=sys.stderr)
        return group

    def _agree(self, what, describe):
        """Check the call here (`describe` returns kind, shapes, leaves and root, or raises),
        then exchange headers: every rank gets every rank's. A rank whose call was refused
        still takes part, so that the others fail now instead of waiting for it."""
        group = self.group
        try:
            kind, shapes, leaves, root = describe()
        except KlongError:
            try:
                group.exchange([0, 0, 0, 0, 0, NO_SHAPE])
            except KlongError:
                pass
            raise
        real = DTYPES.index(self.interp.backend.dtype)
        rows = group.exchange([COLLECTIVES.index(what), root, real, KINDS.index(kind),
                               _count(shapes), _digest(shapes)])
        refused = [r for r, row in enumerate(rows) if row[CALL] == 0]
        if refused:
            raise KlongError("distributed",
                             f"{what}: rank {refused[0]} could not take part (see its error)")
        if len({row[CALL] for row in rows}) > 1:
            calls = ", ".join(f"rank {r} {COLLECTIVES[row[CALL]]}" for r, row in enumerate(rows))
            raise KlongError("distributed",
                             f"{what}: the ranks called different functions: {calls}")
        if len({row[ROOT] for row in rows}) > 1:
            raise KlongError("distributed", f"{what}: the ranks named different roots")
        if len({row[REAL] for row in rows}) > 1:
            reals = ", ".join(f"rank {r} {DTYPES[row[REAL]]}" for r, row in enumerate(rows))
            raise KlongError("distributed", f"{what}: the ranks compute with different reals: "
                                            f"{reals}")
        return (shapes, leaves), rows

    def reduce(self, value, what, mean):
        """The sum or mean over the ranks of value() (computed here, so that a rank where it
        fails still tells the others)."""
        group, backend = self.group, self.interp.backend

        def describe():
            kind, shapes, leaves = _numbers(value(), what, backend)
            return ("f" if mean else kind), shapes, leaves, 0
        (shapes, leaves), rows = self._agree(what, describe)
        if not _same_shapes(rows, rows[0]):
            each = group.exchange_objects(shapes)
            raise KlongError("length", f"{what}: the shapes differ across ranks: " +
                             ", ".join(f"rank {r} {_describe(s)}" for r, s in enumerate(each)))
        kind = _common_kind(rows)
        flat = _flat(leaves, kind, backend)
        if kind == "i":
            total = _exact_sum(group.all_gather(flat), backend)
        else:
            total = group.all_sum(flat)
            if mean:
                total = total / group.size
        return _rebuild(total, shapes, backend)

    def gather(self, x):
        group, backend = self.group, self.interp.backend
        (shapes, leaves), rows = self._agree(".allgather",
                                             lambda: _numbers(x, ".allgather", backend) + (0,))
        kind = _common_kind(rows)
        each = [shapes] * group.size if _same_shapes(rows, rows[0]) \
            else group.exchange_objects(shapes)
        flat = _flat(leaves, kind, backend)
        width = max(row[COUNT] for row in rows)      # shorter ones are padded to the longest
        if flat.shape[0] < width:
            flat = backend.concat([flat, backend.full(width - flat.shape[0], 0, kind)])
        return values.make_list([_rebuild(row, s, backend)
                                 for row, s in zip(group.all_gather(flat), each)])

    def broadcast(self, x, root):
        group, backend = self.group, self.interp.backend
        root = values.scalar(root)

        def describe():
            if not values.is_int(root) or not 0 <= root < group.size:
                raise KlongError("range", f".bcast: the root must be a rank, 0 to {group.size - 1}")
            if root == group.rank:
                return _numbers(x, ".bcast", backend) + (root,)
            try:       # elsewhere x only tells whether the root's shapes are known already
                return _numbers(x, ".bcast", backend)[:2] + ([], root)
            except KlongError:
                return "i", None, [], root
        (shapes, leaves), rows = self._agree(".bcast", describe)
        top = rows[root]
        if not _same_shapes(rows, top):
            shapes = group.exchange_objects(shapes)[root]
        kind = KINDS[top[KIND]]
        if root == group.rank:
            flat = _flat(leaves, kind, backend)
        else:
            flat = backend.full(top[COUNT], 0, kind)
        return _rebuild(group.broadcast(flat, root), shapes, backend)

    def barrier(self):
        self._agree(".barrier", lambda: ("i", [], [], 0))
        return []

    def mean_gradient(self, f, p):
        return self.reduce(lambda: self.interp.differentiation.gradient(f, p), ".allmean", True)


def average_gradients(interp, grads):
    """For optimizers written in Python: `grads` (a list, one entry per parameter, as
    klong.runtime.autograd.gradients_of returns it) averaged over the ranks."""
    with context.entered(interp.context):
        mean = interp.distributed.reduce(lambda: list(grads), ".allmean", True)
        return values.items(mean) if values.is_array(mean) else list(mean)


def start(interp):
    """The interpreter's process group, reached by its collectives; no system variables."""
    interp.distributed = Collectives(interp)
    return {}


@register(".rank", 0)
def rank(interp):
    return interp.distributed.group.rank


@register(".world", 0)
def world(interp):
    return interp.distributed.group.size


@register(".allsum", 1)
def all_sum(interp, x):
    return interp.distributed.reduce(lambda: x, ".allsum", False)


@register(".allmean", 1)
def all_mean(interp, x):
    return interp.distributed.reduce(lambda: x, ".allmean", True)


@register(".allgather", 1)
def all_gather(interp, x):
    return interp.distributed.gather(x)


@register(".bcast", 2)
def broadcast(interp, x, root):
    return interp.distributed.broadcast(x, root)


@register(".barrier", 0)
def barrier(interp):
    return interp.distributed.barrier()


@register(".allgrad", 2)
def all_gradient(interp, f, p):
    return interp.distributed.mean_gradient(f, p)


@register(".p0", 1)
def print_on_rank_0(interp, x):
    """.p0: .p on rank 0; elsewhere x, unprinted."""
    return display_line(interp, x) if interp.distributed.group.rank == 0 else x
