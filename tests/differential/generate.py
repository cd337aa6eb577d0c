#!/usr/bin/env python3
"""Seeded generator of small Klong programs for the differential test.

Unlike tests/fuzz.py (which looks for crashes in nonsense), these programs are mostly
meaningful: they mix every value kind (integers, big integers, reals, characters, strings,
symbols, flat, nested, ragged and empty lists, dictionaries) with every verb in both
valences, every adverb, function literals applied through each adverb and the iterate
forms, conditionals, locals and indexing inside Each, so that most of them produce a value
whose text and element type the four modes must agree on.

    python3 tests/differential/generate.py --seed 1 --count 5        # print five programs

`program(rng)` is the grammar; the hypothesis test draws from it too.
"""
import argparse
import random

INTS = ["0", "1", "2", "3", "5", "7", "12", "-1", "-4", "100"]
BIG_INTS = ["2^70", "123456789012345678901234567890", "-98765432109876543210", "10^20",
            "9223372036854775807", "(2^62)*4"]
REALS = ["0.1", "0.5", "1.25", "-2.5", "3.14", "12.21", "5.4e-2", "1e10", "0.0", "-0.75",
         "2.0", "1e-3", "15.89", "-15.57", "0.7"]
CHARS = ["0ca", "0cz", "0c1", "0c ", "0cA"]
STRINGS = ['"abc"', '""', '"a"', '"hello"', '"zyx"', '"a b"']
SYMBOLS = [":a", ":foo", ":z"]
INT_LISTS = ["[1 2 3]", "[4 0]", "!5", "[2 4 8 -1]", "[3 6 11]", "[0 1 0 1]", "[5]",
             "[7 7 2 2]", "1+!4"]
REAL_LISTS = ["[1.5 2.5]", "[12.21]", "[-15.57 15.89 0.25 0.7 3.68 -4.64]", "[0.1 0.2 0.3]",
              "[1 2.5 3]", "[2.0 2.0]", "[1e10 1e-10]"]
NESTED = ["[[1 2] [3 4]]", "[[2 4] [8 -1]]", "[[1 2 3] [4 5 6]]", "[[1.5 2] [3 4]]",
          "[[4 0]]", "[[1] [2 3]]", '["ab" "cd"]', "[[[1 2] [3 4]] [[5 6] [7 8]]]"]
EMPTIES = ["[]", '""', "!0", "[[]]", "[[] []]", "[[1 2] []]"]
MIXED = ['[1 "a" :b 0cx]', "[1 1.0 2]", "[2 2.0]", '[:a :b :a]', '[1 [2 3] "x"]',
         "[0cq 0cr]"]
DICTS = [":{[1 2] [3 4]}", ":{[:a 1] [:b 2.5]}", ':{["x" [1 2]]}', ":{}"]

KINDS = {"int": INTS, "big": BIG_INTS, "real": REALS, "char": CHARS, "string": STRINGS,
         "symbol": SYMBOLS, "ints": INT_LISTS, "reals": REAL_LISTS, "nested": NESTED,
         "empty": EMPTIES, "mixed": MIXED, "dict": DICTS}
# how often each kind is drawn: numbers and numeric lists most, since most verbs want them
WEIGHTS = {"int": 6, "big": 1, "real": 5, "char": 1, "string": 2, "symbol": 1, "ints": 6,
           "reals": 5, "nested": 4, "empty": 2, "mixed": 1, "dict": 1}

# every verb has a monadic and a dyadic meaning (the colon verbs are dyadic only)
VERBS = list("!#$%&*+,-<=>?@^_|~")
MONADS = VERBS + [":#", ":_"]
DYADS = VERBS + [":#", ":$", ":%", ":+", ":^", ":_", ":@", ":=", ":-"]
ARITH = list("+-*%^&|") + [":%", "!"]
ADVERBS = ["'", "/", "\\", ":'", ":\\", ":/", ":~", ":*", "\\~", "\\*"]
REDUCERS = ["+/", "*/", "-/", "|/", "&/", ",/", "+\\", "*\\", "|\\", ",\\", "%/", "-\\"]


def value(rng, kinds=None):
    kinds = kinds or list(KINDS)
    weights = [WEIGHTS[k] for k in kinds]
    return rng.choice(KINDS[rng.choices(kinds, weights)[0]])


def numeric(rng):
    return value(rng, ["int", "real", "ints", "reals", "nested"])


def term(rng, e):
    """`e` made safe as a left operand: parenthesised unless it is a plain literal."""
    simple = e.replace("-", "").replace(".", "").replace("e", "")
    return e if simple.isalnum() or (e.startswith("[") and e.endswith("]")
                                     and e.count("[") == 1) else f"({e})"


def inner(rng, depth, names=("x",)):
    """An expression inside a function body over the variables `names`."""
    r = rng.random()
    if depth > 2 or r < 0.25:
        pick = rng.random()
        if pick < 0.55:
            return rng.choice(names)
        return rng.choice([numeric(rng), value(rng)])
    name = rng.choice(names)
    if r < 0.45:                       # indexing and element access inside the body
        return rng.choice([f"({name}@0)", f"(*{name})", f"({name}@1)", f"(#{name})",
                           f"({name}@[])", f"({name}@[0 0])", f"(|{name})", f"(-1#{name})"])
    if r < 0.75:
        left = inner(rng, depth + 1, names)
        return f"{term(rng, left)}{rng.choice(ARITH + DYADS)}{inner(rng, depth + 1, names)}"
    if r < 0.85:
        return f"{rng.choice(MONADS)}{inner(rng, depth + 1, names)}"
    if r < 0.93:
        return f":[{inner(rng, depth + 1, names)};{inner(rng, depth + 1, names)};" \
               f"{inner(rng, depth + 1, names)}]"
    return f"{rng.choice(REDUCERS)}{inner(rng, depth + 1, names)}"


def monad_fn(rng, depth):
    if rng.random() < 0.2:
        return rng.choice(["{x}", "{x+1}", "{x*x}", "{#x}", "{x@0}", "{*x}", "{-x}",
                           "{x%3}", "{(x@0)+0.1}", "{(x@0)%3}", "{(*x)%12}", "{x,x}"])
    if rng.random() < 0.15:             # locals
        return f"{{[a b];a::{inner(rng, depth + 1)};b::{inner(rng, depth + 1, ('x', 'a'))};" \
               f"{inner(rng, depth + 1, ('a', 'b', 'x'))}}}"
    return "{" + inner(rng, depth) + "}"


def dyad_fn(rng, depth):
    if rng.random() < 0.3:
        return rng.choice(list("+-*%|&,") + ["{x+y}", "{y}", "{x}", "{x,y}", "{(x*y)-1.5}",
                                             "{y%x}", "{x@y}"])
    return "{" + inner(rng, depth, ("x", "y")) + "}"


def expression(rng, depth=0):
    """A random expression built from values, verbs, adverbs and function literals."""
    r = rng.random() if depth < 3 else 0.0
    if r < 0.18:
        return value(rng)
    if r < 0.3:
        return f"{rng.choice(MONADS)}{expression(rng, depth + 1)}"
    if r < 0.45:
        left = expression(rng, depth + 1)
        return f"{term(rng, left)}{rng.choice(DYADS)}{expression(rng, depth + 1)}"
    if r < 0.5:
        return f"{rng.choice(REDUCERS)}{expression(rng, depth + 1)}"
    if r < 0.53:                       # reals reduced, and an atom against a list of reals
        if rng.random() < 0.5:
            return f"{rng.choice(REDUCERS)}{rng.choice(REAL_LISTS)}"
        return f"{rng.choice(REALS + INTS)}{rng.choice(ARITH)}{rng.choice(REAL_LISTS)}"
    if r < 0.6:                        # Each, with indexing inside
        return f"{monad_fn(rng, depth + 1)}'{expression(rng, depth + 1)}"
    if r < 0.63:                       # an element of an integer row meets a real
        index = rng.choice(["(x@0)", "(*x)", "(x@1)", "(+/x)", "(x@-1+#x)"])
        real = rng.choice(REALS + INTS)
        op = rng.choice(ARITH)
        body = f"{index}{op}{real}" if rng.random() < 0.5 else f"{term(rng, real)}{op}{index}"
        return f"{{{body}}}'{rng.choice(NESTED + INT_LISTS)}"
    if r < 0.71:                       # Over and Scan, with or without a start value
        adverb = rng.choice(["/", "\\"])
        start = f"{term(rng, numeric(rng))}" if rng.random() < 0.4 else ""
        return f"{start}{dyad_fn(rng, depth + 1)}{adverb}{expression(rng, depth + 1)}"
    if r < 0.76:                       # Each-pair
        return f"{dyad_fn(rng, depth + 1)}:'{expression(rng, depth + 1)}"
    if r < 0.82:                       # Each-left, Each-right, Each-2
        adverb = rng.choice([":\\", ":/", "'"])
        left = term(rng, expression(rng, depth + 1))
        return f"{left}{dyad_fn(rng, depth + 1)}{adverb}{expression(rng, depth + 1)}"
    if r < 0.87:                       # the iterate forms
        form = rng.randrange(5)
        fn = rng.choice(["{x+1}", "{x%2}", "{x*2}", "{1_x}", "{x,x}", "{_x%2}", "{-x}",
                         "{x^2}", monad_fn(rng, depth + 1)])
        n = rng.choice(["0", "1", "3", "5"])
        arg = rng.choice(["1", "5", "0.5", "[1 2]", "!4", "100", "[1.5 2.5]"])
        if form == 0:
            return f"{n}{fn}:*{arg}"
        if form == 1:
            return f"{n}{fn}\\*{arg}"
        if form == 2:
            return rng.choice(["{_x%2}:~100", "{x%2}:~[1 2]", "{1_x}:~[1 2 3]",
                               "{(x+2%x)%2}:~1.0", "{x&5}:~9", "{x}:~:a"])
        if form == 3:
            return rng.choice(["{_x%2}\\~100", "{1_x}\\~!4", "{(x+2%x)%2}\\~1.0"])
        return rng.choice(["{x<100}{x*2}:~1", "{x>1}{x%2}:~50", "{x<10}{x+1.5}\\~1",
                           "{#x}{1_x}:~[1 2 3]"])
    if r < 0.92:                       # conditionals
        return f":[{expression(rng, depth + 1)};{expression(rng, depth + 1)};" \
               f"{expression(rng, depth + 1)}]"
    if r < 0.96:                       # a function applied to arguments
        if rng.random() < 0.5:
            return f"{monad_fn(rng, depth + 1)}({expression(rng, depth + 1)})"
        return f"{dyad_fn(rng, depth + 1)}({expression(rng, depth + 1)};" \
               f"{expression(rng, depth + 1)})"
    return f"({expression(rng, depth + 1)})"


def short_program(rng):
    """A few statements: global definitions, then something that uses them."""
    lines = [f"a::{expression(rng, 1)}", f"f::{monad_fn(rng, 1)}"]
    if rng.random() < 0.5:
        lines.append(f"g::{dyad_fn(rng, 1)}")
        use = rng.choice(["g/a", "f'a", "a g:\\a", "g:'a", "(f(a))", "a g'a", "f(a);g(a;a)"])
    else:
        use = rng.choice(["f'a", "f(a)", "+/f'a", "3f:*a", "f'f'a", "a,f(a)"])
    lines.append(use)
    return rng.choice(["\n", ";"]).join(lines)


def program(rng):
    """One program: usually one expression, sometimes a short program of statements."""
    if rng.random() < 0.15:
        return short_program(rng)
    return expression(rng)


def programs(seed, count):
    rng = random.Random(seed)
    return [program(rng) for _ in range(count)]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=10)
    args = p.parse_args(argv)
    for source in programs(args.seed, args.count):
        print(repr(source))


if __name__ == "__main__":
    main()
