"""The interactive Klong prompt, on prompt_toolkit.

History is kept in ~/.klong_history (or the file named by KLONG_HISTORY; an empty value
keeps no history file), and what was typed before is suggested in grey as you type (Right
arrow takes it). A line that leaves a bracket, brace, parenthesis, conditional or string
open continues on the next line; Escape then Enter accepts the input as it is. The bracket
matching the one at the cursor is highlighted. Tab completes defined names, system
functions and ]-commands, and turns \\nabla and \\partial into ∇ and ∂. Text pasted from a
transcript loses its "?> " prompts and output lines. Ctrl-C clears the line being typed, or
stops a running evaluation (the variables keep their values); Ctrl-D or ]q quits.
"""
import os
import sys

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.enums import DEFAULT_BUFFER
from prompt_toolkit.filters import has_focus
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout.processors import HighlightMatchingBracketProcessor
from prompt_toolkit.lexers import Lexer

from .. import __version__
from . import completion, highlight
from .replcommands import CONTINUATION, PROMPT, Session, strip_transcript

HISTORY_FILE = ".klong_history"


def run_repl(interp, debug=False, style=None):
    """Read, evaluate and print until Ctrl-D or ]q; returns the exit status (0). A .x call
    leaves through SystemExit, which kgpy turns into the exit status. `style` names the
    colours (highlight.style_names()); None: ansi, or none where NO_COLOR is set."""
    style = style or (highlight.STYLE_NONE if os.environ.get("NO_COLOR")
                      else highlight.STYLE_DEFAULT)
    session = Session(interp, debug, colour=style != highlight.STYLE_NONE)
    prompt = _prompt_session(interp, session, style)
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
            _interrupt_typed_while_leaving(prompt)
            going_on = session.feed_text(text)
            if going_on:
                session.finish()
        except KeyboardInterrupt:       # Ctrl-C while evaluating: back to the prompt
            session.reset()
            sys.stdout.flush()
            print("\ninterrupted", file=sys.stderr)
            session.output_back()
            continue
        if not going_on:
            return 0


def _interrupt_typed_while_leaving(prompt):
    """Keys pressed between Enter and the end of the prompt (which can take a second where
    the terminal does not answer cursor-position requests, or on a loaded machine) are not
    signals: prompt_toolkit keeps them as typeahead for the next prompt, or they wait in the
    terminal as bytes. A Ctrl-C among them raises KeyboardInterrupt here, so that it stops
    the evaluation it was meant for; other keys stay typeahead for the next input."""
    from prompt_toolkit.input.typeahead import get_typeahead, store_typeahead
    from prompt_toolkit.input.vt100_parser import Vt100Parser
    from prompt_toolkit.keys import Keys

    terminal = prompt.app.input
    keys = list(get_typeahead(terminal))
    data = _pending_bytes()
    if data:
        parser = Vt100Parser(keys.append)
        parser.feed(data.decode("utf-8", "replace"))
        parser.flush()
    interrupt = [i for i, key in enumerate(keys) if key.key == Keys.ControlC]
    if interrupt:
        store_typeahead(terminal, keys[interrupt[-1] + 1:])
        raise KeyboardInterrupt
    store_typeahead(terminal, keys)


def _pending_bytes():
    """What the terminal holds unread, without waiting; b"" where it cannot be known."""
    try:
        import select
        import termios  # noqa: F401  (only a POSIX terminal has this)
        fd = sys.stdin.fileno()
        if select.select([fd], [], [], 0)[0]:
            return os.read(fd, 4096)
    except (ImportError, OSError, ValueError):
        pass
    return b""


def banner(interp):
    backend = interp.backend
    shortened = "" if interp.summary is None else "; long values are shortened (]p full)"
    return (f"klong {__version__}  backend: {backend.name}  device: {backend.device}\n"
            f"]h for help, ]q or Ctrl-D to quit{shortened}")


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
    """prompt_toolkit's view of completion.complete."""

    def __init__(self, interp):
        self.interp = interp

    def get_completions(self, document, complete_event):
        for match in completion.complete(self.interp, document.text_before_cursor):
            yield Completion(match.text, -match.replaces, display=match.display,
                             display_meta=match.meta)


class _KlongInputLexer(Lexer):
    """Highlights Klong through the pygments lexer; ]-command lines stay plain."""

    def __init__(self):
        from prompt_toolkit.lexers import PygmentsLexer
        self.klong = PygmentsLexer(highlight.KlongLexer)

    def lex_document(self, document):
        if document.text.lstrip().startswith("]"):
            lines = document.lines
            return lambda i: [("", lines[i])] if i < len(lines) else []
        return self.klong.lex_document(document)

    def invalidation_hash(self):
        return self.klong.invalidation_hash()


def prompt_style(name):
    """The prompt_toolkit style for a style name; None for "none" (no colours)."""
    from prompt_toolkit.styles import (Style, merge_styles, style_from_pygments_cls,
                                       style_from_pygments_dict)
    bracket = Style.from_dict({"matching-bracket.cursor": "reverse",
                               "matching-bracket.other": "reverse"})
    if name == highlight.STYLE_NONE:
        return None
    if name == highlight.STYLE_DEFAULT:
        colours = style_from_pygments_dict(highlight.ANSI_STYLE)
    else:
        from pygments.styles import get_style_by_name
        colours = style_from_pygments_cls(get_style_by_name(name))
    return merge_styles([colours, bracket])


def _key_bindings(session, interp):
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

    @bindings.add(Keys.BracketedPaste)
    def _paste(event):
        text = event.data.replace("\r\n", "\n").replace("\r", "\n")
        event.current_buffer.insert_text(strip_transcript(text, interp.needs_more))

    return bindings


def _prompt_session(interp, session, style):
    path = history_path()
    history = _History(path) if path else InMemoryHistory()
    coloured = style != highlight.STYLE_NONE
    return PromptSession(
        history=history,
        lexer=_KlongInputLexer() if coloured else None,
        style=prompt_style(style),
        include_default_pygments_style=False,
        completer=KlongCompleter(interp),
        complete_while_typing=False,
        auto_suggest=AutoSuggestFromHistory(),
        input_processors=[HighlightMatchingBracketProcessor(chars="[](){}")],
        multiline=True,
        prompt_continuation=CONTINUATION,
        key_bindings=_key_bindings(session, interp),
        enable_history_search=False,
    )


__all__ = ["run_repl", "KlongCompleter", "banner", "history_path", "prompt_style"]
