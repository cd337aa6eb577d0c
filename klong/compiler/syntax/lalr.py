"""The table-driven LALR parser that reads Klong, without lark at run time.

lark computes the tables from grammar.lark (lark_tables below); they are plain data, kept in
the per-user cache directory, so a program starts without importing lark or building them.
`Parser` shifts and reduces as lark's LALR parser does and calls the same builder methods
with the same children: a reduction of a rule passes the rule's children (those of helper
rules, `_name`, spliced in), a `?rule` with one child is that child. Where the tables have
no action for a token, `parse` raises NoParse: the caller then asks lark itself, whose
exceptions explain the syntax error."""
import marshal
import os
import sys

FORMAT = 1          # the layout of the cached tables; a file of another layout is rebuilt


_GROWS = object()    # a helper rule's method that adds to the list its first child made


class NoParse(Exception):
    """The tokens are not a sentence of the grammar."""


def lark_tables(lark_parser):
    """The tables of a lark LALR parser as plain data: (start, end, states, rules); states
    map a state to {symbol: (1, next state) for a shift, (0, rule index) for a reduction},
    rules are (origin, length, name of the builder method, collapses when it has one child,
    the children kept as (index, splice) pairs or None for all)."""
    table = lark_parser.parser.parser.parser.parse_table
    rules, index = [], {}
    states = {}
    for state, actions in table.states.items():
        row = states[int(state)] = {}
        for symbol, (action, arg) in actions.items():
            if action.name == "Shift":
                row[str(symbol)] = (1, int(arg))
                continue
            if arg not in index:
                index[arg] = len(rules)
                rules.append(_rule(arg))
            row[str(symbol)] = (0, index[arg])
    return int(table.start_states["start"]), int(table.end_states["start"]), states, rules


def _rule(rule):
    options = rule.options
    kept = [(i, bool(not sym.is_term and sym.name.startswith("_")))
            for i, sym in enumerate(rule.expansion)
            if options.keep_all_tokens or not (sym.is_term and sym.filter_out)]
    changes = len(kept) < len(rule.expansion) or any(splice for _, splice in kept)
    name = rule.alias or options.template_source or rule.origin.name
    return (str(rule.origin.name), len(rule.expansion), str(name),
            bool(options.expand1 and not rule.alias), kept if changes else None)


def cached_tables(grammar, path, build):
    """The tables for `grammar` (its text) from the file at `path`, or build() them and
    save them there (written to a new file and renamed: a reader never sees half of one).
    A file that is unreadable, damaged or made for another grammar is rebuilt; one that
    cannot be written is not kept."""
    if path:
        try:
            with open(path, "rb") as f:
                # loads of the whole file: marshal.load reads a file a few bytes a call
                saved = marshal.loads(f.read())
            if saved[0] == FORMAT and saved[1] == grammar:
                return saved[2]
        except Exception:           # missing, damaged, of another Python: build anew
            pass
    tables = build()
    if path:
        temporary = f"{path}.{os.getpid()}.tmp"
        try:
            with open(temporary, "wb") as f:
                marshal.dump((FORMAT, grammar, tables), f)
            os.replace(temporary, path)
        except Exception:           # not writable (or not marshallable): not kept
            try:
                os.unlink(temporary)
            except OSError:
                pass
    return tables


def cache_path(name):
    """A file in the per-user cache folder for Klong, named for this Python's version; None
    where the folder cannot be made, or when KLONG_PARSER_CACHE is 0."""
    if os.environ.get("KLONG_PARSER_CACHE") == "0":
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "klong")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return None
    return os.path.join(folder, "%s-py%d.%d" % ((name,) + sys.version_info[:2]))


class Parser:
    """Parses a list of tokens (each with a `type`) with the tables, building the result
    with `builder`'s methods."""

    def __init__(self, tables, builder):
        self.start, self.end, states, rules = tables
        # marshal gives back the state numbers as they were: ints
        self.states = states
        self.rules = []
        for origin, length, name, collapses, kept in rules:
            method = getattr(builder, name, None)
            if method is None:
                if origin.startswith("_"):      # a helper rule: its children, spliced
                    method = list
                elif not collapses:
                    raise ValueError(f"the builder has no method for {name}")
            if origin.startswith("_") and kept and kept[0] == (0, True):
                # a helper repeating itself (`a (SEMI a)*` is `_h: _h SEMI a | SEMI a`):
                # what follows joins the list made so far in place, not a copy of it each
                # time (20,000 statements on one line would copy 200 million items)
                method = _GROWS
            self.rules.append((origin, length, method, collapses, kept))

    def parse(self, tokens):
        states, rules = self.states, self.rules
        stack, values = [self.start], []
        position, count = 0, len(tokens)
        while True:
            if position < count:
                tok = tokens[position]
                kind = tok.type
            else:
                kind = "$END"
            action = states[stack[-1]].get(kind)
            if action is None:
                raise NoParse
            if action[0]:
                if kind == "$END":
                    raise NoParse
                stack.append(action[1])
                values.append(tok)
                position += 1
                continue
            origin, length, method, collapses, kept = rules[action[1]]
            if length:
                children = values[-length:]
                del values[-length:]
                del stack[-length:]
            else:
                children = []
            if method is _GROWS:        # children[0]: the list this rule made before
                value = children[0]
                for i, splice in kept[1:]:
                    if splice:
                        value += children[i]
                    else:
                        value.append(children[i])
            else:
                if kept is not None:
                    chosen = []
                    for i, splice in kept:
                        if splice:
                            chosen += children[i]
                        else:
                            chosen.append(children[i])
                    children = chosen
                value = children[0] if collapses and len(children) == 1 else method(children)
            stack.append(states[stack[-1]][origin][1])
            values.append(value)
            if kind == "$END" and stack[-1] == self.end:
                return value
