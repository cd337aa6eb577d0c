"""Optimizers for Klong models, written in Python on top of klong.runtime.autograd.gradients_of.

Copy this file beside your program. From Klong (the name `klong` is the running interpreter):

    .pyf("optimizers";"AdamOptimizer")
    opt::AdamOptimizer(klong;["w" "b"];:{["lr" 0.1]})
    {opt(loss)}'!500              :" each call opt(loss) takes one step on the nilad loss

The older form works too: opt::AdamOptimizer([w b];:{["lr" 0.1]}) and
.pyc(opt,"step";loss;:{}).

An optimizer takes one step in two parts: `gradients(loss)` computes the gradients of the
loss with respect to the parameters (override it to change how, for example to average them
across processes), and `update(name, value, grad)` gives a parameter's new value.
"""
from klong import KlongInterpreter
from klong.runtime.autograd import gradients_of
from klong.sysfns.distributed import average_gradients


class Optimizer:
    """What every optimizer shares: the interpreter, the names of the parameters (global
    Klong variables), the options, and one step."""
    defaults = {}

    def __init__(self, *args, klong=None):
        args = list(args)
        if args and isinstance(args[0], KlongInterpreter):      # Optimizer(klong;names;options)
            klong = args.pop(0)
        if not 1 <= len(args) <= 2:
            raise TypeError(f"{type(self).__name__} takes the parameter names and, optionally, "
                            "a dictionary of options")
        names, options = args[0], args[1] if len(args) == 2 else None
        self.klong = klong
        self.names = [str(n) for n in names]
        self.options = self._options(options)

    def _options(self, options):
        given = dict(options) if isinstance(options, dict) else {}
        unknown = sorted(set(given) - set(self.defaults))
        if unknown:
            raise ValueError(f"unknown option {', '.join(map(str, unknown))} for "
                             f"{type(self).__name__} (known: {', '.join(self.defaults)})")
        return {key: float(given.get(key, default)) for key, default in self.defaults.items()}

    def gradients(self, loss):
        """The gradients of the nilad `loss` with respect to the parameters, in their order."""
        return gradients_of(self.klong, loss, self.names)

    def update(self, name, value, grad):
        raise NotImplementedError

    def step(self, loss):
        """One optimization step; returns 0."""
        for name, grad in zip(self.names, self.gradients(loss)):
            self.klong[name] = self.update(name, self.klong[name], grad)
        return 0

    def __call__(self, loss):
        return self.step(loss)


class SGDOptimizer(Optimizer):
    """Stochastic gradient descent with optional momentum."""
    defaults = {"lr": 0.01, "momentum": 0.0}

    def __init__(self, *args, klong=None):
        super().__init__(*args, klong=klong)
        self.lr, self.momentum = self.options["lr"], self.options["momentum"]
        self.velocity = {n: 0.0 for n in self.names}

    def update(self, name, value, grad):
        self.velocity[name] = self.momentum * self.velocity[name] + grad
        return value - self.lr * self.velocity[name]


class AdamOptimizer(Optimizer):
    """Adam: per-parameter step sizes from running moments of the gradient."""
    defaults = {"lr": 0.001, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8}

    def __init__(self, *args, klong=None):
        super().__init__(*args, klong=klong)
        self.lr = self.options["lr"]
        self.beta1, self.beta2 = self.options["beta1"], self.options["beta2"]
        self.eps = self.options["eps"]
        self.t = 0
        self.m = {n: 0.0 for n in self.names}
        self.v = {n: 0.0 for n in self.names}

    def step(self, loss):
        self.t += 1
        return super().step(loss)

    def update(self, name, value, grad):
        self.m[name] = self.beta1 * self.m[name] + (1 - self.beta1) * grad
        self.v[name] = self.beta2 * self.v[name] + (1 - self.beta2) * grad * grad
        m_hat = self.m[name] / (1 - self.beta1 ** self.t)
        v_hat = self.v[name] / (1 - self.beta2 ** self.t)
        return value - self.lr * m_hat / (v_hat ** 0.5 + self.eps)


class AveragedAcrossRanks:
    """Mixed into an optimizer, for data-parallel training under torchrun: the gradients of
    each rank's loss are averaged over the ranks before every update, so that all ranks take
    the same step (docs/distributed.md). Alone, the average is the gradient itself."""

    def gradients(self, loss):
        return average_gradients(self.klong, super().gradients(loss))


class DistributedSGDOptimizer(AveragedAcrossRanks, SGDOptimizer):
    """SGDOptimizer with gradients averaged over the ranks."""


class DistributedAdamOptimizer(AveragedAcrossRanks, AdamOptimizer):
    """AdamOptimizer with gradients averaged over the ranks."""
