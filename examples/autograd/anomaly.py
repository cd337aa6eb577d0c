"""Finding where a gradient turns into NaN: with .anomaly(1), the error names the operation
and the Klong function in which it ran.

    python examples/autograd/anomaly.py        (needs the torch backend)
"""
from klong import KlongError, KlongInterpreter

k = KlongInterpreter(backend="torch")
k("""
root::{x^0.5}
spread::{+/root(x)*[0.0 1.0 2.0]}
""")
for switch in (0, 1):
    k(f".anomaly({switch})")
    try:
        k("spread:>[0.0 1.0 4.0]")
    except KlongError as e:
        print(f".anomaly({switch}): {e}")

# the cure: keep the square root away from 0
k("root::{(x+1e-12)^0.5}")
print("with an epsilon:", k("spread:>[0.0 1.0 4.0]").tolist())
