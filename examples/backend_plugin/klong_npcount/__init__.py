"""klong-npcount: an example of a klong backend installed as its own package.

It is the numpy backend with one addition: it counts the arrays it makes from Python data and
list literals (`made`), which shows where a Klong program crosses from the host into the
backend. A backend for another array library implements every method of
klong.backends.Backend that raises NotImplementedError (see docs/backends.md); deriving from
NumpyBackend, as here, inherits them all.
"""
from klong.backends import NumpyBackend


class CountingNumpyBackend(NumpyBackend):
    name = "npcount"

    def __init__(self, device=None, dtype=None):
        super().__init__(device, dtype)
        self.made = 0       # per instance: each interpreter owns its backend

    def __repr__(self):
        return f"npcount backend (cpu, {self.made} arrays made)"

    def asarray(self, data, kind=None):
        self.made += 1
        return super().asarray(data, kind)

    def from_host(self, a):
        self.made += 1
        return super().from_host(a)
