"""The array classes of the loaded backends: the value model's arrays (a Klong list held as
one array is one of these), each with the backend class that knows its element kind and host
copy. These must work outside any interpreter too, when a value is printed or compared from
Python. A type registry: it only grows, once per library.

A module of its own, without the package's lazy __getattr__, so that reading
`arrays.ARRAY_TYPES` is as quick as reading a global: every verb call does, many times."""

# backend classes by their array class
_ARRAY_BACKENDS = {}
# The same classes as a tuple, for isinstance: the one definition of the value model's array
# types. Rebound (never changed in place) when a backend loads, so read it as
# arrays.ARRAY_TYPES at each use, never import the name itself.
ARRAY_TYPES = ()
# element kind by exact dtype, for the dtypes each loaded backend names: one lookup where the
# backend's `kind` takes three (array_kind runs many times in every verb). Torch's dtypes,
# all of one class (DTYPE_CLASSES), by themselves; numpy's (`host_dtype_kinds`) in a table of
# their own, by their classes (numpy gives each dtype one: hashing a class costs nothing,
# hashing a numpy dtype several hundred instructions, twice in every array_kind before).
# A tensor's dtype is found without meeting either numpy table: torch's compiler before 2.13
# cannot hash a numpy dtype, and stops the traced graph at a table that holds one
DTYPE_KINDS = {}
DTYPE_CLASSES = ()
HOST_DTYPE_KINDS = {}


def add_array_type(backend_class):
    global ARRAY_TYPES, DTYPE_CLASSES
    cls = backend_class.array_type
    if cls not in _ARRAY_BACKENDS:
        _ARRAY_BACKENDS[cls] = backend_class
        ARRAY_TYPES = tuple(_ARRAY_BACKENDS)
        kinds = getattr(backend_class, "dtype_kinds", {})
        DTYPE_KINDS.update(kinds)
        DTYPE_CLASSES = tuple(set(DTYPE_CLASSES).union(type(d) for d in kinds))
        HOST_DTYPE_KINDS.update((type(d), kind) for d, kind in
                                getattr(backend_class, "host_dtype_kinds", {}).items())


def dtype_kind(dtype):
    """'i', 'f' or 'b' for a dtype a loaded backend names, else None."""
    if type(dtype) in DTYPE_CLASSES:
        return DTYPE_KINDS.get(dtype)
    return HOST_DTYPE_KINDS.get(type(dtype))


def array_backend(a):
    """The backend class of array `a` (its kind and to_host work without an instance)."""
    backend_class = _ARRAY_BACKENDS.get(type(a))
    if backend_class is not None:
        return backend_class
    for cls, backend_class in _ARRAY_BACKENDS.items():    # subclasses (a torch Parameter)
        if isinstance(a, cls):
            return backend_class
    raise TypeError(f"not an array of a loaded backend: {type(a).__name__}")


def to_host(a):
    """A numpy copy of any backend's array."""
    return array_backend(a).to_host(a)
