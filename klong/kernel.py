"""python -m klong.kernel install [--user | --sys-prefix | --prefix DIR] [--backend B]
registers the kernel with Jupyter; with any other arguments, Jupyter starts the kernel."""
import sys


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    # lazy on purpose: installing needs jupyter_client only, running ipykernel only
    if argv[:1] == ["install"]:
        from .frontends.kernel.install import main as install
        return install(argv[1:])
    from ipykernel.kernelapp import IPKernelApp
    from .frontends.kernel.kernel import KlongKernel
    IPKernelApp.launch_instance(argv=argv, kernel_class=KlongKernel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
