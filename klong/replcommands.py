"""Reading Klong at the prompt, line by line, and the REPL commands (lines starting with `]`,
system.md B.5). Shared by the prompt_toolkit REPL (repl.py) and kgpy's plain loop for piped
input (cli.py), so both understand the same commands.

A line is a command only where a new chunk starts: not inside an open bracket, string or
.comment block.
"""
import numbers
import os
import re
import subprocess
import sys
import time

from . import helptable
from .cli import _FAILED, _guarded, evaluate_and_print

COMMAND_LETTERS = "hal!Tibq"          # ]t is recognised but not offered


class Session:
    """The state of interactive input: the chunk read so far and whether anything failed.

    feed(line) takes one input line and returns False when the user asked to quit (]q).
    """

    def __init__(self, interp, debug=False):
        self.interp = interp
        self.debug = debug
        self.pending = ""
        self.failed = False

    # -- input
    def feed(self, line):
        interp = self.interp
        if interp.pending_comment is not None:
            if line.startswith(interp.pending_comment):
                interp.pending_comment = None
            return True
        if not self.pending and is_command(line):
            return run_command(self, line)
        text = self.pending + "\n" + line if self.pending else line
        if interp.needs_more(text):
            self.pending = text
            return True
        self.pending = ""
        self._evaluate(text)
        return True

    def feed_text(self, text):
        """Feed every line of `text`; False as soon as one of them quits."""
        for line in text.split("\n"):
            if not self.feed(line):
                return False
        return True

    def finish(self):
        """Input ended: evaluate what is left of an unfinished chunk, so that its error is
        reported instead of being lost."""
        text, self.pending = self.pending, ""
        if text.strip():
            self._evaluate(text)

    def reset(self):
        """Forget a half-read chunk (after Ctrl-C)."""
        self.pending = ""

    def wants_more(self, text):
        """True when `text`, fed after what has been read so far, would leave a chunk or a
        .comment block open: the REPL keeps reading lines instead of accepting the input."""
        marker = self.interp.pending_comment
        pending = self.pending
        for line in text.split("\n"):
            if marker is not None:
                if line.startswith(marker):
                    marker = None
                continue
            if not pending and is_command(line):
                continue
            chunk = pending + "\n" + line if pending else line
            pending = chunk if self.interp.needs_more(chunk) else ""
        return marker is not None or bool(pending)

    def _evaluate(self, text):
        if evaluate_and_print(self.interp, text, self.debug) is _FAILED:
            self.failed = True

    # -- output helpers for commands
    def error(self, message):
        sys.stdout.flush()
        print(message, file=sys.stderr)
        self.failed = True


def is_command(line):
    return line.lstrip().startswith("]")


def split_command(line):
    """`]X argument` -> ("X", "argument"), the argument without surrounding blanks."""
    body = line.lstrip()[1:]
    if not body:
        return "", ""
    return body[0], body[1:].strip()


def run_command(session, line):
    """Carry out one ]-command line; returns False for ]q, else True."""
    letter, arg = split_command(line)
    if letter == "q":
        sys.stdout.flush()
        return False
    action = _COMMANDS.get(letter)
    if action is None:
        shown = line.split()[0] if line.strip() else "]"
        session.error(f"unknown command: {shown} (]h lists the commands)")
    else:
        action(session, arg)
    sys.stdout.flush()
    return True


# ---------------------------------------------------------------- the commands

def help_command(session, topic):
    if not topic:
        width = _columns(session.interp)
        print("\n".join(helptable.topic_listing(width)))
        return
    text = helptable.lookup(topic)
    if text is not None:
        print(text)
        return
    starting = [key for key in helptable.HELP if key.startswith(topic)]
    if starting:
        print(f"no help for {topic}; topics starting with it: {' '.join(starting)}")
        return
    related = helptable.apropos(topic)
    if related:
        print(f"no help for {topic}; it is mentioned under: {' '.join(related)}")
    else:
        print(f"no help for {topic} (]h alone lists the topics)")


def apropos_command(session, word):
    if not word:
        session.error("]a: a word to search for is needed")
        return
    topics = helptable.apropos(word)
    if not topics:
        print(f"nothing mentions {word}")
        return
    for topic in topics:
        first = helptable.HELP[topic].split("\n", 1)[0]
        print(first if first.startswith(topic) else f"{topic}  {first}")


def load_command(session, name):
    if not name:
        session.error("]l: a file name is needed")
        return
    interp = session.interp
    quoted = name.replace('"', '""')
    if _guarded(interp, lambda: interp.run_chunk(f'.l("{quoted}")'), session.debug) is _FAILED:
        session.failed = True


def shell_command(session, command):
    if not command:
        session.error("]!: a command is needed")
        return
    sys.stdout.flush()
    status = subprocess.call(command, shell=True)
    if status != 0:
        print(f"exit status {status}", file=sys.stderr)


def time_command(session, arg):
    count = 1
    match = re.match(r":\s*(\S*)\s*(.*)$", arg, re.S)
    if match:
        if not match.group(1).isdigit() or int(match.group(1)) < 1:
            session.error("]T: the count after ]T: must be a positive integer")
            return
        count, arg = int(match.group(1)), match.group(2)
    if not arg.strip():
        session.error("]T: an expression to time is needed")
        return
    interp = session.interp

    def timed():
        start = time.perf_counter()
        for _ in range(count):
            interp.run_chunk(arg)
        _synchronize(interp)
        return time.perf_counter() - start

    total = _guarded(interp, timed, session.debug)
    if total is _FAILED:
        session.failed = True
        return
    print(f"total: {_seconds(total)} per: {_seconds(total / count)}")


def list_command(session, folder):
    if not folder:
        from .sysfns.core import DEFAULT_KLONGPATH
        path = os.environ.get("KLONGPATH", DEFAULT_KLONGPATH)
        folder = next((d for d in path.split(":") if d), ".")
    try:
        names = sorted(n for n in os.listdir(folder)
                       if n.endswith(".kg") and os.path.isfile(os.path.join(folder, n)))
    except OSError as e:
        session.error(f"]i: cannot list {folder}: {e.strerror}")
        return
    if not names:
        print(f"no .kg files in {folder}")
        return
    print("\n".join(_columnize(names, _columns(session.interp))))


def backend_command(session, _arg):
    backend = session.interp.backend
    print(f"backend: {backend.name}  device: {backend.device}")


def transcript_command(session, _arg):
    session.error("]t: transcripts are not supported")


_COMMANDS = {
    "h": help_command,
    "a": apropos_command,
    "l": load_command,
    "!": shell_command,
    "T": time_command,
    "i": list_command,
    "b": backend_command,
    "t": transcript_command,
}

COMMANDS = ["]" + c for c in COMMAND_LETTERS]


# ---------------------------------------------------------------- helpers

def _seconds(s):
    return f"{s:.6g}"


def _synchronize(interp):
    """Wait for queued device work, so that GPU timings are not just launch times."""
    interp.backend.synchronize()


def _columns(interp):
    width = interp.globals.get(".cols", 80)
    return int(width) if isinstance(width, numbers.Integral) and width > 20 else 80


def _columnize(names, width):
    cell = max(len(n) for n in names) + 2
    per_line = max(1, width // cell)
    return ["".join(n.ljust(cell) for n in names[i:i + per_line]).rstrip()
            for i in range(0, len(names), per_line)]
