"""runtime/records.py: classes declared by their fields make records as dataclasses make them
(the syntax tree, the IR, LambdaFacts, the verbs' entries and forms are records)."""
from typing import ClassVar, List

import pytest

from klong.runtime.records import field, record, replace


@record
class Base:
    line: int = field(default=0, kw_only=True, compare=False)


@record
class Pair(Base):
    left: object
    right: object
    names: List[str] = field(default_factory=list)
    note: str = "n"
    KIND: ClassVar[str] = "pair"


@record(eq=False)
class Plain:
    a: int


@record(slots=True)
class Slotted:
    a: int
    b: int = 2
    total: int = field(init=False)

    def __post_init__(self):
        self.total = self.a + self.b


def test_the_fields_in_order_bases_first_keyword_only_last():
    p = Pair(1, 2, line=7)
    assert (p.left, p.right, p.names, p.note, p.line) == (1, 2, [], "n", 7)
    assert [f.name for f in Pair.FIELDS] == ["line", "left", "right", "names", "note"]
    assert repr(p) == "Pair(line=7, left=1, right=2, names=[], note='n')"
    with pytest.raises(TypeError, match=r"Pair.__init__\(\) missing 1 required positional "
                                        r"argument: 'right'"):
        Pair(1)
    with pytest.raises(TypeError):
        Pair(1, 2, [], "m", 3)            # line is keyword-only


def test_defaults_are_class_attributes_and_factories_give_fresh_values():
    assert Pair.note == "n" and Pair.KIND == "pair"
    assert not hasattr(Pair, "names")
    a, b = Pair(1, 2), Pair(1, 2)
    assert a.names == [] and a.names is not b.names


def test_eq_compares_the_compared_fields_and_leaves_records_unhashable():
    assert Pair(1, 2, line=1) == Pair(1, 2, line=9)      # line is not compared
    assert Pair(1, 2) != Pair(1, 3)
    assert Pair(1, 2) != (1, 2)
    with pytest.raises(TypeError, match="unhashable type: 'Pair'"):
        hash(Pair(1, 2))


def test_eq_is_on_tuples_so_a_shared_array_compares_equal():
    import numpy as np
    a = np.arange(3)
    assert Pair(a, 1) == Pair(a, 1)         # the same object: == is not asked of the array


def test_without_eq_records_compare_by_identity():
    p = Plain(1)
    assert p == p and p != Plain(1)
    assert {p: 1}[p] == 1


def test_slots_init_false_and_post_init():
    s = Slotted(1)
    assert (s.a, s.b, s.total) == (1, 2, 3)
    assert not hasattr(s, "__dict__")
    with pytest.raises(AttributeError):
        s.other = 1
    assert repr(s) == "Slotted(a=1, b=2, total=3)"
    with pytest.raises(TypeError):
        Slotted(1, 2, 3)                    # total is not a parameter


def test_replace_makes_a_new_record_through_init():
    s = replace(Slotted(1), b=5)
    assert (s.a, s.b, s.total) == (1, 5, 6)
    p = replace(Pair(1, 2, line=4), right=3)
    assert (p.left, p.right, p.line) == (1, 3, 4)
