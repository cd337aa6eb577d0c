"""Replay through CUDA graphs: a captured function's record (backends/torch_capture.py),
when its operations can all stay on the GPU, is recorded once more as a CUDA graph, and a
replay is then one launch of that graph, not one per operation.

What changes against the ordinary replay (Recorder.write_graph writes the body):

- inputs are copied into the graph's own tensors (static inputs): tensors by copy_, unless
  the same tensor comes again unchanged (its version counter), reals by fill_;
- reals stay 0-d tensors on the device, and the guards on their values (finiteness, the
  branch a comparison took, a division's test for zero) are tests the graph computes; the
  replay reads them back with the reals, in one transfer, and gives up (None) when one
  failed, as the ordinary replay does before it writes anything;
- the output tensors are the graph's own, overwritten by the next launch: the replay hands
  out copies.

The first replay warms the body up on a side stream and captures it. Where capture fails
(an operation that reads a value back to the host, say), the function keeps the ordinary
replay (`failed` says why). On a machine without CUDA none of this runs.
"""
import os
import time

import torch

WARMUP = 2        # runs of the body before capture (autograd and the libraries set up)
TRIALS = 3        # launches timed beside the plain replay before the graph is kept
PLAIN = object()  # what GraphedReplay gives where there is no graph: use the plain replay


def enabled_by_default():
    return os.environ.get("KLONG_CUDA_GRAPHS", "1").strip().lower() not in ("0", "false", "no",
                                                                            "off")


class CudaGraph:
    """torch.cuda.CUDAGraph, as GraphedReplay uses it: capture(fn) once, then replay()."""
    timed = True      # whether a launch is timed against the plain replay (choose)

    def __init__(self, device):
        self.device = device
        self.graph = None

    def capture(self, fn):
        current = torch.cuda.current_stream(self.device)
        side = torch.cuda.Stream(self.device)
        side.wait_stream(current)
        with torch.cuda.stream(side):
            for _ in range(WARMUP):
                fn()
        current.wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = fn()
        self.graph = graph
        return out

    def replay(self):
        self.graph.replay()

    def synchronize(self):
        torch.cuda.synchronize(self.device)


# what an input of the body is: a tensor, a real (a Python float), or a value the guards fix
TENSOR, REAL, FIXED = "tensor", "real", "fixed"


class GraphedReplay:
    """GRAPH(inputs...) of a replay through a CUDA graph: None where a guard on data failed,
    PLAIN where there is no graph, else (the output reals as floats, copies of the output
    tensors)."""

    def __init__(self, body, kinds, device, graph_class=CudaGraph):
        self.body, self.kinds, self.device = body, kinds, device
        self.graph_class = graph_class
        self.graph = None
        self.failed = None          # why there is no graph
        self.launches = 0
        self.statics = self.last = self.versions = None
        self.read = self.tensors = None

    def __call__(self, *inputs):
        if self.failed is not None:
            return PLAIN
        if self.graph is None:
            try:
                self._capture(inputs)
            except Exception as e:  # anything capture meets: the plain replay stays
                self.failed = str(e).strip().split("\n")[0] or type(e).__name__
                self.graph = self.statics = self.last = self.read = self.tensors = None
                return PLAIN
        else:
            self._load(inputs)
        self.graph.replay()
        self.launches += 1
        read = self.read.tolist()           # the guards' verdict and the reals, at once
        if not read[0]:
            return None
        return read[1:], [t.clone() for t in self.tensors]

    def choose(self, launch, plain):
        """Keep the graph only where a launch (`launch()`, the graph's replay) takes less
        time than the plain replay (`plain()`, waited for): a small function's few
        operations cost less than the graph's fixed cost (the inputs copied in, the reals
        read back). Best of TRIALS each."""
        if self.failed is not None or not self.graph_class.timed:
            return
        best_launch = best_plain = float("inf")
        for _ in range(TRIALS):
            started = time.perf_counter()
            launch()
            middle = time.perf_counter()
            plain()
            self.graph.synchronize()
            best_launch = min(best_launch, middle - started)
            best_plain = min(best_plain, time.perf_counter() - middle)
        if best_launch > best_plain:
            self.failed = (f"a launch took {best_launch * 1e6:.0f} us, the plain replay "
                           f"{best_plain * 1e6:.0f} us")
            self.graph = self.statics = self.last = self.read = self.tensors = None

    def _capture(self, inputs):
        statics = []
        for kind, x in zip(self.kinds, inputs):
            if kind is TENSOR:
                statics.append(x.clone())
            elif kind is REAL:
                statics.append(torch.full((), x, dtype=torch.float64, device=self.device))
            else:
                statics.append(x)
        self.statics = statics
        self._remember(inputs)
        graph = self.graph_class(self.device)
        self.read, self.tensors = graph.capture(lambda: self._run(statics))
        self.graph = graph

    def _run(self, statics):
        reals, tensors, tests = self.body(*statics)
        verdict = torch.stack(tests).all() if tests else \
            torch.ones((), dtype=torch.bool, device=self.device)
        parts = [verdict.to(torch.float64)]
        for r in reals:
            parts.append(r.to(torch.float64) if isinstance(r, torch.Tensor) else
                         torch.full((), r, dtype=torch.float64, device=self.device))
        return torch.stack(parts), list(tensors)

    def _load(self, inputs):
        statics, last, versions = self.statics, self.last, self.versions
        for i, (kind, x) in enumerate(zip(self.kinds, inputs)):
            if kind is TENSOR:
                if x is not last[i] or x._version != versions[i]:
                    statics[i].copy_(x)
                    last[i], versions[i] = x, x._version
            elif kind is REAL:
                statics[i].fill_(x)

    def _remember(self, inputs):
        """The tensors the static inputs hold copies of, with their versions."""
        self.last = [x if kind is TENSOR else None for kind, x in zip(self.kinds, inputs)]
        self.versions = [x._version if kind is TENSOR else None
                         for kind, x in zip(self.kinds, inputs)]


def graph_scalar(value, dtype, device):
    """SCALAR of a graph's body: a real that is a 0-d tensor there is copied, so that what
    the body does to it (requires_grad_) leaves the static input alone."""
    if isinstance(value, torch.Tensor):
        return value.to(dtype).clone()
    return torch.full((), value, dtype=dtype, device=device)
