"""python -m klong.kernel install [--user | --sys-prefix | --prefix DIR] [--backend B]
registers the kernel with Jupyter; with any other arguments, Jupyter starts the kernel."""
import sys

USAGE = """\
usage: python -m klong.kernel install [--user | --sys-prefix | --prefix DIR] [--name NAME]
                                      [--backend B] [--device D]
       python -m klong.kernel -f CONNECTION_FILE

The Jupyter kernel for Klong (docs/notebooks.md). `install` registers it with Jupyter, as
"Klong" in its list of kernels (`install --help` tells its options); Jupyter then starts it
with -f CONNECTION_FILE, a file Jupyter writes. Other options are ipykernel's (see
`python -m ipykernel --help-all`). Needs the jupyter extra: pip install -e '.[jupyter]' in
the klong checkout."""


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    # lazy on purpose: installing needs jupyter_client only, running ipykernel only
    if argv[:1] == ["install"]:
        from .frontends.kernel.install import main as install
        return install(argv[1:])
    # ipykernel would answer these with IPython's help, which names neither install nor Klong
    if "-h" in argv or "--help" in argv:
        print(USAGE)
        return 0
    try:
        from ipykernel.kernelapp import IPKernelApp
    except ImportError:
        print("the Klong kernel needs ipykernel: pip install -e '.[jupyter]' (in the klong "
              "checkout)", file=sys.stderr)
        return 2
    from .frontends.kernel.kernel import KlongKernel
    IPKernelApp.launch_instance(argv=argv, kernel_class=KlongKernel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
