"""The Jupyter kernel (klong.frontends.kernel) as a real process, driven through jupyter_client as a
notebook drives it: installing its kernel spec, starting it, executing cells (values,
output, ]-commands, pasted transcripts, errors), completion, inspection, continuation,
interrupting a runaway cell and shutting down."""
import base64
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("ipykernel")
pytest.importorskip("jupyter_client")

from jupyter_client.kernelspec import KernelSpecManager  # noqa: E402
from jupyter_client.manager import KernelManager  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60


@pytest.fixture(scope="module")
def kernel_dir(tmp_path_factory):
    """The kernel spec, installed by `python -m klong.kernel install --prefix`."""
    prefix = tmp_path_factory.mktemp("jupyter")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "klong.kernel", "install", "--prefix", str(prefix)],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    return prefix / "share" / "jupyter" / "kernels"


@pytest.fixture(scope="module")
def kernel(kernel_dir):
    """A running kernel (numpy backend) and a client connected to it."""
    manager = KernelManager(kernel_name="klong",
                            kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernel_dir)]))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for name in ("KLONG_BACKEND", "KLONG_DEVICE"):
        env.pop(name, None)
    manager.start_kernel(env=env)
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=TIMEOUT)
    yield manager, client
    client.stop_channels()
    if manager.is_alive():
        manager.shutdown_kernel(now=True)


def execute(client, code):
    """(reply content, [(message type, content)] of what the cell sent to the notebook)."""
    sent = []

    def keep(msg):
        if msg["msg_type"] not in ("status", "execute_input"):
            sent.append((msg["msg_type"], msg["content"]))

    # stop_on_error=False: the next request is not aborted for arriving while ipykernel
    # still discards the requests queued behind a failed cell (its behaviour, not ours)
    reply = client.execute_interactive(code, output_hook=keep, timeout=TIMEOUT,
                                       stop_on_error=False)
    return reply["content"], sent


def result_text(sent):
    return [c["data"]["text/plain"] for t, c in sent if t == "execute_result"]


def stdout_text(sent):
    return "".join(c["text"] for t, c in sent if t == "stream" and c["name"] == "stdout")


def shell_reply(client, msg_id):
    while True:
        msg = client.get_shell_msg(timeout=TIMEOUT)
        if msg["parent_header"].get("msg_id") == msg_id:
            return msg["content"]


@pytest.mark.parametrize("option", ["--help", "-h"])
def test_help_is_the_kernels_own(option):
    """Not IPython's help: the two ways the kernel is run, and what it is."""
    r = subprocess.run([sys.executable, "-m", "klong.kernel", option], capture_output=True,
                       text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    assert (r.returncode, r.stderr) == (0, "")
    lines = r.stdout.splitlines()
    assert lines[0].startswith("usage: python -m klong.kernel install [--user | --sys-prefix")
    assert lines[2] == "       python -m klong.kernel -f CONNECTION_FILE"
    assert lines[4].startswith("The Jupyter kernel for Klong")
    assert "IPython" not in r.stdout


def test_kernel_spec(kernel_dir):
    spec = json.loads((kernel_dir / "klong" / "kernel.json").read_text())
    assert spec["argv"][1:4] == ["-m", "klong.kernel", "-f"]
    assert spec["language"] == "klong" and spec["interrupt_mode"] == "signal"


def test_kernel_info(kernel):
    _, client = kernel
    client.kernel_info()
    info = client.get_shell_msg(timeout=TIMEOUT)["content"]
    assert info["language_info"]["name"] == "klong"
    assert info["language_info"]["pygments_lexer"] == "klong"
    assert "backend: numpy" in info["banner"]


def test_values_and_output(kernel):
    _, client = kernel
    reply, sent = execute(client, 'a::!5\n.p("hello")\na*2')
    assert reply["status"] == "ok"
    assert stdout_text(sent) == "hello\n"
    assert result_text(sent) == ["[0 2 4 6 8]"]            # the last line's value only
    reply, sent = execute(client, "a+1")                    # the variables stay
    assert result_text(sent) == ["[1 2 3 4 5]"]
    reply, sent = execute(client, ':"a comment"')           # no value: no result
    assert reply["status"] == "ok" and result_text(sent) == []


def test_long_values_are_shortened_as_at_the_prompt(kernel):
    _, client = kernel
    _, sent = execute(client, "[1000 1000]:^!1000000")
    [text] = result_text(sent)
    assert text.startswith("[[0 1 2 ... 997 998 999] [1000 1001 1002 ... 1997 1998 1999]")
    assert text.endswith("(1000000 elements, shape [1000 1000])")
    assert len(text) < 400
    _, sent = execute(client, "]p full\n#$!2000")
    assert "printed in full" in stdout_text(sent)
    _, sent = execute(client, "!2000")
    assert "..." not in result_text(sent)[0]
    execute(client, "]p on")


def test_commands(kernel):
    _, client = kernel
    reply, sent = execute(client, "]h +")
    assert reply["status"] == "ok"
    assert "Transpose" in stdout_text(sent) and "Plus" in stdout_text(sent)
    reply, sent = execute(client, "]b")
    assert stdout_text(sent).startswith("backend: numpy")


def test_pasted_transcript(kernel):
    _, client = kernel
    reply, sent = execute(client, "?> t::6*7\n42\n?> t+1\n43\n")
    assert reply["status"] == "ok"
    assert result_text(sent) == ["43"]


def test_errors_are_klong_errors(kernel):
    _, client = kernel
    reply, sent = execute(client, 'c::1\nnosuch(1)\nc::2')
    assert reply["status"] == "error"
    assert reply["ename"] == "undefined error"
    errors = [c for t, c in sent if t == "error"]
    assert len(errors) == 1 and "Traceback" not in "".join(errors[0]["traceback"])
    _, sent = execute(client, "c")                          # the cell stopped at its error
    assert result_text(sent) == ["1"]
    reply, sent = execute(client, "{x+}")
    assert reply["ename"] == "syntax error"
    lines = [re.sub(r"\x1b\[\d+m", "", line)
             for line in [c for t, c in sent if t == "error"][0]["traceback"]]
    assert lines == ["syntax error: missing operand", "{x+}", "   ^"]


def test_complete_inspect_and_continuation(kernel):
    _, client = kernel
    execute(client, "verylongname::1")
    code = "1+verylo"
    content = shell_reply(client, client.complete(code, len(code)))
    assert content["matches"] == ["verylongname"]
    assert (content["cursor_start"], content["cursor_end"]) == (2, len(code))
    content = shell_reply(client, client.complete(".com", 4))
    assert content["matches"] == [".comment", ".compile", ".compilex"]
    content = shell_reply(client, client.complete("]h .com", 7))
    assert content["matches"] == [".comment", ".compile", ".compilex"]
    content = shell_reply(client, client.inspect("a::1+2", 4))
    assert content["found"] and "Plus" in content["data"]["text/plain"]
    content = shell_reply(client, client.inspect("3*verylongname", 6))
    assert content["data"]["text/plain"] == "verylongname: 1"
    assert shell_reply(client, client.is_complete("{x+"))["status"] == "incomplete"
    assert shell_reply(client, client.is_complete("{x+1}"))["status"] == "complete"


def test_interrupt(kernel):
    manager, client = kernel
    execute(client, "kept::7")
    msg_id = client.execute("{x+1}:~0", stop_on_error=False)       # never converges
    time.sleep(1.0)
    manager.interrupt_kernel()
    reply = shell_reply(client, msg_id)
    assert reply["status"] == "error" and reply["ename"] == "interrupted"
    reply, sent = execute(client, "kept*6")
    assert result_text(sent) == ["42"], (reply, sent)


def test_shutdown(kernel_dir):
    manager = KernelManager(kernel_name="klong",
                            kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernel_dir)]))
    manager.start_kernel(env=dict(os.environ, PYTHONPATH=str(ROOT)))
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=TIMEOUT)
    _, sent = execute(client, "+/!10")
    assert result_text(sent) == ["45"]
    client.stop_channels()
    manager.shutdown_kernel()
    assert not manager.is_alive()


@pytest.mark.parametrize("ending", ["\n", "\n\n", "\n  \n\t\n"])
def test_the_last_value_shows_whatever_blank_lines_follow(kernel, ending):
    _, client = kernel
    reply, sent = execute(client, "w::!4\nw*3" + ending)
    assert reply["status"] == "ok" and result_text(sent) == ["[0 3 6 9]"]


def results(sent):
    return [c["data"] for t, c in sent if t == "execute_result"]


def test_rich_python_objects_show_as_themselves(kernel):
    _, client = kernel
    reply, sent = execute(client, '.pyf("IPython.display";"SVG")\n'
                                  'SVG("<svg xmlns=""http://www.w3.org/2000/svg""><rect/></svg>")\n')
    assert reply["status"] == "ok", reply
    [data] = results(sent)
    assert "<rect/>" in data["image/svg+xml"] and data["text/plain"] == ":SVG"
    _, sent = execute(client, "[3 30]:^!90")                # a wide matrix: text and a table
    [data] = results(sent)
    assert data["text/plain"].startswith("[[0 1 2 3") and data["text/html"].count("<tr>") == 3


def test_plots_show_inline(kernel):
    pytest.importorskip("matplotlib")
    _, client = kernel
    reply, sent = execute(client, '.plot(!10;:{["title" "squares"]})\n')
    assert reply["status"] == "ok", reply
    [data] = results(sent)
    assert base64.b64decode(data["image/png"]).startswith(b"\x89PNG")
    assert data["text/plain"] == ":picture"


def test_graph_shows_as_a_picture(kernel_dir):
    pytest.importorskip("torch")
    pytest.importorskip("matplotlib")
    manager, client = start(kernel_dir, KLONG_BACKEND="torch")
    try:
        reply, sent = execute(client, ".graph({(x^3)+x};2.0)\n")
        assert reply["status"] == "ok", reply
        [data] = results(sent)
        assert "<svg" in data["image/svg+xml"] and ">pow 3<" in data["image/svg+xml"]
        assert data["text/plain"].startswith("graph():")
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def start(kernel_dir, name="klong", **env):
    manager = KernelManager(kernel_name=name,
                            kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernel_dir)]))
    manager.start_kernel(env=dict(os.environ, PYTHONPATH=str(ROOT), **env))
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=TIMEOUT)
    return manager, client


@pytest.fixture(scope="module")
def ipython_kernel(tmp_path_factory):
    """IPython's own kernel (ipykernel) with `%load_ext klong`, as a Python notebook has it."""
    from ipykernel.kernelspec import write_kernel_spec
    folder = tmp_path_factory.mktemp("kernels")
    write_kernel_spec(str(folder / "python3"))
    manager, client = start(folder, "python3")
    reply, _ = execute(client, "%load_ext klong")
    assert reply["status"] == "ok", reply
    yield manager, client
    client.stop_channels()
    manager.shutdown_kernel(now=True)


def test_magics_in_a_python_kernel(ipython_kernel):
    _, client = ipython_kernel
    reply, sent = execute(client, "%%klong\nsq::{x*x}\nsq'!5\n\n")
    assert reply["status"] == "ok" and result_text(sent) == ["[0 1 4 9 16]"]
    reply, sent = execute(client, "%%klong\nfine::1\nnosuch(1)\n")
    assert reply["status"] == "error"                         # Run all stops here
    [error] = [c for t, c in sent if t == "error"]
    assert error["traceback"] == ["undefined error: nosuch is not defined"]
    reply, sent = execute(client, "x = %klong 1+\n")
    assert reply["status"] == "error"
    assert [c["traceback"] for t, c in sent if t == "error"] == [
        ["syntax error: missing operand", "1+", "  ^"]]
    reply, sent = execute(client, "n = %klong +/!10\nn * 2")
    assert result_text(sent) == ["90"]


def test_magics_complete_and_inspect_in_a_python_kernel(ipython_kernel):
    _, client = ipython_kernel
    execute(client, "%klong verylongname::1")
    for code in ["%%klong\n1+verylo", "y = %klong verylo"]:
        content = shell_reply(client, client.complete(code, len(code)))
        assert content["matches"] == ["verylongname"], content
        assert content["cursor_end"] - content["cursor_start"] == len("verylo")
    content = shell_reply(client, client.complete("%klong .com", 11))
    assert content["matches"] == [".comment", ".compile", ".compilex"]
    code = "%%klong\na::1+2"
    content = shell_reply(client, client.inspect(code, len(code) - 2))
    assert content["found"] and "Plus" in content["data"]["text/plain"]
    content = shell_reply(client, client.inspect("%klong 3*verylongname", 12))
    assert content["data"]["text/plain"] == "verylongname: 1"
    content = shell_reply(client, client.inspect("len", 2))      # Python is still Python
    assert content["found"] and "Return the number" in str(content["data"])


def test_magics_interrupt_in_a_python_kernel(ipython_kernel):
    manager, client = ipython_kernel
    execute(client, "%klong kept::7")
    msg_id = client.execute("%klong {x+1}:~0", stop_on_error=False)
    time.sleep(1.5)
    manager.interrupt_kernel()
    reply = shell_reply(client, msg_id)
    assert reply["status"] == "error" and reply["traceback"] == ["interrupted"]
    reply, sent = execute(client, "%klong kept*6")
    assert result_text(sent) == ["42"], (reply, sent)
