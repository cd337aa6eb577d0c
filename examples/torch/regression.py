"""A regression trained the torch way, its model a Klong function.

The data is made in Klong and served by a DataLoader (batches of 32, shuffled); the model is
a KlongLayer, the polynomial w0 + w1 x + w2 x^2 written in Klong; Adam, StepLR and
nn.MSELoss do the rest, as for any torch module.

    python examples/torch/regression.py
"""
import torch
from torch import nn
from torch.utils.data import DataLoader

from klong import KlongInterpreter
from klong.data import KlongDataset
from klong.nn import KlongLayer


def main(epochs=60):
    torch.manual_seed(0)
    k = KlongInterpreter(backend="torch", device="cpu")
    # 256 samples of y = 0.5 - x + 2x^2 on [-1, 1]
    k("X::(2*(!256)%255)-1; Y::(0.5-X)+2*X^2")
    k("poly::{+/y*x^!3}")                          # x one sample, y the three weights

    data = KlongDataset(k, 'd:::{}; d,"x",,X; d,"y",,Y; d')
    loader = DataLoader(data, batch_size=32, shuffle=True)
    model = nn.Sequential(KlongLayer(k, "poly", 3))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
    schedule = torch.optim.lr_scheduler.StepLR(optimizer, step_size=20, gamma=0.5)
    loss_fn = nn.MSELoss()

    losses = []
    for _ in range(epochs):
        total = 0.0
        for batch in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(batch["x"]), batch["y"])
            loss.backward()
            optimizer.step()
            total += loss.item() * len(batch["x"])
        schedule.step()
        losses.append(total / len(data))
    weights = model[0].weights[0].detach().tolist()
    print(f"first epoch loss {losses[0]:.6f}")
    print(f"last epoch loss  {losses[-1]:.2e}")
    print("weights " + " ".join(f"{w:.3f}" for w in weights))
    print(f"loss fell 1000-fold: {losses[-1] < losses[0] / 1000}")
    return losses, weights


if __name__ == "__main__":
    main()
