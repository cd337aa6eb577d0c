"""Training steps written as a Klong user writes them, shared by bench_independent.py (timed
beside the same step in eager torch, issue 33) and tests/test_training_steps.py (capture on
and off give the same bits).

Each model: Klong definitions (a `loss` nilad and a `step` nilad that takes the gradient with
`:>` and moves every parameter by `lr` times its part), the names of its parameters, and its
data and starting parameters (numpy arrays, made from a seeded generator, given to Klong as
globals together with `lr`).
"""
import numpy as np


class Model:
    def __init__(self, title, define, params, data, lr):
        self.title, self.define, self.params = title, define, params
        self.data, self.lr = data, lr      # data(): {global name: numpy array or float}


def _logreg_data():
    rng = np.random.default_rng(33)
    x = rng.normal(size=(200, 5))
    y = (x @ np.array([1.0, -2.0, 0.5, 0.0, 1.5]) + 0.3 * rng.normal(size=200) > 0) * 1.0
    return {"X": x, "Y": y, "W": np.zeros(5), "B": 0.0}


def _tanh_net_data():
    rng = np.random.default_rng(34)
    x = rng.random((128, 6)) - 0.5
    y = np.stack([np.sin(3 * x[:, 0]), x[:, 1] * x[:, 2], np.abs(x[:, 3])], 1)
    return {"X": x, "Y": y, "W1": 0.3 * rng.normal(size=(6, 20)), "B1": np.zeros(20),
            "W2": 0.3 * rng.normal(size=(20, 3)), "B2": np.zeros(3)}


def _ridge_data():
    rng = np.random.default_rng(35)
    x = rng.normal(size=(300, 10))
    y = x @ np.linspace(-1, 1, 10) + 2.0 + 0.1 * rng.normal(size=300)
    return {"X": x, "Y": y, "W": np.zeros(10), "B": 0.0, "L": 0.01}


def _autoencoder_data():
    rng = np.random.default_rng(36)
    codes = rng.normal(size=(64, 3))
    x = np.tanh(codes @ rng.normal(size=(3, 8)) * 0.5)
    return {"X": x, "W1": 0.2 * rng.normal(size=(8, 3)), "B1": np.zeros(3),
            "W2": 0.2 * rng.normal(size=(3, 8)), "B2": np.zeros(8)}


MODELS = {
    "logreg": Model(
        "logistic regression, 200 samples of 5 features",
        """.bkf(["exp" "log"])
loss::{[p];p::%1+exp(-B+{+/x*W}'X);-(+/(Y*log(p))+(1-Y)*log(1-p))%#Y}
step::{[g];g::loss:>[W B];W::W-lr*g@0;B::B-lr*g@1}""",
        ["W", "B"], _logreg_data, 0.5),
    "tanh_net": Model(
        "two-layer tanh net 6-20-3, 128 samples",
        """.bkf("tanh")
loss::{[h o];h::{tanh(B1++/x*W1)}'X;o::{B2++/x*W2}'h;(+/+/(o-Y)^2)%#X}
step::{[g];g::loss:>[W1 B1 W2 B2];W1::W1-lr*g@0;B1::B1-lr*g@1;W2::W2-lr*g@2;B2::B2-lr*g@3}""",
        ["W1", "B1", "W2", "B2"], _tanh_net_data, 0.1),
    "ridge": Model(
        "ridge regression (L2 term), 300 samples of 10 features",
        """loss::{[r];r::(B+{+/x*W}'X)-Y;((+/r*r)%#Y)+L*+/W*W}
step::{[g];g::loss:>[W B];W::W-lr*g@0;B::B-lr*g@1}""",
        ["W", "B"], _ridge_data, 0.05),
    "autoencoder": Model(
        "autoencoder 8-3-8 (tanh code), 64 samples",
        """.bkf("tanh")
loss::{[h r];h::{tanh(B1++/x*W1)}'X;r::{B2++/x*W2}'h;(+/+/(r-X)^2)%#X}
step::{[g];g::loss:>[W1 B1 W2 B2];W1::W1-lr*g@0;B1::B1-lr*g@1;W2::W2-lr*g@2;B2::B2-lr*g@3}""",
        ["W1", "B1", "W2", "B2"], _autoencoder_data, 0.2),
}


def load(k, model):
    """Give interpreter k the model's data, starting parameters and lr, then its definitions."""
    for name, value in model.data().items():
        k[name] = value
    k["lr"] = model.lr
    k(model.define)
