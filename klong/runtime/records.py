"""Classes declared by their fields, as dataclasses declare them: the nodes of the syntax
tree (compiler/syntax/ast.py) and of the IR (compiler/lower/ir.py), what is known of a
function literal (functions.LambdaFacts), the verbs' registry entries and their forms.

dataclasses would make the same classes, but it takes half a millisecond a class, and the
fifty of them cost kgpy a fifth of its start-up beyond importing numpy. `record` does only
what these classes use, in a tenth of the time.

A record class declares its fields as annotations, after those of its bases (a field declared
again keeps its place); ClassVar annotations are not fields. A field's class attribute is its
default; `field(...)` gives instead a default, a default_factory (called for each new
record), kw_only (passed by keyword only, after the others), init=False (not a parameter:
__post_init__ sets it), compare=False (== does not look at it) and metadata (read by the IR).

The class gets what a dataclass gets: __init__ taking the fields in order (made on its first
call), which ends by calling __post_init__ where the class has one; __repr__; with eq (the
default) __eq__ on the compared fields of records of the same class, which leaves them
unhashable, else records compare by identity; with slots, __slots__ for its own fields (then
the class is made anew, and defaults are not class attributes). FIELDS lists the fields.
"""
import reprlib
from typing import ClassVar, get_origin

MISSING = object()      # no default given


class Field:
    __slots__ = ("name", "default", "default_factory", "kw_only", "init", "compare", "metadata")

    def __init__(self, default=MISSING, default_factory=MISSING, kw_only=False, init=True,
                 compare=True, metadata=None):
        self.name = None
        self.default = default
        self.default_factory = default_factory
        self.kw_only = kw_only
        self.init = init
        self.compare = compare
        self.metadata = metadata or {}


def field(**options):
    """A field with options (see the module's text)."""
    return Field(**options)


def record(cls=None, *, eq=True, slots=False):
    """`cls` made a record class (see the module's text): @record, or @record(eq=False) ..."""
    if cls is None:
        return lambda c: record(c, eq=eq, slots=slots)
    fields = {f.name: f for f in getattr(cls, "FIELDS", ())}
    own = []
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if annotation is ClassVar or get_origin(annotation) is ClassVar:
            continue
        value = cls.__dict__.get(name, MISSING)
        spec = value if isinstance(value, Field) else Field(default=value)
        spec.name = name
        fields[name] = spec
        own.append(name)
        if spec.default is not MISSING and not slots:
            setattr(cls, name, spec.default)        # the class attribute is the default
        elif value is not MISSING:
            delattr(cls, name)
    if slots:
        namespace = dict(cls.__dict__)
        namespace.pop("__dict__", None)
        namespace.pop("__weakref__", None)
        namespace["__slots__"] = tuple(own)
        cls = type(cls)(cls.__name__, cls.__bases__, namespace)
    cls.FIELDS = tuple(fields.values())
    cls.__init__ = _first_init
    cls.__repr__ = _repr
    if eq:
        cls.__eq__ = _eq
        cls.__hash__ = None
    return cls


def replace(obj, **changes):
    """A new record of the class of `obj`, its fields those of `obj` but for `changes` (as
    dataclasses.replace makes it: through __init__)."""
    values = {f.name: getattr(obj, f.name) for f in obj.FIELDS if f.init}
    values.update(changes)
    return obj.__class__(**values)


def _first_init(self, *args, **kwargs):
    """A record class's __init__ until its first record is made: then the class's own is made,
    replaces this one and makes the record. (Made for every class as their modules load,
    they took most of the import: a program uses few of the classes.)"""
    cls = type(self)
    cls.__init__ = _init(cls)
    cls.__init__(self, *args, **kwargs)


def _init(cls):
    """__init__ for the fields of `cls`, made from source as dataclasses make it (a call of it
    is then as quick as a hand-written one)."""
    values = {"MISSING": MISSING}
    positional, keyword, body = [], [], []
    for f in cls.FIELDS:
        if f.default is not MISSING:
            values["_d_" + f.name] = f.default
            parameter, value = f"{f.name}=_d_{f.name}", f.name
        elif f.default_factory is not MISSING:
            values["_f_" + f.name] = f.default_factory
            parameter = f"{f.name}=MISSING"
            value = f"_f_{f.name}() if {f.name} is MISSING else {f.name}"
        else:
            parameter, value = f.name, f.name
        if not f.init:
            if f.default is not MISSING:
                body.append(f"    self.{f.name} = _d_{f.name}")
            elif f.default_factory is not MISSING:
                body.append(f"    self.{f.name} = _f_{f.name}()")
            continue
        (keyword if f.kw_only else positional).append(parameter)
        body.append(f"    self.{f.name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    parameters = ["self"] + positional + (["*"] + keyword if keyword else [])
    source = f"def __init__({', '.join(parameters)}):\n" + ("\n".join(body) or "    pass")
    exec(source, values)
    init = values["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


@reprlib.recursive_repr()
def _repr(self):
    shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in self.FIELDS)
    return f"{self.__class__.__qualname__}({shown})"


def _eq(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    # as tuples, as dataclasses compare them: a field holding the same object is equal
    # without being asked (an array's == gives no truth value)
    return _compared(self) == _compared(other)


def _compared(obj):
    return tuple(getattr(obj, f.name) for f in obj.FIELDS if f.compare)
