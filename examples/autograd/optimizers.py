"""Optimizers for Klong models, written in Python on top of klong.autograd.gradients_of.

From Klong:
    .pyf("optimizers";"AdamOptimizer")
    opt::AdamOptimizer([w b];:{["lr" 0.1]})
    .pyc(opt,"step";loss;:{})      :" one step on the nilad loss
"""
import numpy as np

from klong.autograd import gradients_of


def _options(options):
    return dict(options) if isinstance(options, dict) else {}


class SGDOptimizer:
    """Stochastic gradient descent with optional momentum."""

    def __init__(self, names, options=None, klong=None):
        opts = _options(options)
        self.klong = klong
        self.names = [str(n) for n in names]
        self.lr = float(opts.get("lr", 0.01))
        self.momentum = float(opts.get("momentum", 0.0))
        self.velocity = {n: 0.0 for n in self.names}

    def step(self, loss):
        grads = gradients_of(self.klong, loss, self.names)
        for name, g in zip(self.names, grads):
            v = self.momentum * self.velocity[name] + g
            self.velocity[name] = v
            self.klong[name] = self.klong[name] - self.lr * v
        return 0


class AdamOptimizer:
    """Adam: per-parameter step sizes from running moments of the gradient."""

    def __init__(self, names, options=None, klong=None):
        opts = _options(options)
        self.klong = klong
        self.names = [str(n) for n in names]
        self.lr = float(opts.get("lr", 0.001))
        self.beta1 = float(opts.get("beta1", 0.9))
        self.beta2 = float(opts.get("beta2", 0.999))
        self.eps = float(opts.get("eps", 1e-8))
        self.t = 0
        self.m = {n: 0.0 for n in self.names}
        self.v = {n: 0.0 for n in self.names}

    def step(self, loss):
        self.t += 1
        grads = gradients_of(self.klong, loss, self.names)
        for name, g in zip(self.names, grads):
            self.m[name] = self.beta1 * self.m[name] + (1 - self.beta1) * g
            self.v[name] = self.beta2 * self.v[name] + (1 - self.beta2) * g * g
            m_hat = self.m[name] / (1 - self.beta1 ** self.t)
            v_hat = self.v[name] / (1 - self.beta2 ** self.t)
            self.klong[name] = self.klong[name] - self.lr * m_hat / (v_hat ** 0.5 + self.eps)
        return 0
