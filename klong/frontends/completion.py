"""Completion and inspection of Klong input, for every front end: the terminal REPL
(repl.py, through prompt_toolkit), the Jupyter kernel and the IPython magics.

`complete(interp, text)` completes the end of `text` (what is before the cursor): defined
names (system functions included: they are names starting with '.'), ]-commands and their
arguments (help topics, file and folder names), and \\nabla, \\partial and \\track, which
become the characters ∇, ∂ and ˙. `inspect(interp, text, cursor)` gives the help text for
the operator or name at the cursor, or the value of a variable.
"""
import os
import re

from . import helptable
from ..runtime.display import write

# \name + Tab -> the operator's character
UNICODE_NAMES = {"nabla": "\u2207", "partial": "\u2202", "track": "\u02d9"}

COMMAND_LETTERS = "hatl!Tibpq"
COMMANDS = ["]" + c for c in COMMAND_LETTERS]

_NAME_AT_END = re.compile(r"[A-Za-z.][A-Za-z0-9.]*$")
_BACKSLASH_AT_END = re.compile(r"\\([A-Za-z]+)$")
_COMMAND_WORD = re.compile(r"^\s*(\][^\s]*)$")
_COMMAND_ARG = re.compile(r"^\s*\](.)\s*(.*)$")
_NAME = re.compile(r"[A-Za-z.][A-Za-z0-9.]*")


class Match:
    """One completion: the text that replaces the last `replaces` characters typed, what
    the menu shows for it and a short explanation."""
    __slots__ = ("text", "replaces", "display", "meta")

    def __init__(self, text, replaces, display=None, meta=""):
        self.text, self.replaces = text, replaces
        self.display, self.meta = display or text, meta

    def __repr__(self):
        return f"Match({self.text!r}, {self.replaces})"


def complete(interp, text):
    """The completions of the end of `text`, the input before the cursor (a line is a
    ]-command where a new chunk starts, as at the prompt)."""
    line = text.rsplit("\n", 1)[-1]
    if line.lstrip().startswith("]") and not interp.needs_more(text[:len(text) - len(line)]):
        command = _COMMAND_WORD.match(line)
        if command:
            word = command.group(1)
            return [Match(name, len(word), meta=explanation(helptable.HELP.get(name)))
                    for name in COMMANDS if name.startswith(word)]
        argument = _COMMAND_ARG.match(line)
        if argument and argument.group(1) in "hlit":
            return _argument(argument.group(1), argument.group(2))
        return []
    special = _BACKSLASH_AT_END.search(text)
    if special:
        typed = special.group(1)
        return [Match(char, len(special.group(0)), display=f"\\{name}  {char}")
                for name, char in UNICODE_NAMES.items() if name.startswith(typed)]
    match = _NAME_AT_END.search(text)
    if not match:
        return []
    start = match.start()
    if start > 0 and text[start - 1].isdigit():     # 1.5, 0x1F, 0ca: not names
        return []
    word = match.group(0)
    return [Match(name, len(word), meta=explanation(helptable.HELP.get(name)))
            for name in _names(interp) if name.startswith(word)]


def _names(interp):
    names = {n for n in interp.globals if "`" not in n}       # not module-private copies
    return sorted(names, key=lambda n: (n.startswith("."), n.lower(), n))


def _argument(letter, typed):
    if letter == "h":
        return [Match(topic, len(typed), meta=explanation(helptable.HELP[topic]))
                for topic in helptable.HELP if topic.startswith(typed)]
    return _paths(typed, folders_only=letter == "i")


def _paths(typed, folders_only):
    """File and folder names that complete `typed`; folders end with a slash."""
    folder, start = os.path.split(typed)
    try:
        entries = sorted(os.listdir(os.path.expanduser(folder) or "."))
    except OSError:
        return []
    found = []
    for entry in entries:
        if not entry.startswith(start) or (entry.startswith(".") and not start.startswith(".")):
            continue
        is_folder = os.path.isdir(os.path.join(os.path.expanduser(folder), entry))
        if folders_only and not is_folder:
            continue
        shown = entry + ("/" if is_folder else "")
        found.append(Match(shown, len(start), display=shown))
    return found


def explanation(text):
    """The explanation on the first line of a help text, without the usage part."""
    if not text:
        return ""
    first = text.split("\n", 1)[0]
    parts = re.split(r"\s{2,}", first, maxsplit=1)
    return parts[1] if len(parts) == 2 else first


# ---------------------------------------------------------------- inspection

def token_at(text, cursor):
    """The name or operator at (or just before) position `cursor` of `text`, or ""."""
    for name in _NAME.finditer(text):
        if name.start() <= cursor <= name.end():
            if name.start() > 0 and text[name.start() - 1] == ":":   # :sym, :name
                break
            return name.group(0)
    # an operator: the longest help topic that covers the cursor
    for width in (2, 1):
        for start in range(max(0, cursor - width), min(cursor, len(text) - width) + 1):
            piece = text[start:start + width]
            if len(piece) == width and start <= cursor <= start + width and piece in helptable.HELP:
                return piece
    return ""


def inspect(interp, text, cursor=None, summary=None):
    """Help on what is at the cursor: an operator, a system function or variable, a
    ]-command, or a defined name (its value, shortened by `summary`). None: nothing known."""
    if cursor is None:
        cursor = len(text)
    line_start = text.rfind("\n", 0, cursor) + 1
    line = text[line_start:text.find("\n", cursor) if "\n" in text[cursor:] else len(text)]
    if line.lstrip().startswith("]") and cursor - line_start <= len(line) - len(line.lstrip()) + 2:
        return helptable.lookup(line.lstrip()[:2])
    word = token_at(text, cursor)
    if not word:
        return None
    if word in interp.globals and not word.startswith("."):
        return f"{word}: {write(interp.globals[word], summary)}"
    return helptable.lookup(word)
