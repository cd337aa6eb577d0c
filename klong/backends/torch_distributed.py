"""The torch backend across processes: under torchrun, each process joins the process group
that torchrun's environment describes, on its own GPU where every rank has one. It joins when
a distributed function first asks for the backend's group, not when the backend is made.

torchrun (python -m torch.distributed.run) sets RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR
and MASTER_PORT in each process it starts. Without them nothing here runs, and nothing is
initialised: the backend's group is the world of one.
"""
import atexit
import datetime
import os
import re

from ..errors import KlongError
from .group import ALONE, Group

LAUNCH_VARIABLES = ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT")
TIMEOUT_VARIABLE = "KLONG_DIST_TIMEOUT"
DEFAULT_TIMEOUT_S = 600


def launched():
    """True in a process that torchrun (or anything setting its variables) started."""
    return all(name in os.environ for name in LAUNCH_VARIABLES)


def rank_device():
    """The device of this rank when the backend is given none: cuda:LOCAL_RANK where this
    machine has a GPU for each of its ranks; None (the usual choice) otherwise."""
    if not launched():
        return None
    import torch
    local_rank = int(os.environ["LOCAL_RANK"])
    ranks_here = int(os.environ.get("LOCAL_WORLD_SIZE", local_rank + 1))
    if torch.cuda.is_available() and torch.cuda.device_count() >= ranks_here:
        return f"cuda:{local_rank}"
    return None


def timeout():
    """How long a collective waits for the other ranks before it fails."""
    text = os.environ.get(TIMEOUT_VARIABLE)
    if text is None:
        return datetime.timedelta(seconds=DEFAULT_TIMEOUT_S)
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0
    if not 0 < seconds < 1e9:
        raise ValueError(f"{TIMEOUT_VARIABLE} must be a positive number of seconds, not {text!r}")
    return datetime.timedelta(seconds=seconds)


def join(device):
    """The group of the backend on `device`: under torchrun the default process group,
    initialised by the first backend that asks (NCCL when this rank is on its own GPU, else
    Gloo); the world of one otherwise."""
    if not launched():
        return ALONE
    import torch
    import torch.distributed as dist
    if not dist.is_available():
        raise ValueError("started by torchrun, but this PyTorch has no torch.distributed")
    if not dist.is_initialized():
        own_gpu = rank_device()
        nccl = own_gpu is not None and device == torch.device(own_gpu) and dist.is_nccl_available()
        options = {"backend": "nccl" if nccl else "gloo", "timeout": timeout()}
        if nccl:
            torch.cuda.set_device(device)
            options["device_id"] = device
        try:
            dist.init_process_group(**options)
        except Exception as e:
            raise ValueError(f"cannot join the process group ({options['backend']}): "
                             f"{_short(e)}") from None
        atexit.register(_leave)
    return TorchGroup(device)


def _leave():
    import torch.distributed as dist
    if dist.is_initialized():
        dist.destroy_process_group()


def _short(e):
    """The message of a torch.distributed exception, short: its first sentence, without the
    source location that Gloo puts in front."""
    text = re.sub(r"^\[[^\]]*\]\s*", "", str(e).strip())
    text = text.splitlines()[0] if text else type(e).__name__
    return text.split(". ")[0]


class TorchGroup(Group):
    """The default torch.distributed process group. Data travels on the group's own device
    (the GPU with NCCL, the CPU with Gloo) and comes back on the backend's. Collectives are
    not differentiable: what comes back carries no gradient."""

    def __init__(self, device):
        import torch
        import torch.distributed as dist
        self.torch, self.dist = torch, dist
        self.device = device
        self.rank = dist.get_rank()
        self.size = dist.get_world_size()
        if "nccl" in str(dist.get_backend()):
            self.wire = torch.device("cuda", torch.cuda.current_device())
        else:
            self.wire = torch.device("cpu")

    def _run(self, action):
        """Run a collective; a failure (a timeout, a rank that has gone) is a Klong error."""
        if not self.dist.is_initialized():
            raise KlongError("distributed", "the process group is gone")
        try:
            return action()
        except KlongError:
            raise
        except Exception as e:
            raise KlongError("distributed", f"collective failed: {_short(e)}") from None

    def _outbound(self, flat):
        # a copy: torch's collectives write into their argument
        return flat.detach().to(self.wire, copy=True)

    def exchange(self, header):
        torch = self.torch
        mine = torch.tensor(header, dtype=torch.int64, device=self.wire)
        rows = [torch.empty_like(mine) for _ in range(self.size)]
        self._run(lambda: self.dist.all_gather(rows, mine))
        return [row.tolist() for row in rows]

    def exchange_objects(self, obj):
        out = [None] * self.size
        self._run(lambda: self.dist.all_gather_object(out, obj))
        return out

    def all_sum(self, flat):
        t = self._outbound(flat)
        self._run(lambda: self.dist.all_reduce(t))
        return t.to(self.device)

    def all_gather(self, flat):
        t = self._outbound(flat)
        rows = [self.torch.empty_like(t) for _ in range(self.size)]
        self._run(lambda: self.dist.all_gather(rows, t))
        return [row.to(self.device) for row in rows]

    def broadcast(self, flat, root):
        t = self._outbound(flat)
        self._run(lambda: self.dist.broadcast(t, src=root))
        return t.to(self.device)
