"""Klong's lexer: source text to lark Tokens.

List and dictionary literals are read whole into one LIST / DICT token carrying their value,
so the grammar never sees `[` (language.md 2.9). Newlines are whitespace here; the driver
splits top-level lines before lexing (see `chunks`).
"""
from lark import Token

from .. import backends
from ..errors import KlongError
from ..values import Char, Symbol, element, make_list

# ∇ (nabla), ∂ (partial) and ˙ (track) are this host's differentiation operators
SINGLE_VERBS = set("!#$%&*+,-<=>?@^_|~") | {"\u2207", "\u2202", "\u02d9"}
COLON_VERBS = set(":=-_#$@%+^>")          # ::  :=  :-  ...  :>
COLON_ADVERBS = set("'/\\~*")
NAME_START = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.")
NAME_CHARS = NAME_START | set("0123456789")
DIGITS = set("0123456789")
BLANKS = set(" \t\r\f\n\v")
OPENERS = {"LPAR": 1, "LBRACE": 1, "COND": 1, "RPAR": -1, "RBRACE": -1, "RBRACK": -1}


class Incomplete(KlongError):
    """The text ends inside a string, comment, list or dictionary: read more lines."""

    def __init__(self, message, line=None, column=None, source_line=None):
        super().__init__("syntax", message, line, column, source_line)


class Lexer:
    def __init__(self, text, line_offset=0):
        self.text = text
        self.pos = 0
        self.line_offset = line_offset

    # -- positions and errors
    def where(self, pos):
        line = self.text.count("\n", 0, pos) + 1
        start = self.text.rfind("\n", 0, pos) + 1
        end = self.text.find("\n", pos)
        source_line = self.text[start:end if end >= 0 else len(self.text)]
        return line + self.line_offset, pos - start + 1, source_line

    def error(self, message, pos, incomplete=False):
        line, column, source_line = self.where(pos)
        if incomplete:
            return Incomplete(message, line, column, source_line)
        return KlongError("syntax", message, line, column, source_line)

    def token(self, kind, value, start):
        line, column, _ = self.where(start)
        return Token(kind, value, start_pos=start, line=line, column=column,
                     end_pos=self.pos)

    # -- skipping
    def skip_blanks(self):
        text, n = self.text, len(self.text)
        while self.pos < n:
            c = text[self.pos]
            if c in BLANKS:
                self.pos += 1
            elif c == ":" and text.startswith(':"', self.pos):
                self.skip_comment()
            else:
                break

    def skip_comment(self):
        start = self.pos
        self.pos += 2
        while True:
            end = self.text.find('"', self.pos)
            if end < 0:
                raise self.error("unterminated comment", start, incomplete=True)
            if self.text.startswith('""', end):
                self.pos = end + 2
                continue
            self.pos = end + 1
            return

    # -- the token stream
    def tokens(self):
        text = self.text
        while True:
            self.skip_blanks()
            if self.pos >= len(text):
                return
            start = self.pos
            c = text[start]
            nxt = text[start + 1] if start + 1 < len(text) else ""
            if c in DIGITS:
                yield self.token("CONST", self.read_number(), start)
            elif c == '"':
                yield self.token("CONST", self.read_string(), start)
            elif c in NAME_START:
                yield self.token("NAME", self.read_name(), start)
            elif c == "[":
                yield self.token("CONST", self.read_list(), start)
            elif c == ":":
                yield self.colon_token(nxt, start)
            elif c == "\\" and nxt in ("~", "*"):
                self.pos += 2
                yield self.token("ADVERB", c + nxt, start)
            elif c in "'/\\":
                self.pos += 1
                yield self.token("ADVERB", c, start)
            elif c in SINGLE_VERBS:
                self.pos += 1
                yield self.token("VERB", c, start)
            else:
                kind = {"(": "LPAR", ")": "RPAR", "{": "LBRACE", "}": "RBRACE",
                        "]": "RBRACK", ";": "SEMI"}.get(c)
                if kind is None:
                    raise self.error(f"unexpected character {c!r}", start)
                self.pos += 1
                yield self.token(kind, c, start)

    def colon_token(self, nxt, start):
        text = self.text
        if nxt in NAME_START and nxt:
            self.pos += 1
            return self.token("CONST", Symbol(self.read_name()), start)
        if nxt in DIGITS and nxt:               # ":1" is just 1
            self.pos += 1
            return self.token("CONST", self.read_number(), start)
        self.pos += 2
        if nxt == "[":
            return self.token("COND", ":[", start)
        if nxt == "|":
            return self.token("ELSEIF", ":|", start)
        if nxt == "(":
            return self.token("LPAR", ":(", start)
        if nxt == "{":
            self.pos = start
            return self.token("DICT", self.read_dict(), start)
        if nxt in COLON_ADVERBS and nxt:
            return self.token("ADVERB", ":" + nxt, start)
        if nxt in COLON_VERBS and nxt:
            return self.token("VERB", ":" + nxt, start)
        raise self.error(f"unknown operator :{nxt}" if nxt else "unexpected end after :", start,
                         incomplete=not nxt)

    # -- lexemes
    def read_name(self):
        text, start = self.text, self.pos
        pos = start + 1
        while pos < len(text) and text[pos] in NAME_CHARS:
            pos += 1
        self.pos = pos
        return text[start:pos]

    def read_number(self, negative=False):
        text, start = self.text, self.pos
        if text[start] == "0" and start + 1 < len(text):
            prefix = text[start + 1].lower()
            if prefix == "c":
                if start + 2 >= len(text):
                    raise self.error("missing character after 0c", start, incomplete=True)
                self.pos = start + 3
                return Char(text[start + 2])
            base = {"b": 2, "o": 8, "x": 16}.get(prefix)
            if base:
                pos = start + 2
                allowed = "0123456789abcdefABCDEF"[:base if base < 16 else 22]
                while pos < len(text) and text[pos] in allowed:
                    pos += 1
                if pos == start + 2:
                    raise self.error("invalid number", start)
                self.pos = pos
                value = int(text[start + 2:pos], base)
                return -value if negative else value
        pos = start
        while pos < len(text):
            c = text[pos]
            if c in DIGITS or c == ".":
                pos += 1
            elif c == "e":
                pos += 1
                if pos < len(text) and text[pos] in "+-":
                    pos += 1
            else:
                break
        lexeme = text[start:pos]
        self.pos = pos
        if lexeme.isdigit():
            value = int(lexeme)
        else:
            mantissa, _, exponent = lexeme.partition("e")
            if (mantissa.count(".") > 1 or not mantissa[0].isdigit()
                    or ("e" in lexeme and not exponent.lstrip("+-").isdigit())):
                raise self.error(f"invalid number: {lexeme}", start)
            value = float(lexeme)
        return -value if negative else value

    def read_string(self):
        text, start = self.text, self.pos
        pos = start + 1
        parts = []
        while True:
            end = text.find('"', pos)
            if end < 0:
                raise self.error("unterminated string", start, incomplete=True)
            parts.append(text[pos:end])
            if text.startswith('""', end):
                parts.append('"')
                pos = end + 2
                continue
            self.pos = end + 1
            return "".join(parts)

    def read_list(self):
        """A list literal, starting at '['; returns its value."""
        start = self.pos
        self.pos += 1
        elems = []
        while True:
            self.skip_blanks()
            if self.pos >= len(self.text):
                raise self.error("unterminated list", start, incomplete=True)
            if self.text[self.pos] == "]":
                self.pos += 1
                # constants are host values: parses are shared by interpreters of every
                # backend, and each moves them onto its own when it compiles them
                with backends.using(backends.HOST):
                    return make_list(elems)
            elems.append(self.read_datum())

    def read_dict(self):
        """A dictionary literal, starting at ':{'; returns its list of (key, value) pairs."""
        start = self.pos
        self.pos += 2
        pairs = []
        while True:
            self.skip_blanks()
            if self.pos >= len(self.text):
                raise self.error("unterminated dictionary", start, incomplete=True)
            if self.text[self.pos] == "}":
                self.pos += 1
                return pairs
            entry_pos = self.pos
            if self.text[self.pos] != "[":
                raise self.error("malformed dictionary entry", entry_pos)
            entry = self.read_list()
            if len(entry) != 2:
                raise self.error("malformed dictionary entry", entry_pos)
            pairs.append((element(entry, 0), element(entry, 1)))

    def read_datum(self):
        """One constant inside a list literal (or one object for .r / .rs)."""
        text, start = self.text, self.pos
        c = text[start]
        nxt = text[start + 1] if start + 1 < len(text) else ""
        if c in DIGITS:
            return self.read_number()
        if c == "-" and nxt in DIGITS and nxt:
            self.pos += 1
            return self.read_number(negative=True)
        if c == '"':
            return self.read_string()
        if c == "[":
            return self.read_list()
        if c == ":" and nxt == "{":
            from ..values import Dict
            return Dict(self.read_dict())
        if c == ":" and nxt in NAME_START and nxt:
            self.pos += 1
            return Symbol(self.read_name())
        if c in NAME_START:
            return Symbol(self.read_name())
        raise self.error(f"unexpected {c!r} in list literal", start)


def tokenize(text, line_offset=0):
    return list(Lexer(text, line_offset).tokens())


def bracket_depth(tokens):
    return sum(OPENERS.get(t.type, 0) for t in tokens)
