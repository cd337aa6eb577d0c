"""Registering the Klong kernel with Jupyter: a kernel spec (kernel.json) that runs
`python -m klong.kernel` with this Python."""
import argparse
import json
import os
import sys
import tempfile


def kernel_spec(backend=None, device=None):
    """The kernel.json contents; a backend or device goes into the kernel's environment."""
    env = {}
    if backend:
        env["KLONG_BACKEND"] = backend
    if device:
        env["KLONG_DEVICE"] = device
    shown = f"Klong ({backend})" if backend else "Klong"
    spec = {"argv": [sys.executable, "-m", "klong.kernel", "-f", "{connection_file}"],
            "display_name": shown, "language": "klong", "interrupt_mode": "signal"}
    if env:
        spec["env"] = env
    return spec


def install(user=False, prefix=None, name=None, backend=None, device=None):
    """Install the kernel spec; returns the folder it went to."""
    from jupyter_client.kernelspec import KernelSpecManager
    name = name or ("klong" if not backend else f"klong-{backend}")
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "kernel.json"), "w", encoding="utf-8") as f:
            json.dump(kernel_spec(backend, device), f, indent=1)
        return KernelSpecManager().install_kernel_spec(folder, name, user=user, prefix=prefix)


def main(argv):
    p = argparse.ArgumentParser(prog="python -m klong.kernel install",
                                description="Register the Klong kernel with Jupyter.")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true", help="for this user only")
    where.add_argument("--sys-prefix", action="store_true",
                       help="in this Python environment (sys.prefix)")
    where.add_argument("--prefix", help="under this folder (share/jupyter/kernels)")
    p.add_argument("--name", help="the kernel's name (default klong, or klong-BACKEND)")
    p.add_argument("--backend", help="numpy (default) or torch")
    p.add_argument("--device", help="the torch device: cpu, cuda, cuda:N or mps")
    args = p.parse_args(argv)
    try:
        folder = install(user=args.user, prefix=sys.prefix if args.sys_prefix else args.prefix,
                         name=args.name, backend=args.backend, device=args.device)
    except ImportError:
        print("the Klong kernel needs jupyter_client and ipykernel: "
              "pip install -e '.[jupyter]' (in the klong checkout)", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"cannot install the kernel: {e}", file=sys.stderr)
        return 1
    print(f"installed the Klong kernel in {folder}")
    return 0
