"""A pygments lexer for Klong, used by the REPL for syntax highlighting and registered as a
pygments plugin (`pygments.lexers.get_lexer_by_name("klong")`, `pygmentize -l klong`).

Token types: verbs are Operator, adverbs Name.Attribute (as in pygments' APL lexer),
conditionals Keyword, `.name` system names Name.Builtin, `:name` symbols String.Symbol,
`0cX` characters String.Char, comments `:"..."` Comment.Multiline. Inside list and
dictionary literals every bare name is a symbol, as the language reads it.
"""
from pygments.lexer import RegexLexer, bygroups
from pygments.token import (Comment, Error, Keyword, Name, Number, Operator, Punctuation,
                            String, Whitespace)

__all__ = ["KlongLexer"]

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

    def analyse_text(text):
        # a Klong definition of a function, or a system function call, is a fair hint
        score = 0.0
        if "::{" in text:
            score += 0.2
        if ".p(" in text or ".l(\"" in text:
            score += 0.1
        return score
