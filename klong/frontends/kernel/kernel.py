"""KlongKernel: the Jupyter messages of a Klong session (see the package's docstring)."""
import os
import sys

from ipykernel.kernelbase import Kernel

from ... import __version__
from .. import completion
from ...runtime.display import Summary
from ...interpreter import KlongInterpreter
from ..replcommands import FAILED, CellSession
from ..richdisplay import mime_bundle

RED, PLAIN = "\x1b[31m", "\x1b[0m"


class KlongKernel(Kernel):
    implementation = "klong"
    implementation_version = __version__
    language = "klong"
    language_version = __version__
    language_info = {
        "name": "klong",
        "mimetype": "text/x-klong",
        "file_extension": ".kg",
        "pygments_lexer": "klong",
    }

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        # the backend and device as for kgpy: KLONG_BACKEND, KLONG_DEVICE (the kernel spec
        # of `install --backend torch` sets them)
        self.interp = KlongInterpreter(backend=os.environ.get("KLONG_BACKEND") or None,
                                       device=os.environ.get("KLONG_DEVICE") or None)
        self.interp.summary = Summary()
        self.interp.inline_plots = True        # .plot gives a picture the notebook shows
        self.klong = CellSession(self.interp)

    @property
    def banner(self):
        backend = self.interp.backend
        return f"klong {__version__}  backend: {backend.name}  device: {backend.device}"

    def set_parent(self, ident, parent, channel="shell"):
        """Output printed while a request runs (.p, ]-commands) belongs to that request."""
        super().set_parent(ident, parent, channel)
        if channel == "shell":
            for stream in (sys.stdout, sys.stderr):
                if hasattr(stream, "set_parent"):
                    stream.set_parent(parent)

    # -- execution
    def do_execute(self, code, silent, store_history=True, user_expressions=None,
                   allow_stdin=False, *, cell_id=None):
        try:
            value = self.klong.run_cell(code)
        except KeyboardInterrupt:
            self.klong.reset()
            return self._error(silent, "interrupted", "interrupted by the user",
                               ["interrupted"])
        except SystemExit:                                   # .x(...)
            return self._error(silent, "exit", ".x ends programs, not a kernel",
                               ["exit: .x ends programs; restart the kernel from its menu"])
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        if value is FAILED:
            error = self.klong.last_error
            return self._error(silent, f"{error.kind} error", error.message,
                               error.report().split("\n"))
        if self.klong.quit:
            print("]q: the kernel goes on; stop or restart it from the notebook's menu")
        elif value is not None and not silent:
            self.send_response(self.iopub_socket, "execute_result", {
                "execution_count": self.execution_count,
                "data": mime_bundle(value, self.interp.summary),
                "metadata": {}})
        return {"status": "ok", "execution_count": self.execution_count,
                "payload": [], "user_expressions": {}}

    def _error(self, silent, name, message, lines):
        content = {"ename": name, "evalue": message,
                   "traceback": [RED + line + PLAIN for line in lines]}
        if not silent:
            self.send_response(self.iopub_socket, "error", content)
        return {"status": "error", "execution_count": self.execution_count, **content}

    # -- completion, inspection, continuation
    def do_complete(self, code, cursor_pos):
        cursor_pos = len(code) if cursor_pos is None else cursor_pos
        matches = completion.complete(self.interp, code[:cursor_pos])
        start = cursor_pos - (matches[0].replaces if matches else 0)
        return {"status": "ok", "matches": [m.text for m in matches],
                "cursor_start": start, "cursor_end": cursor_pos,
                "metadata": {"_jupyter_types_experimental": [
                    {"start": start, "end": cursor_pos, "text": m.text, "type": "",
                     "signature": m.meta} for m in matches]}}

    def do_inspect(self, code, cursor_pos, detail_level=0, omit_sections=()):
        text = completion.inspect(self.interp, code, cursor_pos, self.interp.summary)
        return {"status": "ok", "found": text is not None,
                "data": {"text/plain": text} if text is not None else {}, "metadata": {}}

    def do_is_complete(self, code):
        if self.klong.wants_more(code):
            return {"status": "incomplete", "indent": ""}
        return {"status": "complete"}
