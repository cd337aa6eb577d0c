"""The interactive Klong prompt, on prompt_toolkit.

History is kept in ~/.klong_history (or the file named by KLONG_HISTORY; an empty value
keeps no history file). A line that leaves a bracket, brace, parenthesis, conditional or
string open continues on the next line; Escape then Enter accepts the input as it is.
Tab completes defined names, system functions and ]-commands, and turns \\nabla and
\\partial into ∇ and ∂. Ctrl-C clears the line being typed, or stops a running evaluation
(the variables keep their values); Ctrl-D or ]q quits.
"""
import os
import re
import sys

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer, Completion, PathCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.enums import DEFAULT_BUFFER
from prompt_toolkit.filters import has_focus
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.lexers import Lexer

from . import __version__, helptable
from .replcommands import COMMANDS, Session

PROMPT = "?> "
CONTINUATION = ".. "
HISTORY_FILE = ".klong_history"

# \name + Tab -> the operator's character
UNICODE_NAMES = {"nabla": "\u2207", "partial": "\u2202", "track": "\u02d9"}

_NAME_AT_END = re.compile(r"[A-Za-z.][A-Za-z0-9.]*$")
_BACKSLASH_AT_END = re.compile(r"\\([A-Za-z]+)$")
_COMMAND_WORD = re.compile(r"^\s*(\][^\s]*)$")
_COMMAND_ARG = re.compile(r"^\s*\](.)\s*(.*)$")


def run_repl(interp, debug=False):
    """Read, evaluate and print until Ctrl-D or ]q; returns the exit status (0). A .x call
    leaves through SystemExit, which kgpy turns into the exit status."""
    session = Session(interp, debug)
    prompt = _prompt_session(interp, session)
    print(banner(interp))
    sys.stdout.flush()
    while True:
        try:
            message = CONTINUATION if interp.pending_comment is not None else PROMPT
            text = prompt.prompt(message)
        except KeyboardInterrupt:       # Ctrl-C while typing: start again on a clean line
            session.reset()
            continue
        except EOFError:                # Ctrl-D on an empty line
            return 0
        try:
            going_on = session.feed_text(text)
            if going_on:
                session.finish()
        except KeyboardInterrupt:       # Ctrl-C while evaluating: back to the prompt
            session.reset()
            sys.stdout.flush()
            print("\ninterrupted", file=sys.stderr)
            continue
        if not going_on:
            return 0


def banner(interp):
    backend = interp.backend
    return (f"klong {__version__}  backend: {backend.name}  device: {backend.device}\n"
            f"]h for help, ]q or Ctrl-D to quit")


def history_path():
    """Where the history lives: $KLONG_HISTORY, else ~/.klong_history. None: no file."""
    path = os.environ.get("KLONG_HISTORY")
    if path is None:
        return os.path.join(os.path.expanduser("~"), HISTORY_FILE)
    return os.path.expanduser(path) if path.strip() else None


class _History(FileHistory):
    """File history that never stops the REPL: an unreadable or unwritable file only means
    no history."""

    def load_history_strings(self):
        try:
            yield from super().load_history_strings()
        except OSError:
            return

    def store_string(self, string):
        try:
            super().store_string(string)
        except OSError:
            pass


class KlongCompleter(Completer):
    """Completes names defined in the interpreter (system functions included, as they are
    names starting with '.'), ]-commands with their arguments, and \\nabla / \\partial."""

    def __init__(self, interp):
        self.interp = interp
        self.paths = PathCompleter(expanduser=True)
        self.folders = PathCompleter(only_directories=True, expanduser=True)

    def get_completions(self, document, complete_event):
        line = document.current_line_before_cursor
        if document.cursor_position_row == 0 and line.lstrip().startswith("]"):
            command = _COMMAND_WORD.match(line)
            if command:
                word = command.group(1)
                for name in COMMANDS:
                    if name.startswith(word):
                        yield Completion(name, -len(word),
                                         display_meta=_explanation(helptable.HELP.get(name)))
                return
            argument = _COMMAND_ARG.match(line)
            if argument and argument.group(1) in "hli":
                yield from self._argument(argument.group(1), argument.group(2), complete_event)
                return
        before = document.text_before_cursor
        special = _BACKSLASH_AT_END.search(before)
        if special:
            typed = special.group(1)
            for name, char in UNICODE_NAMES.items():
                if name.startswith(typed):
                    yield Completion(char, -len(special.group(0)), display=f"\\{name}  {char}")
            return
        match = _NAME_AT_END.search(before)
        if not match:
            return
        start = match.start()
        if start > 0 and before[start - 1].isdigit():     # 1.5, 0x1F, 0ca: not names
            return
        word = match.group(0)
        for name in self._names():
            if name.startswith(word):
                yield Completion(name, -len(word),
                                 display_meta=_explanation(helptable.HELP.get(name)))

    def _names(self):
        names = {n for n in self.interp.globals if "`" not in n}
        return sorted(names, key=lambda n: (n.startswith("."), n.lower(), n))

    def _argument(self, letter, text, complete_event):
        if letter == "h":
            for topic in helptable.HELP:
                if topic.startswith(text):
                    yield Completion(topic, -len(text),
                                     display_meta=_explanation(helptable.HELP[topic]))
        elif letter in ("l", "i"):
            completer = self.paths if letter == "l" else self.folders
            yield from completer.get_completions(Document(text, len(text)), complete_event)


def _explanation(text):
    """The explanation on the first line of a help text, without the usage part."""
    if not text:
        return ""
    first = text.split("\n", 1)[0]
    parts = re.split(r"\s{2,}", first, maxsplit=1)
    return parts[1] if len(parts) == 2 else first


class _KlongInputLexer(Lexer):
    """Highlights Klong through the pygments lexer; ]-command lines stay plain."""

    def __init__(self):
        try:
            from prompt_toolkit.lexers import PygmentsLexer
            from .highlight import KlongLexer
            self.klong = PygmentsLexer(KlongLexer)
        except ImportError:          # pygments missing: no colours
            self.klong = None

    def lex_document(self, document):
        if self.klong is None or document.text.lstrip().startswith("]"):
            lines = document.lines
            return lambda i: [("", lines[i])] if i < len(lines) else []
        return self.klong.lex_document(document)

    def invalidation_hash(self):
        return self.klong.invalidation_hash() if self.klong is not None else 0


def _key_bindings(session):
    bindings = KeyBindings()
    focused = has_focus(DEFAULT_BUFFER)

    @bindings.add("enter", filter=focused)
    def _enter(event):
        buffer = event.current_buffer
        state = buffer.complete_state
        if state is not None and state.current_completion is not None:
            buffer.complete_state = None            # keep the chosen completion
            return
        if session.wants_more(buffer.text):
            buffer.newline(copy_margin=False)
        else:
            buffer.validate_and_handle()

    @bindings.add("escape", "enter", filter=focused)
    def _accept_as_is(event):
        event.current_buffer.validate_and_handle()

    return bindings


def _prompt_session(interp, session):
    path = history_path()
    history = _History(path) if path else InMemoryHistory()
    return PromptSession(
        history=history,
        lexer=_KlongInputLexer(),
        completer=KlongCompleter(interp),
        complete_while_typing=False,
        multiline=True,
        prompt_continuation=CONTINUATION,
        key_bindings=_key_bindings(session),
        enable_history_search=False,
    )


__all__ = ["run_repl", "KlongCompleter", "banner", "history_path"]
