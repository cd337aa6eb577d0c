"""The kgpy command line: run a file, evaluate an expression, or read Klong interactively."""
import argparse
import functools
import os
import sys

from .. import __version__
from ..runtime.display import Summary, write
from ..errors import KlongError
from ..interpreter import KlongInterpreter
from .replcommands import FAILED, PROMPT, Session, guarded, print_error
from ..sysfns.io import LATIN1_FALLBACK, read_source
from ..runtime.values import Dict


def _parser():
    # argparse makes a help formatter for each option added (to check its metavar), and the
    # formatter asks for the terminal's width through shutil, which loads the compression
    # libraries: ms of every start-up. Those formatters are never printed, so they get a
    # fixed width; help and usage, printed later, get argparse's own formatter.
    p = argparse.ArgumentParser(
        prog="kgpy", description="Klong array language interpreter (numpy or torch backend).",
        formatter_class=functools.partial(argparse.HelpFormatter, width=80))
    p.add_argument("file", nargs="?", help="Klong program to run (its arguments follow it)")
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the program, in .a")
    p.add_argument("-e", "--expr", help="evaluate EXPR, print its value and exit (without a program file)")
    p.add_argument("-l", "--load", metavar="FILE",
                   help="load FILE first, then run -e EXPR, the program or the prompt")
    p.add_argument("--backend", default=os.environ.get("KLONG_BACKEND") or None,
                   help="array backend: numpy (default), torch, or an installed plugin's name")
    p.add_argument("--device",
                   help="torch device: cpu, cuda, cuda:N or mps (default: KLONG_DEVICE, else "
                        "the best available)")
    p.add_argument("--dtype", default=os.environ.get("KLONG_DTYPE") or None,
                   help="element type of reals: float64 (default), float32, or bfloat16 "
                        "and float16 (torch only)")
    _add_settings(p)
    p.add_argument("--debug", action="store_true", help="show Python tracebacks for errors")
    p.add_argument("--no-capture", dest="capture", action="store_false", default=None,
                   help="torch: no capture and replay of functions called again and again "
                        "(KLONG_CAPTURE=0)")
    p.add_argument("--full", action="store_true",
                   help="at the prompt, print long values in full (]p switches later)")
    p.add_argument("--style", default=os.environ.get("KLONG_STYLE") or None,
                   help="colours at the prompt: ansi (default: the terminal's own palette), "
                        "none, or a pygments style name such as monokai")
    p.add_argument("--version", action="version", version=f"klong {__version__}")
    p.formatter_class = argparse.HelpFormatter
    return p


# options of settings.py, each defaulting to its environment variable (which the
# interpreter reads): the option, what its value is (None: a switch), and its help
_SETTING_OPTIONS = [
    ("--seed", "N", "seed of the random numbers (.rn): the same draws every run (KLONG_SEED)"),
    ("--deterministic", None, "torch's deterministic algorithms, bit-identical runs; seeds "
                              "with 0 unless --seed (KLONG_DETERMINISTIC)"),
    ("--memory-limit", "SIZE", "the most memory one result may take: bytes, or with a unit "
                               "B, KB, MB, GB (KLONG_MEMORY_LIMIT)"),
    ("--memory-hook-threshold", "SIZE", "the change of memory that memory hooks are told of "
                                        "(default 1MB; KLONG_MEMORY_HOOK_THRESHOLD)"),
    ("--amp", None, "torch: mixed precision (autocast) around evaluation, reals float32 "
                    "(KLONG_AMP)"),
    ("--amp-dtype", "TYPE", "reduced precision of --amp: bfloat16 (default on the CPU) or "
                            "float16 (default on GPUs) (KLONG_AMP_DTYPE)"),
]
_SETTINGS = tuple(option for option, value, _ in _SETTING_OPTIONS if value is not None)


def _add_settings(p):
    for option, value, text in _SETTING_OPTIONS:
        if value is None:
            p.add_argument(option, action="store_true", default=None, help=text)
        else:
            p.add_argument(option, metavar=value, help=text)


def _settings(args):
    return dict(seed=args.seed, deterministic=args.deterministic, memory_limit=args.memory_limit,
                memory_hook_threshold=args.memory_hook_threshold, amp=args.amp,
                amp_dtype=args.amp_dtype)


def main(argv=None):
    args = _parser().parse_args(_glue_expression(sys.argv[1:] if argv is None else argv))
    if hasattr(sys.stdin, "reconfigure"):      # piped input may be Latin-1 as well as UTF-8
        sys.stdin.reconfigure(errors=LATIN1_FALLBACK)
    try:
        return _run(args)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


def _glue_expression(argv):
    """argv with `-e EXPR` written `--expr=EXPR`: an expression may start with '-' (-x,
    -[]), which argparse would take for an option. Only kgpy's own options are looked at,
    not the program's arguments after the file."""
    argv = list(argv)
    i = 0
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "--":
        if argv[i] in ("-e", "--expr") + _SETTINGS and i + 1 < len(argv):
            argv[i:i + 2] = [f"{'--expr' if argv[i] == '-e' else argv[i]}={argv[i + 1]}"]
        elif argv[i] in ("-l", "--load", "--backend", "--device", "--dtype", "--style"):
            i += 1                    # its value, which may start with '-' too
        i += 1
    return argv


def _run(args):
    if args.expr is not None and args.file is not None:
        # -e runs EXPR alone: a program named too would be silently left unrun
        print(f"kgpy: -e EXPR cannot go with a program file ({args.file}): give one or the "
              f"other", file=sys.stderr)
        return 2
    try:
        interp = KlongInterpreter(backend=args.backend, device=_device(args), dtype=args.dtype,
                                  capture=args.capture, **_settings(args))
    except (ValueError, ImportError, KlongError) as e:
        print(f"kgpy: {e}", file=sys.stderr)
        return 2
    interp.debug = args.debug
    _set_kgpy_variables(interp)
    try:
        if args.load is not None:
            source = _read_file(args.load)
            if source is None or _guarded(lambda: interp.run(source, filename=args.load),
                                          args.debug, args.load) is FAILED:
                return 1
        if args.expr is not None:
            # printing is guarded too: a full disk is an error like any other
            value = _guarded(lambda: _print_value(interp.run(args.expr)), args.debug)
            return 1 if value is FAILED else 0
        if args.file is not None:
            words = args.args[1:] if args.args[:1] == ["--"] else list(args.args)
            interp.globals[".a"] = words
            interp.globals[".os.argv"] = words
            source = _read_file(args.file)
            if source is None:
                return 1
            failed = _guarded(lambda: interp.run(source, filename=args.file),
                              args.debug, args.file) is FAILED
            return 1 if failed else 0
        return interactive(interp, args.debug, full=args.full, style=args.style)
    except SystemExit as e:           # .x(code)
        sys.stdout.flush()
        return e.code if isinstance(e.code, int) else 0


def _guarded(action, debug, filename=None):
    """Run `action`; a Klong error is reported on stderr and FAILED is returned."""
    return guarded(action, lambda e: print_error(e, filename), debug)


def _print_value(value):
    """Print a value in readable form (nothing for None); returns the value."""
    if value is not None:
        print(write(value))
        sys.stdout.flush()
    return value


def _device(args):
    """The device asked for: --device, else KLONG_DEVICE for a backend that has devices (so
    that KLONG_DEVICE=cuda does not stop numpy runs)."""
    if args.device is not None or (args.backend or "numpy") == "numpy":
        return args.device
    return os.environ.get("KLONG_DEVICE") or None


def _read_file(path):
    # like python does for scripts: modules beside the program can be imported (.py, .pyf)
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    try:
        return read_source(path)
    except OSError as e:
        print(f"kgpy: cannot read {path}: {e.strerror}", file=sys.stderr)
        return None


def _set_kgpy_variables(interp):
    """What kgpy alone defines (system.md A.2): .os.argv (the words after a program's
    name), .os.env (the environment) and .system (the handles of background services:
    none are running)."""
    interp.globals[".os.argv"] = []
    interp.globals[".os.env"] = Dict(os.environ.items())
    interp.globals[".system"] = Dict()


def interactive(interp, debug=False, full=False, style=None):
    """Read lines, evaluate each complete chunk, print its value. Uses the full REPL
    (repl.py) on a terminal, where long values are shortened unless `full`; otherwise
    (piped input) a plain loop without prompts that prints everything. Both understand the
    ]-commands of replcommands.py. Returns the exit status: 1 if piped input had an error,
    else 0."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        try:
            from .repl import run_repl      # lazy on purpose: prompt_toolkit, only for a terminal
        except ImportError:
            run_repl = None
        if run_repl is not None:
            from .highlight import check_style   # lazy on purpose: pygments, as above
            problem = check_style(style)        # only the prompt has colours: a warning
            if problem:
                print(f"kgpy: {problem}; using the default colours", file=sys.stderr)
                style = None
            interp.summary = None if full else Summary()
            return run_repl(interp, debug, style)
    return _plain_loop(interp, debug, prompt=sys.stdin.isatty())


def _plain_loop(interp, debug, prompt):
    session = Session(interp, debug)
    while True:
        if prompt:
            sys.stdout.write(PROMPT if not session.pending else "")
            sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            break
        if not session.feed(line.rstrip("\n")):
            return 0                    # ]q: like .x(0)
    session.finish()
    return 1 if session.failed and not prompt else 0


if __name__ == "__main__":
    sys.exit(main())
