"""The parser's tables (klong/compiler/syntax/lalr.py): they come from lark, are kept in the per-user
cache, and parse exactly as lark's parser does; a damaged, stale or unwritable cache changes
nothing but the time it takes."""
import marshal
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from klong import KlongError
from klong.compiler.syntax import lalr, parser
from klong.compiler.syntax.lexer import tokenize

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = [
    "1+2", "f::{x*y};f(3;4)", "{[a b];a::x;b::y;a+b}", ":[x<1;0;:[x<2;1;2]]", "a@<a",
    "+/'[[1 2] [3 4]]", "{x{+/x*y}:/b}'a", "f(1;)(2)", "(1+2)(3)", "g::{x}(1)(2)",
    ":{[1 2] [3 4]}", "0cx,\"abc\"", "{x;y;z}", "-1", "#:[1;2;3]", "x::y::z::1",
    "{x}'[]", "+\\~[1 2]", ".p(1);.p(2)", "a:=1,2", "f:>[a b]", "v∂g", "{:[x;y;z]}",
]


def _outcome(parse, tokens):
    try:
        return "ok", repr(parse(tokens))
    except KlongError as e:
        return "klong", str(e)
    except Exception:               # the tables' NoParse, lark's UnexpectedInput
        return "no parse", None


def _random_texts(n, seed=7):
    atoms = ["1", "x", "f", "+", "-", "*", "'", "/", "\\", ":~", "::", "(", ")", "{", "}",
             "[", "]", ";", ":[", " ", '"a"', "[1 2]", ":{}", "g(1)", "!", "|", "0c", "^"]
    r = random.Random(seed)
    return ["".join(r.choice(atoms) for _ in range(r.randint(1, 10))) for _ in range(n)]


def test_tables_parse_as_lark_does():
    """Every text gives the same tree, the same Klong error, or no parse, both ways."""
    compared = 0
    for text in PROGRAMS + _random_texts(3000):
        try:
            tokens = tokenize(text)
        except KlongError:
            continue
        if tokens:
            assert _outcome(parser._parser.parse, tokens) == \
                _outcome(parser._lark().parse, tokens), text
            compared += 1
    assert compared > 1000


def test_syntax_errors_are_explained_by_lark(kw):
    with pytest.raises(KlongError, match="missing operand"):
        kw("{x+}")
    with pytest.raises(KlongError, match="parenthesized expression holds one"):
        kw("(1;2)")


def _run_kgpy(env, *args):
    env = {**os.environ, **env}
    env.pop("KLONG_PARSER_CACHE", None)
    return subprocess.run([sys.executable, str(ROOT / "kgpy"), *args], env=env,
                          capture_output=True, text=True, timeout=120)


def test_tables_are_cached_and_rebuilt(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    first = _run_kgpy(env, "-e", "+/!10")
    assert (first.stdout, first.stderr) == ("45\n", "")
    [path] = (tmp_path / "klong").iterdir()
    version, grammar, tables = marshal.loads(path.read_bytes())
    assert version == lalr.FORMAT and "start: seq" in grammar
    # (lark numbers the states differently from one build to the next: no two builds'
    # tables need be equal, only parse alike)

    path.write_bytes(b"not tables")                       # damaged: rebuilt
    again = _run_kgpy(env, "-e", "+/!10")
    assert (again.stdout, again.stderr) == ("45\n", "")
    assert marshal.loads(path.read_bytes())[:2] == (lalr.FORMAT, grammar)

    path.write_bytes(marshal.dumps((lalr.FORMAT, "start: other", tables)))   # stale
    assert _run_kgpy(env, "-e", "1+1").stdout == "2\n"
    assert marshal.loads(path.read_bytes())[1] == grammar
    assert not [p for p in (tmp_path / "klong").iterdir() if p != path]      # no leftovers


def test_no_cache_where_none_can_be_made(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    done = _run_kgpy({"XDG_CACHE_HOME": str(blocked)}, "-e", "2*3")
    assert (done.stdout, done.stderr) == ("6\n", "")


def test_unreadable_or_unwritable_cache_file(tmp_path):
    """A path that is a folder can be neither read nor replaced: the tables are built."""
    path = tmp_path / "tables"
    path.mkdir()
    built = lalr.cached_tables("grammar", str(path), lambda: (0, 1, {}, []))
    assert built == (0, 1, {}, []) and path.is_dir()
    assert not [p for p in tmp_path.iterdir() if p != path]


def test_import_klong_does_not_import_lark():
    code = "import sys, klong; klong.KlongInterpreter()('1+1'); print('lark' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.stdout == "False\n", done.stderr
