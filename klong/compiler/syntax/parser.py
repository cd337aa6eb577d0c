"""Source text to AST: the lexer's tokens go through the LALR tables that lark computes from
grammar.lark (lalr.py runs them, lark itself is imported only to build them and to explain a
syntax error), `_Build` makes the nodes, and the checks the grammar cannot express run while
the nodes are built."""
import os
from functools import lru_cache

from ...errors import SHOWN_WIDTH, KlongError, one_line
from ...runtime.values import Symbol, is_list, items
from . import ast, lalr
from .cache import TextCache
from .lexer import Lexer, Token, tokenize

# after the first adverb of a chain the derived verb is a monad: only these can follow
CHAIN_ADVERBS = {"'", ":~", "\\~", ":*", "\\*"}


def _position(tree_or_token):
    return getattr(tree_or_token, "line", 0) or 0, getattr(tree_or_token, "column", 0) or 0


def _syntax(message, token):
    line, column = _position(token)
    return KlongError("syntax", message, line or None, column or None)


class _Build:
    """Builds AST nodes bottom-up: a method per rule (or alias) of the grammar, called with
    the rule's children, as a lark Transformer's are."""

    def start(self, children):
        _bind_parameters(children[0], frozenset())
        return children[0]

    def seq(self, children):
        exprs = [c for c in children if not isinstance(c, Token)]
        if len(exprs) == 1:
            return exprs[0]
        return ast.Seq(exprs, line=exprs[0].line, column=exprs[0].column)

    def const(self, children):
        tok = children[0]
        return ast.Const(tok.value, line=tok.line, column=tok.column)

    def dict(self, children):
        tok = children[0]
        return ast.DictLit(tok.value, line=tok.line, column=tok.column)

    def name(self, children):
        tok = children[0]
        return ast.Name(str(tok), line=tok.line, column=tok.column)

    def paren(self, children):
        return children[1]

    def paren_apply(self, children):
        """(expr)(args): calls the function an expression gives, e.g. (d?"f")(3) (an
        extension: the reference takes no argument list after a parenthesis)."""
        fn, (tok, args) = children[1], children[3]
        return ast.Apply(fn, args, line=tok.line, column=tok.column)

    def fun(self, children):
        lbrace, body, rbrace = children
        stmts = body.exprs if isinstance(body, ast.Seq) else [body]
        local_names = []
        first = stmts[0]
        if len(stmts) > 1 and isinstance(first, ast.Const) and is_list(first.value) \
                and len(first.value) and all(isinstance(s, Symbol) for s in items(first.value)):
            local_names = [str(s) for s in items(first.value)]
            stmts = stmts[1:]
        # arity and read-only parameters are settled once the whole chunk is read, see
        # _bind_parameters: an enclosing function may declare x, y or z local
        return ast.Lambda(stmts, local_names, 0, line=lbrace.line, column=lbrace.column,
                          span=(lbrace.start_pos, rbrace.end_pos))

    def slot(self, children):
        return children[0] if children else None

    def arglist(self, children):
        slots = [c for c in children if not (isinstance(c, Token) and c.type in ("LPAR", "RPAR", "SEMI"))]
        if len(slots) > 3:
            raise _syntax("too many arguments", children[0])
        if slots == [None]:
            return (children[0], [])                    # f(): a nilad call
        if all(s is None for s in slots):
            raise _syntax("too few arguments in projection", children[0])
        return (children[0], slots)

    def apply(self, children):
        fn, (tok, args) = children
        fn = self._as_node(fn)
        return ast.Apply(fn, args, line=fn.line, column=fn.column)

    def apply2(self, children):
        fn, (tok1, args1), (tok2, args2) = children
        fn = self._as_node(fn)
        if not any(a is None for a in args1):
            raise _syntax("projection expected before second argument list", tok2)
        inner = ast.Apply(fn, args1, line=fn.line, column=fn.column)
        return ast.Apply(inner, args2, line=fn.line, column=fn.column)

    def _as_node(self, fn):
        return self.name([fn]) if isinstance(fn, Token) else fn

    def cond(self, children):
        parts = [c for c in children if not isinstance(c, Token)]
        clauses = [(parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]
        return ast.Cond(clauses, parts[-1], line=children[0].line, column=children[0].column)

    def _verb(self, children):
        head = children[0]
        adverbs = [str(t) for t in children[1:]]
        for later, tok in zip(adverbs[1:], children[2:]):
            if later not in CHAIN_ADVERBS:
                raise _syntax("monad expected in chained adverb", tok)
        if isinstance(head, Token):
            return ast.Verb(str(head), None, adverbs, line=head.line, column=head.column)
        if isinstance(head, ast.Apply) and not head.is_projection:
            raise _syntax("a function in verb position must be a name, a function or a projection",
                          head)
        return ast.Verb(None, head, adverbs, line=head.line, column=head.column)

    mverb = dverb = _verb

    def callable(self, children):
        return children[0]

    def monad(self, children):
        verb, arg = children
        return ast.Monad(verb, arg, line=verb.line, column=verb.column)

    def dyad(self, children):
        left, verb, right = children
        if verb.op == "::" and not verb.adverbs and not isinstance(left, ast.Name):
            raise _syntax("the left side of :: must be a name", verb)
        return ast.Dyad(verb, left, right, line=left.line, column=left.column)


def _nodes_in(stmts):
    for s in stmts:
        yield s                                    # a nested lambda statement itself
        if not isinstance(s, ast.Lambda):
            yield from ast.walk(s, enter=False)


def _bind_parameters(node, declared):
    """Settle the parameters of every function literal under `node`. As in the reference,
    x, y or z declared local (`{[y];...}`) is a variable like any other, in that function
    and in the functions nested in it: it does not count towards their arity and may be
    assigned. `declared` holds those names declared by the functions enclosing `node`."""
    for n in ast.walk(node, enter=False):
        if isinstance(n, ast.Lambda):
            n.outer_params = sorted(declared - set(n.locals))
            variables = set(n.locals) | declared
            n.arity = _arity(n.body, variables)
            _check_read_only(n.body, variables)
            inner = declared | {name for name in n.locals if name in ast.PARAMS}
            for stmt in n.body:
                _bind_parameters(stmt, inner)


def _arity(stmts, local_names):
    highest = 0
    for n in _nodes_in(stmts):
        if isinstance(n, ast.Name) and n.name in ast.PARAMS and n.name not in local_names:
            highest = max(highest, ast.PARAMS.index(n.name) + 1)
    return highest


def _check_read_only(stmts, local_names):
    for n in _nodes_in(stmts):
        if isinstance(n, ast.Dyad) and n.verb.op == "::" and isinstance(n.left, ast.Name) \
                and n.left.name in ast.PARAMS and n.left.name not in local_names:
            raise _syntax(f"'{n.left.name}' is read-only", n.left)


_GRAMMAR = os.path.join(os.path.dirname(__file__), "grammar.lark")


def _grammar():
    with open(_GRAMMAR, encoding="utf-8") as f:
        return f.read()


@lru_cache(maxsize=None)
def _lark():
    """lark's own parser for the grammar, built on first use: it computes the tables (when
    the cache has none) and explains syntax errors."""
    from lark import Lark
    from lark.lexer import Lexer as LarkLexer

    class TokenFeed(LarkLexer):
        """Hands lark the tokens our own lexer already produced."""

        def __init__(self, lexer_conf):
            pass

        def lex(self, tokens, *_):
            return iter(tokens)

    return Lark(_grammar(), parser="lalr", lexer=TokenFeed, transformer=_Build(),
                propagate_positions=False)


_parser = lalr.Parser(lalr.cached_tables(_grammar(), lalr.cache_path("tables"),
                                         lambda: lalr.lark_tables(_lark())), _Build())

# Broken inputs by error class: lark matches a failing parser state to the closest example.
_EXAMPLES = {
    "missing operand": ["1+", "{x+}", "a::", "1+;2"],
    "missing closing parenthesis": ["(1", "f(1", "f(1;2"],
    "missing closing brace": ["{x", "{x;y"],
    "missing ] at end of conditional": [":[1;2;3", ":[1;2;3;"],
    "expected ; in conditional": [":[1;2]", ":[1]"],
    "two operands without a verb between them (apply a function with f(x) or f@x)":
        ["3 4", "f 2", "1 2 3", "\"a\" 1"],
    "empty statement": ["1;;2", ";1", "{}", "{x;}", "()"],
    "unexpected closing bracket": [")", "1)", "}", "]", "1]"],
    "a parenthesized expression holds one expression": ["(1;2)"],
}


def _parse_text(text):
    return _lark().parse(tokenize(text))


# what may close an expression: after a verb, its operand is missing
_CLOSERS = {"RPAR", "RBRACE", "RBRACK", "SEMI", "$END"}


def _missing_operand(tokens, tok):
    """Whether the parser stopped at a closing bracket, a ; or the end right after a verb (or
    adverb), which has no operand then. Said here for every nesting: lark's examples match
    parser states, and the same mistake gives other states inside `a::` or `f::{...}`."""
    if getattr(tok, "type", "$END") not in _CLOSERS:
        return False
    index = next((i for i, t in enumerate(tokens) if t is tok), len(tokens))
    return index > 0 and tokens[index - 1].type in ("VERB", "ADVERB")


def _describe(err, tokens):
    from lark.exceptions import UnexpectedEOF

    if _missing_operand(tokens, getattr(err, "token", None)):
        return "missing operand"
    try:
        label = err.match_examples(_parse_text, _EXAMPLES, use_accepts=True)
    except Exception:
        label = None
    if label:
        return label
    if isinstance(err, UnexpectedEOF) or getattr(err, "token", None) is not None \
            and getattr(err.token, "type", None) == "$END":
        return "unexpected end of input"
    tok = getattr(err, "token", None)
    if tok is None:
        return "syntax error"
    return f"unexpected {one_line(tok, SHOWN_WIDTH)}"     # the token as written


# Parses are kept by text for the text that runs again, across interpreters: a tree takes
# 30 to 200 bytes per character of its source, so what is kept is bounded by the source's
# length (256K characters: at most some 50 MB of trees), as well as by count.
_parsed = TextCache(max_chars=2**18, max_entries=4096)


def parse(text, line_offset=0, line_comments=False, filename=None):
    """Parse a chunk of Klong source into an AST node (an expression or a Seq).
    `line_offset` is the number of lines before the chunk; `line_comments` selects the
    interactive rule for comments (see lexer.py); `filename` goes with the line numbers.
    Raises KlongError('syntax') with the position and source line of the problem. The
    same text gives the same (shared) node while it is kept."""
    key = (text, line_offset, line_comments, filename)
    node = _parsed.get(key)
    if node is None:
        node = _parse(text, line_offset, line_comments, filename)
        if node is not None:
            _parsed.put(key, node, len(text))
    return node


parse.cache_clear = _parsed.clear


def _parse(text, line_offset, line_comments, filename):
    lexer = Lexer(text, line_offset, line_comments, filename)
    tokens = []
    try:                                    # the tables: lark is not needed
        tokens.extend(lexer.tokens())
        if not tokens:
            return None
        node = _parser.parse(tokens)
        _add_sources(node, text)
        return node
    except KlongError as err:
        raise _explained(err, text, lexer, tokens) from None
    except lalr.NoParse:
        pass
    # a syntax error: lark parses again, and its exception says what is wrong
    from lark.exceptions import UnexpectedInput, VisitError
    try:
        node = _lark().parse(tokens)
        _add_sources(node, text)
        return node
    except KlongError as err:
        raise _explained(err, text, lexer, tokens) from None
    except VisitError as e:
        err = e.orig_exc
        if isinstance(err, KlongError):
            raise _explained(err, text, lexer, tokens) from None
        raise
    except UnexpectedInput as e:
        tok = getattr(e, "token", None)
        line, column = getattr(tok, "line", None), getattr(tok, "column", None)
        failed_at = getattr(tok, "start_pos", None)
        if line is None or getattr(tok, "type", "") == "$END":
            # the end: lark's $END token borrows the position of the last token
            line, column = _end_position(text, line_offset)
            failed_at = None
        err = KlongError("syntax", _describe(e, tokens), line, column)
        raise _explained(err, text, lexer, tokens, failed_at) from None


def _assignment_hint(text, tokens, start):
    """`x:1` reads as x followed by the number :1, `f:{x}` as f and a dictionary: when the
    text that failed at `start` begins with the shift character right after a name, the
    writer most likely meant to assign."""
    if start is None or not text.startswith(":", start):
        return ""
    before = [t for t in tokens if t.end_pos is not None and t.end_pos <= start]
    if before and before[-1].type == "NAME" and before[-1].end_pos == start:
        return f" (assignment is ::, as in {before[-1]}::...)"
    return ""


def _comment_hint(lexer, line):
    for start, end in lexer.long_comments:
        if lexer.line_of(end) == line:
            return (f"; the comment opened on line {lexer.line_of(start)} ends on this line: "
                    "did it swallow code?")
    return ""


def comment_hint(text, line_offset, line):
    """For an error on `line` of a chunk read by Klong's rule: where a comment that ends on
    that line opened, when it ran over several lines; else ''."""
    lexer = Lexer(text, line_offset)
    try:
        for _ in lexer.tokens():
            pass
    except KlongError:
        pass
    return _comment_hint(lexer, line)


def _add_sources(node, text):
    """Give every function literal its source text (what its repr and messages show)."""
    for n in ast.walk(node, enter=False):
        if isinstance(n, ast.Lambda):
            n.source = text[n.span[0]:n.span[1]]
            for stmt in n.body:
                _add_sources(stmt, text)


def _end_position(text, line_offset):
    lines = text.split("\n")
    return len(lines) + line_offset, len(lines[-1]) + 1


def _explained(err, text, lexer, tokens, failed_at=None):
    """The error with its source line and, when a comment that ran over several lines ends on
    the line of the error, where that comment opened: it has most likely swallowed code.
    `failed_at`: where in `text` the parser stopped; a dictionary the lexer could not read
    starts where the tokens end. Either may be a mistyped assignment (see _assignment_hint)."""
    err.in_chunk(text, lexer.line_offset)
    if err.line is not None:
        err.message += _comment_hint(lexer, err.line)
    if failed_at is None and "malformed dictionary" in err.message and tokens:
        failed_at = tokens[-1].end_pos
    err.message += _assignment_hint(text, tokens, failed_at)
    return err
