"""Reading Klong at the prompt, line by line, and the REPL commands (lines starting with `]`,
system.md B.5). Shared by the prompt_toolkit REPL (repl.py), kgpy's plain loop for piped
input (cli.py), the Jupyter kernel and the IPython magics, so all understand the same
commands and print values the same way.

A line is a command only where a new chunk starts: not inside an open bracket, string or
.comment block.
"""
import math
import numbers
import os
import re
import sys
import time

from ..runtime.memory import size_text
from ..runtime.display import Summary, write
from ..errors import as_klong_error
from ..sysfns.core import DEFAULT_KLONGPATH
from ..sysfns.io import output_to_cout

PROMPT = "?> "
CONTINUATION = ".. "

# What a failed action returns (None is a value: the value of a line that has none).
FAILED = object()


def guarded(action, report, debug=False):
    """Run `action`; an error is handed to `report` as a Klong error and FAILED is
    returned. Any exception: the session survives whatever happens, printing included."""
    try:
        return action()
    except Exception as e:
        if debug:
            import traceback
            traceback.print_exc()
        report(as_klong_error(e))
        return FAILED


def print_error(error, filename=None, colour=False):
    """An error report on stderr: one line (plus the source and a caret for a syntax
    error), red when `colour`."""
    try:
        sys.stdout.flush()
    except OSError:
        pass                          # the error reported may be that very stdout
    text = error.report(filename)
    print(f"\x1b[31m{text}\x1b[0m" if colour else text, file=sys.stderr)
    sys.stderr.flush()


class Session:
    """The state of interactive input: the chunk read so far, whether anything failed and
    the open transcript (]t).

    feed(line) takes one input line and returns False when the user asked to quit (]q).
    Values are shown by `show` and errors by `report`; a front end that does not print
    (the Jupyter kernel) overrides them.
    """

    def __init__(self, interp, debug=False, colour=False):
        self.interp = interp
        self.debug = debug
        self.colour = colour
        self.lines = []                 # the chunk read so far
        self.reading = interp.continuation()
        self.failed = False
        self.transcript = None

    @property
    def pending(self):
        return "\n".join(self.lines)

    # -- input
    def feed(self, line):
        interp = self.interp
        command = interp.pending_comment is None and not self.lines and is_command(line)
        if not (command and split_command(line)[0] == "t"):   # ]t lines stay out of it
            self.record("\t" + line)
        if interp.pending_comment is not None:
            if line.startswith(interp.pending_comment):
                interp.pending_comment = None
            return True
        if command:
            return run_command(self, line)
        self.lines.append(line)
        if not self.reading.feed(line):
            return True
        text = self.pending
        self.reset()
        self.evaluate(text)
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
        text = self.pending
        self.reset()
        if text.strip():
            self.evaluate(text)

    def reset(self):
        """Forget a half-read chunk (after Ctrl-C)."""
        self.lines = []
        self.reading.reset()

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

    # -- evaluation and output
    def evaluate(self, text):
        """Run one chunk; show its value (kept in `it`) or report its error."""
        if not text.strip():
            return None
        def run_and_show():           # showing is guarded too: a value may be huge
            value = self.interp.run_chunk(text)
            if value is not None:
                self.interp.globals["it"] = value
                self.show(value)
            return value
        return self.guarded(run_and_show)

    def guarded(self, action):
        value = guarded(action, self.report, self.debug)
        if value is FAILED:
            self.failed = True
        return value

    def show(self, value):
        text = write(value, self.interp.summary)
        print(text)
        sys.stdout.flush()
        self.record(text)

    def report(self, error):
        print_error(error, colour=self.colour)
        self.record(error.report())
        self.output_back()

    def output_back(self):
        """After an error or Ctrl-C, output that .tc sent into a file comes back to .cout,
        said in one line: otherwise all later output would go on vanishing into the file."""
        channel = output_to_cout(self.interp)
        if channel is not None:
            notice = f"output goes to .cout again (.tc had chosen {channel.klong_name})"
            print(f"\x1b[31m{notice}\x1b[0m" if self.colour else notice, file=sys.stderr)
            sys.stderr.flush()
            self.record(notice)

    def error(self, message):
        """A message about a command that could not be carried out."""
        sys.stdout.flush()
        print(f"\x1b[31m{message}\x1b[0m" if self.colour else message, file=sys.stderr)
        self.failed = True

    def record(self, text):
        """Add to the transcript, when one is open."""
        if self.transcript is not None:
            self.transcript.write(text + "\n")
            self.transcript.flush()


class CellSession(Session):
    """A Session for notebook cells (the Jupyter kernel, the %%klong magic): a cell runs
    line by line as at the prompt, stops at its first error, and gives back the value of
    its last line instead of printing every value."""

    def run_cell(self, text):
        """Run `text` (a transcript loses its prompts and output first). Returns the last
        value (None when the last line had none) or FAILED; the error is in `self.error`.
        ]q returns None and sets `self.quit`."""
        self.value, self.last_error, self.quit = None, None, False
        self.reset()
        for line in strip_transcript(text, self.interp.needs_more).split("\n"):
            if not self.lines and is_command(line):
                self.value = None                   # a command line has no value
            if not self.feed(line):
                self.quit = True
                return None
            if self.last_error is not None:
                self.reset()
                return FAILED
        self.finish()
        return FAILED if self.last_error is not None else self.value

    def evaluate(self, text):
        if text.strip():                # blank lines after the last value keep it
            self.value = None
        return super().evaluate(text)

    def show(self, value):
        self.value = value
        self.record(write(value, self.interp.summary))

    def report(self, error):
        self.last_error = error
        self.record(error.report())
        self.output_back()


def strip_transcript(text, needs_more):
    """Input pasted from a transcript (the docs, a terminal) without its prompts and output.

    When the first non-blank line starts with the prompt "?> ", the text is read as a
    session: each prompt line, without the prompt, is input, together with the lines that
    continue it while `needs_more(chunk)` says a bracket or string is open (their ".. "
    continuation prompt removed); every other line is output and is dropped. Any other
    text is returned as it is."""
    lines = text.replace("\r\n", "\n").split("\n")
    first = next((line for line in lines if line.strip()), "")
    if not _is_prompt_line(first):
        return text
    kept = []
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not _is_prompt_line(line):
            continue                                   # output
        chunk = line.lstrip()[len(PROMPT.rstrip()):]
        chunk = chunk[1:] if chunk.startswith(" ") else chunk
        while needs_more(chunk) and i < len(lines):
            following = lines[i]
            i += 1
            chunk += "\n" + (following[len(CONTINUATION):]
                             if following.startswith(CONTINUATION) else following)
        kept.append(chunk)
    return "\n".join(kept)


def _is_prompt_line(line):
    stripped = line.lstrip()
    return stripped.startswith(PROMPT) or stripped == PROMPT.rstrip()


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
    from . import helptable     # here, not at start-up: kgpy -e or a program never asks
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
    from . import helptable
    found = helptable.mentions(word)
    if not found:
        print(f"nothing mentions {word}")
        return
    for topic, line in found:
        print(line if line.startswith(topic) else f"{topic}  {line}")


def load_command(session, name):
    if not name:
        session.error("]l: a file name is needed")
        return
    interp = session.interp
    quoted = name.replace('"', '""')
    session.guarded(lambda: interp.run_chunk(f'.l("{quoted}")'))


def shell_command(session, command):
    if not command:
        session.error("]!: a command is needed")
        return
    sys.stdout.flush()
    # os.system, not subprocess: importing subprocess would slow every script's start-up
    status = os.waitstatus_to_exitcode(os.system(command))
    if status != 0:
        print(f"exit status {status}", file=sys.stderr)


def time_command(session, arg):
    """]T expr: like IPython's %timeit. The number of loops per run grows (1, 2, 5, 10, 20,
    ...) until a run takes 0.2 s; then up to 7 runs give the mean and the spread of the
    time per loop. ]T:n expr fixes the loops per run at n."""
    loops = None
    match = re.match(r":\s*(\S*)\s*(.*)$", arg, re.S)
    if match:
        if not match.group(1).isdigit() or int(match.group(1)) < 1:
            session.error("]T: the count after ]T: must be a positive integer")
            return
        loops, arg = int(match.group(1)), match.group(2)
    if not arg.strip():
        session.error("]T: an expression to time is needed")
        return
    interp = session.interp

    def run(count):
        start = time.perf_counter()
        for _ in range(count):
            interp.run_chunk(arg)
        _synchronize(interp)
        return time.perf_counter() - start

    timings = session.guarded(lambda: measure(run, loops))
    if timings is not FAILED:
        print(timing_report(*timings))


TARGET_RUN = 0.2          # seconds a run should last, as timeit's autorange
RUNS = 7
TIME_BUDGET = 10.0        # seconds: fewer runs for slow expressions


def measure(run, loops=None):
    """(seconds per loop of each run, loops per run) for `run(count)`, which runs the work
    `count` times and returns the seconds taken."""
    if loops is None:
        loops, first = 1, run(1)
        while first < TARGET_RUN:
            loops = _next_loops(loops)
            first = run(loops)
    else:
        first = run(loops)
    runs = max(1, min(RUNS, int(TIME_BUDGET / max(first, 1e-9))))
    totals = [first] + [run(loops) for _ in range(runs - 1)]
    return [t / loops for t in totals], loops


def _next_loops(loops):
    """1, 2, 5, 10, 20, 50, ...: the next number of loops to try."""
    digits = 10 ** int(math.log10(loops))
    lead = loops // digits
    return (2 if lead == 1 else 5 if lead == 2 else 10) * digits


def timing_report(per_loop, loops):
    """'12.3 µs ± 0.4 µs per loop (mean ± std. dev. of 7 runs, 10000 loops each)'."""
    mean = sum(per_loop) / len(per_loop)
    runs = len(per_loop)
    loop_word = "loop" if loops == 1 else "loops"
    if runs == 1:
        return f"{time_text(mean)} per loop (1 run, {loops} {loop_word})"
    spread = math.sqrt(sum((t - mean) ** 2 for t in per_loop) / (runs - 1))
    return (f"{time_text(mean)} ± {time_text(spread)} per loop "
            f"(mean ± std. dev. of {runs} runs, {loops} {loop_word} each)")


def time_text(seconds):
    """A duration with three significant digits in the unit that suits it."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        shown = float(f"{seconds / scale:.3g}")        # 0.9999 ms is shown as 1 ms
        if shown >= 1 or unit == "ns":
            return f"{shown:.3g} {unit}"


def transcript_command(session, path):
    if session.transcript is not None:
        session.transcript.close()
        session.transcript = None
        if not path:
            print("transcript stopped")
            return
    elif not path:
        session.error("]t: no transcript is open (]t file starts one)")
        return
    try:
        session.transcript = open(os.path.expanduser(path), "a", encoding="utf-8")
    except OSError as e:
        session.error(f"]t: cannot open {path}: {e.strerror}")
        return
    print(f"transcript to {path}")


def list_command(session, folder):
    if not folder:
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


def backend_command(session, arg):
    backend = session.interp.backend
    wanted = arg.split()[0] if arg else backend.name
    if wanted != backend.name:
        session.error(f"]b: this session runs on {backend.name}; the backend is chosen when "
                      f"it starts: kgpy --backend {wanted}, KLONG_BACKEND={wanted}, or a "
                      f"kernel installed with --backend {wanted}")
        return
    print(f"backend: {backend.name}  device: {backend.device}")


def options_command(session, arg):
    """]o: the settings the session started with (settings.py)."""
    interp = session.interp
    limit = interp.memory.limit
    amp = interp.evaluation.amp_dtype
    print(f"backend: {interp.backend.name}  device: {interp.backend.device}  "
          f"dtype: {interp.backend.dtype}  seed: {interp.seed if interp.seed is not None else 'none'}"
          f"  deterministic: {'on' if interp.settings.deterministic else 'off'}  "
          f"memory limit: {size_text(limit) if limit else 'none'}  amp: {amp or 'off'}"
          + (f"  capture: {'on' if interp.capture.enabled else 'off'}"
             if interp.capture.available else "")
          + ("  CUDA graphs: on" if interp.capture.enabled
             and getattr(interp.backend.capture, "graphs", False) else ""))


def capture_command(session, arg):
    """]c: what capture and replay (runtime/capture.py) did; ]c on / ]c off switch it."""
    capture = session.interp.capture
    word = arg.lower()
    if word in ("on", "off"):
        if not capture.available:
            session.error("]c: capture and replay work on the torch backend only")
            return
        capture.set_enabled(word == "on")
    elif word:
        session.error("]c: on, off, or nothing (what was captured, and why not)")
        return
    print(capture.explain())


def print_command(session, arg):
    """]p: how the REPL prints long values."""
    interp = session.interp
    word = arg.lower()
    if word in ("full", "off", "all"):
        interp.summary = None
    elif word in ("on", "short", "summary"):
        interp.summary = Summary()
    elif word.isdigit() and int(word) > 0:
        interp.summary = Summary(threshold=int(word))
    elif word:
        session.error("]p: full, on or a number of elements (]p alone tells the setting)")
        return
    summary = interp.summary
    if summary is None:
        print("long values are printed in full (]p on shortens them)")
    else:
        print(f"values of more than {summary.threshold} elements are printed in part "
              f"(]p full prints them whole)")


_COMMANDS = {
    "h": help_command,
    "a": apropos_command,
    "l": load_command,
    "!": shell_command,
    "T": time_command,
    "t": transcript_command,
    "i": list_command,
    "b": backend_command,
    "o": options_command,
    "c": capture_command,
    "p": print_command,
}


# ---------------------------------------------------------------- helpers

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
