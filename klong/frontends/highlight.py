"""A pygments lexer for Klong, used by the REPL for syntax highlighting and registered as a
pygments plugin (`pygments.lexers.get_lexer_by_name("klong")`, `pygmentize -l klong`).

Token types: verbs are Operator, adverbs Name.Attribute (as in pygments' APL lexer),
conditionals Keyword, `.name` system names Name.Builtin, `:name` symbols String.Symbol,
`0cX` characters String.Char, comments `:"..."` Comment.Multiline. Inside list and
dictionary literals every bare name is a symbol, as the language reads it.

A text whose first line starts with the prompt "?> " is a transcript, as in the docs: the
prompts are Generic.Prompt, the input Klong, and the lines the REPL printed Generic.Output
(the docs' copy button leaves prompts and output out).

The REPL colours input with one of the styles of `style_names()`: "ansi", the default, uses
the terminal's own palette, so it reads on dark and light backgrounds alike.
"""
from pygments.lexer import RegexLexer, bygroups
from pygments.token import (Comment, Error, Generic, Keyword, Name, Number, Operator,
                            Punctuation, String, Token, Whitespace)

from ..interpreter import KlongInterpreter

__all__ = ["KlongLexer", "ANSI_STYLE", "check_style"]

PROMPT = "?> "
CONTINUATION = ".. "

_NAME = r"[A-Za-z.][A-Za-z0-9.]*"
_AFTER_NAME = r"(?![A-Za-z0-9.])"


def _numbers(sign=""):
    """Number rules; `sign` is a pattern for an optional leading minus (list literals)."""
    return [
        (sign + r"0[xX][0-9a-fA-F]+", Number.Hex),
        (sign + r"0[bB][01]+", Number.Bin),
        (sign + r"0[oO][0-7]+", Number.Oct),
        (sign + r"\d[\d.]*e[+-]?\d+", Number.Float),
        (sign + r"\d+\.[\d.]*", Number.Float),
        (sign + r"\d+", Number.Integer),
    ]


def _texts():
    """Comments, strings and characters: the same everywhere."""
    return [
        (r'\s+', Whitespace),
        (r':"', Comment.Multiline, "comment"),
        (r'"', String.Double, "string"),
        (r"0c[\s\S]", String.Char),
    ]


class KlongLexer(RegexLexer):
    """Klong, Nils M Holm's array language (with this host's operators :> ∇ ∂ ˙)."""

    name = "Klong"
    aliases = ["klong", "kg"]
    filenames = ["*.kg"]
    mimetypes = ["text/x-klong"]
    url = "https://t3x.org/klong/"

    tokens = {
        "root": _texts() + [
            # a function definition: the name being defined
            (r"(" + _NAME + r")(\s*)(::)(?=\s*\{)",
             bygroups(Name.Function, Whitespace, Operator)),
            (r":\[|:\|", Keyword),
            (r":\{", Punctuation, "dict"),
            (r"\[", Punctuation, "list"),
            (r":\(", Punctuation),
            (r":['/\\~*]|\\[~*]|['/\\]", Name.Attribute),
            (r":[:=\-_#$@%+^>]", Operator),
            (r":" + _NAME, String.Symbol),
            (r":(?=\d)", Punctuation),
            ] + _numbers() + [
            (r"\.[A-Za-z][A-Za-z0-9.]*", Name.Builtin),
            (r"it" + _AFTER_NAME, Name.Builtin.Pseudo),
            (r"[xyz]" + _AFTER_NAME, Name.Variable),
            (_NAME, Name),
            (r"[!#$%&*+,\-<=>?@^_|~\u2207\u2202\u02d9]", Operator),
            (r"\]", Keyword),
            (r"[(){};]", Punctuation),
            (r".", Error),
        ],
        # inside [...]: data only; bare names are symbols
        "list": _texts() + _numbers("-?") + [
            (r"\[", Punctuation, "#push"),
            (r"\]", Punctuation, "#pop"),
            (r":\{", Punctuation, "dict"),
            (r":?" + _NAME, String.Symbol),
            (r".", Error),
        ],
        # inside :{...}: [key value] entries
        "dict": [
            (r"\s+", Whitespace),
            (r':"', Comment.Multiline, "comment"),
            (r"\[", Punctuation, "list"),
            (r"\}", Punctuation, "#pop"),
            (r".", Error),
        ],
        "string": [
            (r'[^"]+', String.Double),
            (r'""', String.Escape),
            (r'"', String.Double, "#pop"),
        ],
        "comment": [
            (r'[^"]+', Comment.Multiline),
            (r'""', Comment.Multiline),
            (r'"', Comment.Multiline, "#pop"),
        ],
    }

    def get_tokens_unprocessed(self, text, stack=("root",)):
        if not text.lstrip(" \t\n").startswith(PROMPT):
            yield from super().get_tokens_unprocessed(text, stack)
            return
        yield from self._transcript(text)

    def _transcript(self, text):
        """Prompts, input and output of a pasted or documented session."""
        lines = text.splitlines(keepends=True)
        pos = 0
        i = 0
        while i < len(lines):
            line = lines[i]
            i += 1
            if not line.lstrip().startswith(PROMPT):
                yield pos, Generic.Output, line
                pos += len(line)
                continue
            prompt_end = line.index(PROMPT) + len(PROMPT)
            yield pos, Generic.Prompt, line[:prompt_end]
            pos += prompt_end
            chunk = line[prompt_end:]
            while KlongInterpreter.needs_more(chunk) and i < len(lines):
                chunk += lines[i]
                i += 1
            for index, token, value in super().get_tokens_unprocessed(chunk):
                yield pos + index, token, value
            pos += len(chunk)

    def analyse_text(text):
        # a Klong definition of a function, or a system function call, is a fair hint
        score = 0.0
        if "::{" in text:
            score += 0.2
        if ".p(" in text or ".l(\"" in text:
            score += 0.1
        return score


# ---------------------------------------------------------------- colours at the prompt

# Colours by the terminal's palette (ANSI names), so that each terminal theme keeps them
# readable: no navy on black, numbers and verbs apart.
ANSI_STYLE = {
    Token: "",
    Comment: "italic ansibrightblack",
    Keyword: "bold ansimagenta",
    Operator: "ansiyellow",
    Name.Attribute: "ansimagenta",              # adverbs
    Name.Builtin: "ansibrightblue",             # .p .l ... and it
    Name.Variable: "bold",                      # x y z
    Name.Function: "bold",
    Number: "ansicyan",
    String: "ansigreen",
    Error: "ansired",
}

STYLE_DEFAULT = "ansi"
STYLE_NONE = "none"


def style_names():
    """The styles --style accepts: ansi, none, and every pygments style."""
    from pygments.styles import get_all_styles
    return [STYLE_DEFAULT, STYLE_NONE] + sorted(get_all_styles())


def check_style(name):
    """None when `name` (or None, the default) is a style; else a message saying why not."""
    if name is None or name in (STYLE_DEFAULT, STYLE_NONE):
        return None
    if name in style_names():
        return None
    return (f"unknown style {name!r}: ansi, none, or a pygments style "
            f"({', '.join(style_names()[2:8])} ...)")
