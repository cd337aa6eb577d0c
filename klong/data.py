"""Klong data as a torch Dataset: KlongDataset(interp, expr) serves the samples of a Klong
list (one sample per element; the rows of an array) or of a dictionary of columns (sample i
is a dict of the i-th element of every column), for a torch DataLoader.

The data is read once, when the dataset is made: arrays become tensors sharing their
memory (on the torch backend they are tensors already), and the dataset keeps no
interpreter, so DataLoader workers can pickle it. Importing this module imports torch.
"""
import torch

from .runtime import context
from .errors import KlongError
from .runtime.values import Dict, Symbol, general, is_array


class KlongDataset(torch.utils.data.Dataset):
    """KlongDataset(interp, expr)

    interp  a KlongInterpreter (either backend)
    expr    Klong source whose value is a list of samples, or a dictionary of columns of
            one length (keys: symbols or strings; a sample is then {key: element})

    A sample is a tensor where the element is an array (a view of the data's rows), a
    Python number or string where it is one, a tuple where it is a general list.
    """

    def __init__(self, interp, expr):
        value = interp.run(expr)
        with context.entered(interp.context):
            if isinstance(value, Dict):
                self.columns = {_name(k): _column(v, k) for k, v in value.pairs()}
                lengths = {len(c) for c in self.columns.values()}
                if len(lengths) > 1:
                    raise KlongError("length", "KlongDataset: the columns differ in length: "
                                     + ", ".join(f"{k} {len(c)}" for k, c in self.columns.items()))
                self.length = lengths.pop() if lengths else 0
            else:
                self.columns = None
                self.samples = _column(value, None)
                self.length = len(self.samples)

    def __len__(self):
        return self.length

    def __getitem__(self, i):
        if not -self.length <= i < self.length:
            raise IndexError(f"KlongDataset index {i} out of range ({self.length} samples)")
        if self.columns is not None:
            return {k: c[i] for k, c in self.columns.items()}
        return self.samples[i]


def _name(key):
    if isinstance(key, (Symbol, str)):
        return str(key)
    raise KlongError("type", f"KlongDataset: a column name must be a symbol or a string, "
                             f"not {key!r}")


def _column(v, key):
    """The samples of a Klong list: a tensor (its rows are the samples) or a Python list."""
    v = general(v)
    if is_array(v):
        if v.ndim == 0:
            raise KlongError("type", "KlongDataset: a list of samples is needed, not a number")
        return torch.as_tensor(v)                   # numpy memory shared, tensors as they are
    if isinstance(v, list):
        return [_sample(e) for e in v]
    where = f"column {key}" if key is not None else "the data"
    raise KlongError("type", f"KlongDataset: {where} must be a list of samples or a "
                             f"dictionary of columns, not {type(v).__name__}")


def _sample(e):
    if is_array(e):
        return torch.as_tensor(e)
    if isinstance(e, list):
        return tuple(_sample(x) for x in e)
    if isinstance(e, Dict):
        return {_name(k): _sample(x) for k, x in e.pairs()}
    if isinstance(e, Symbol):
        return str(e)
    return e
