"""The processes that compute together: what the distributed functions (sysfns/distributed.py)
ask of a backend.

A backend's group is one of its parts (`backend.group`, made when a distributed function first
asks). This class is the world of one, this process alone: the numpy backend, and the torch
backend outside torchrun. Under torchrun the torch backend joins a TorchGroup
(torch_distributed.py) that does the same over torch.distributed. Arrays going in and coming out are flat (1-D)
arrays of the backend; every rank of the group must make the same calls in the same order.
"""


class Group:
    rank = 0
    size = 1

    def exchange(self, header):
        """Every rank's `header` (a short list of integers), in rank order. The call is the
        same size on every rank, so it cannot be mismatched: the callers use it to agree on
        what comes next before any data moves."""
        return [list(header)]

    def exchange_objects(self, obj):
        """Every rank's `obj` (a small picklable Python value), in rank order."""
        return [obj]

    def all_sum(self, flat):
        """The elementwise sum of every rank's `flat` (same length and kind everywhere)."""
        return flat

    def all_gather(self, flat):
        """Every rank's `flat` (same length and kind everywhere), in rank order."""
        return [flat]

    def broadcast(self, flat, root):
        """The `flat` of rank `root`, on every rank (same length and kind everywhere)."""
        return flat


ALONE = Group()
