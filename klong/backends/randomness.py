"""The random numbers of one interpreter: its own generators, never the process's global
ones, so that a seed repeats the interpreter's draws whatever else runs beside it.

`.rn()` draws from a numpy Generator on both backends (the same numbers on numpy and torch
for one seed); draws of tensors (`.bkf` of torch's bernoulli, normal, poisson) use a
torch.Generator on the interpreter's device. Without a seed both start from fresh entropy.
"""
import numpy as np


class Randomness:
    def __init__(self, backend, seed=None):
        self.backend = backend
        self._torch = None
        self.reseed(seed)

    def reseed(self, seed):
        """Start both generators again from `seed` (None: fresh entropy)."""
        self.seed = seed
        self._numpy = None
        if self._torch is not None:
            self._seed_torch()

    def real(self):
        """A uniformly distributed real r, 0<=r<1 (.rn)."""
        if self._numpy is None:
            # made on the first draw: numpy.random takes a tenth of a script's start-up
            self._numpy = np.random.default_rng(self.seed)
        return float(self._numpy.random())

    def torch(self):
        """The interpreter's torch.Generator, on its device (made on first use, re-seeded in
        place by reseed, so that functions holding it follow)."""
        if self._torch is None:
            import torch
            self._torch = torch.Generator(device=self.backend.device)
            self._seed_torch()
        return self._torch

    def _seed_torch(self):
        if self.seed is None:
            self._torch.seed()
        else:
            self._torch.manual_seed(self.seed)
