"""Klong's lexer: source text to Tokens.

List and dictionary literals are read whole into one LIST / DICT token carrying their value,
so the grammar never sees `[` (language.md 2.9). Newlines are whitespace here; the reader
splits source into chunks (a top-level line and the lines that continue it) with
`Continuation`, which follows the same rules one line at a time.

Two rules for comments: in source files and strings a `:"` comment ends at the next `"`, as
Klong defines it; in interactive input (`line_comments`) a comment that is not closed on its
line ends with the line, so a trailing remark cannot swallow the lines typed after it.
"""
import re
from bisect import bisect_right

from ... import backends
from ...errors import KlongError
from ...runtime.limits import int_from_text, real_from_text
from ...runtime.values import Char, Dict, Symbol, element, make_list

# ∇ (nabla), ∂ (partial) and ˙ (track) are this host's differentiation operators
SINGLE_VERBS = set("!#$%&*+,-<=>?@^_|~") | {"\u2207", "\u2202", "\u02d9"}
COLON_VERBS = set(":=-_#$@%+^>")          # ::  :=  :-  ...  :>
COLON_ADVERBS = set("'/\\~*")
NAME_START = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.")
NAME_CHARS = NAME_START | set("0123456789")


def is_name(text):
    """Whether `text` is a name as Klong reads one: a letter or a dot, then letters, digits
    and dots."""
    return bool(text) and text[0] in NAME_START and all(c in NAME_CHARS for c in text)
DIGITS = set("0123456789")
BLANKS = set(" \t\r\f\n\v")
PUNCTUATION = {"(": "LPAR", ")": "RPAR", "{": "LBRACE", "}": "RBRACE", "]": "RBRACK", ";": "SEMI"}

# A list literal of plain numbers (data read by .rs and .r, long literals in programs) is
# converted by numpy in one call instead of number by number; anything else in the brackets
# takes the general path. These characters are all such a list may hold.
_NOT_NUMERIC = re.compile(r"[^0-9 \t\n\r\f\v.e+-]")
_BLANKS_TO_SPACE = str.maketrans("\t\n\r\f\v", "     ")
# the starts of words that numpy reads as reals but Klong does not read as numbers
_BAD_REAL_STARTS = (" .", " +", " e", "-.", "-e", "-+", "--")


class Token(str):
    """A token: it reads as its source text; `type` is its kind (the grammar's terminal),
    `value` what it stands for, and the position attributes are those lark's parser and its
    error messages read (lark's own Token is not used: importing lark costs start-up time,
    and lark is needed only to build the parser's tables and to explain syntax errors)."""

    def __new__(cls, type, text, start_pos=None, line=None, column=None, end_pos=None):
        tok = super().__new__(cls, text)
        tok.type, tok.value, tok.start_pos, tok.end_pos = type, text, start_pos, end_pos
        tok.line, tok.column, tok.end_line, tok.end_column = line, column, None, None
        return tok

    def __reduce__(self):
        return _token, (self.type, str(self), self.value, self.start_pos, self.line,
                        self.column, self.end_pos)

    def __repr__(self):
        return f"Token({self.type!r}, {self.value!r})"


def _token(type, text, value, start_pos, line, column, end_pos):
    tok = Token(type, text, start_pos, line, column, end_pos)
    tok.value = value
    return tok


class Incomplete(KlongError):
    """The text ends inside a string, comment, list or dictionary: read more lines."""

    def __init__(self, message, line=None, column=None, source_line=None):
        super().__init__("syntax", message, line, column, source_line)


class Line(int):
    """A line number that remembers the file it belongs to, so that an error raised by code
    read from one file and run from another names the right file."""
    def __new__(cls, number, file):
        line = super().__new__(cls, number)
        line.file = file
        return line


class Lexer:
    def __init__(self, text, line_offset=0, line_comments=False, filename=None):
        self.text = text
        self.pos = 0
        self.line_offset = line_offset
        self.line_comments = line_comments
        self.filename = filename
        self.long_comments = []        # (start, end) of comments that run over several lines
        self._newlines = None          # where the newlines are, found on first use
        self._lines = {}               # Line objects by number, when there is a filename

    # -- positions and errors
    def _line_and_column(self, pos):
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self.text)]
        index = bisect_right(self._newlines, pos - 1)
        start = self._newlines[index - 1] + 1 if index else 0
        return index + 1 + self.line_offset, pos - start + 1, start

    def line_of(self, pos):
        return self._line_and_column(pos)[0]

    def where(self, pos):
        line, column, start = self._line_and_column(pos)
        end = self.text.find("\n", pos)
        return line, column, self.text[start:end if end >= 0 else len(self.text)]

    def error(self, message, pos, incomplete=False):
        line, column, source_line = self.where(pos)
        if incomplete:
            return Incomplete(message, line, column, source_line)
        return KlongError("syntax", message, line, column, source_line)

    def token(self, kind, value, start):
        line, column, _ = self._line_and_column(start)
        if self.filename is not None:
            line = self._lines.get(line) or self._lines.setdefault(line, Line(line, self.filename))
        # the token reads as its source text; its value may be any Klong value (a number
        # of any size, a list), which str() could not always turn into text
        tok = Token(kind, self.text[start:self.pos], start_pos=start, line=line,
                    column=column, end_pos=self.pos)
        tok.value = value
        return tok

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
        text = self.text
        self.pos += 2
        line_end = text.find("\n", self.pos) if self.line_comments else -1
        while True:
            end = text.find('"', self.pos)
            if self.line_comments and (end < 0 or 0 <= line_end < end):
                self.pos = line_end if line_end >= 0 else len(text)
                return
            if end < 0:
                raise self.error("unterminated comment", start, incomplete=True)
            if text.startswith('""', end):
                self.pos = end + 2
                continue
            self.pos = end + 1
            if text.find("\n", start, end) >= 0:
                self.long_comments.append((start, end))
            return

    # -- the token stream
    def tokens(self):
        text = self.text
        previous = None
        while True:
            self.skip_blanks()
            if self.pos >= len(text):
                return
            start = self.pos
            c = text[start]
            nxt = text[start + 1] if start + 1 < len(text) else ""
            if c in DIGITS:
                tok = self.token("CONST", self.read_number(), start)
            elif c == '"':
                tok = self.token("CONST", self.read_string(), start)
            elif c in NAME_START:
                tok = self.token("NAME", self.read_name(), start)
            elif c == "[":
                names = self.read_locals() if previous == "LBRACE" else None
                tok = self.token("CONST", self.read_list() if names is None else names, start)
            elif c == ":":
                tok = self.colon_token(nxt, start)
            elif c == "\\" and nxt in ("~", "*"):
                self.pos += 2
                tok = self.token("ADVERB", c + nxt, start)
            elif c in "'/\\":
                self.pos += 1
                tok = self.token("ADVERB", c, start)
            elif c in SINGLE_VERBS:
                self.pos += 1
                tok = self.token("VERB", c, start)
            else:
                kind = PUNCTUATION.get(c)
                if kind is None:
                    raise self.error(f"unexpected character {c!r}", start)
                self.pos += 1
                tok = self.token(kind, c, start)
            previous = tok.type
            yield tok

    def colon_token(self, nxt, start):
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
        if not lexeme.isdigit():
            mantissa, _, exponent = lexeme.partition("e")
            if (mantissa.count(".") > 1 or not mantissa[0].isdigit()
                    or ("e" in lexeme and not exponent.lstrip("+-").isdigit())):
                raise self.error(f"invalid number: {lexeme}", start)
        try:
            value = int_from_text(lexeme) if lexeme.isdigit() else real_from_text(lexeme)
        except KlongError as e:           # beyond what a number can hold
            raise e.located(*self.where(start)) from None
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
        numbers = self._plain_numbers(start)
        if numbers is not None:
            return numbers
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

    def _plain_numbers(self, start):
        """The list literal at `start` as one host array when it holds only integers that
        fit in 64 bits, or only reals; None when it holds anything else. (The host's array
        library reads the numerals itself, with Python's rules for them.)"""
        end = self.text.find("]", start + 1)
        if end < 0:
            return None
        body = self.text[start + 1:end]
        if _NOT_NUMERIC.search(body):
            return None
        reals = "." in body or "e" in body or "+" in body
        array = None if reals else backends.HOST.integers_from_text(body)
        if array is not None:
            self.pos = end + 1
            return array
        words = body.split()
        if not words:
            return None
        try:
            array = _reals(body, words) if reals else backends.HOST.asarray(words, "i")
        except ValueError:                 # a word that is not one number: "1-2", "-"
            return None
        except OverflowError:              # an integer beyond 64 bits: a Python int
            return None
        if array is None:
            return None
        self.pos = end + 1
        return array

    def read_locals(self):
        """The declared locals of a function, `{[a b];...}`, whose names Klong also lets be
        separated by `;` or `,` (`{[a;b];...}`, `{[a,b];...}`); None when the bracket holds
        anything else (a list literal), or is not followed by `;`."""
        start = self.pos
        self.pos += 1
        names = []
        while True:
            self.skip_blanks()
            c = self.text[self.pos] if self.pos < len(self.text) else ""
            if c in NAME_START and c:
                names.append(Symbol(self.read_name()))
            elif c in (";", ","):
                self.pos += 1
            elif c == "]" and names:
                self.pos += 1
                self.skip_blanks()
                if self.text.startswith(";", self.pos):
                    with backends.using(backends.HOST):
                        return make_list(names)
                break
            else:
                break
        self.pos = start
        return None

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
                raise self.error(f"malformed dictionary entry: {len(entry)} elements where "
                                 "a [key value] pair has 2", entry_pos)
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
            return Dict(self.read_dict())
        if c == ":" and nxt in NAME_START and nxt:
            self.pos += 1
            return Symbol(self.read_name())
        if c in NAME_START:
            return Symbol(self.read_name())
        raise self.error(f"unexpected {c!r} in list literal", start)


def _reals(body, words):
    """The words as a float64 array when every one is a Klong real (it has a point or an
    exponent); None otherwise. Mixed with integers, the list keeps each element's type
    and is no array of reals."""
    n = len(words)
    points, exponents = body.count("."), body.count("e")
    if not ((points == n and exponents in (0, n)) or (points == 0 and exponents == n)):
        return None
    spaced = " " + body.translate(_BLANKS_TO_SPACE)
    if any(bad in spaced for bad in _BAD_REAL_STARTS):
        return None
    return backends.HOST.asarray(words, "f")


def tokenize(text, line_offset=0, line_comments=False):
    return list(Lexer(text, line_offset, line_comments).tokens())


# ---------------------------------------------------------------- where chunks end

# what the continuation scan stops at: brackets, quotes, the shift character, and a 0c
# character literal (its character may be any of the others)
_INTERESTING = re.compile(r'[\[\](){}":]|(?<![A-Za-z0-9.])0[cC]')
_DEPTH = {"[": 1, "(": 1, "{": 1, "]": -1, ")": -1, "}": -1}
_SHIFT_PAIRS = COLON_VERBS | COLON_ADVERBS | {"|"}


class Continuation:
    """Follows source one line at a time and says whether the text so far ends inside a
    bracket, parenthesis, brace, conditional, list, dictionary, string or comment: then the
    next line continues the same chunk. It applies the lexer's rules for where strings,
    comments and character literals begin and end, in one pass over each line, so reading
    long input stays linear."""

    def __init__(self, line_comments=False):
        self.line_comments = line_comments
        self.depth = 0
        self.inside = None            # '"' in a string, ':' in a comment
        self.char_pending = False     # a line ended with 0c: its character is the newline

    def feed(self, line):
        """Take one line (without its newline); True when the chunk is complete."""
        pos = 0
        self.char_pending = False
        n = len(line)
        while pos < n:
            if self.inside is not None:
                pos = self._close(line, pos)
                if pos < 0:
                    break
                continue
            m = _INTERESTING.search(line, pos)
            if m is None:
                break
            c = m.group()
            pos = m.end()
            if c in _DEPTH:
                self.depth += _DEPTH[c]
            elif c == '"':
                self.inside = '"'
            elif c == ":":
                nxt = line[pos:pos + 1]
                if nxt == '"':
                    self.inside, pos = ":", pos + 1
                elif nxt in _SHIFT_PAIRS and nxt:
                    pos += 1                          # "::" before a quote is no comment
            else:
                pos = self._past_characters(line, pos)
        if self.inside == ":" and self.line_comments:
            self.inside = None
        return self.complete()

    def _past_characters(self, line, pos):
        """Past the character of the 0c that ends at pos, and of any 0c right after it (the
        lexer starts a token there, whatever the character before was)."""
        while True:
            if pos >= len(line):                      # 0c at the end of the line
                self.char_pending = True
                return pos
            pos += 1
            if line[pos:pos + 2] not in ("0c", "0C"):
                return pos
            pos += 2

    def _close(self, line, pos):
        """Past the quote that ends the open string or comment, or -1 when the line ends
        first."""
        while True:
            end = line.find('"', pos)
            if end < 0:
                return -1
            if line.startswith('""', end):
                pos = end + 2
                continue
            self.inside = None
            return end + 1

    def complete(self):
        return self.inside is None and self.depth <= 0 and not self.char_pending

    def reset(self):
        self.depth, self.inside, self.char_pending = 0, None, False
