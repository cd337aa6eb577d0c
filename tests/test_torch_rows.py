"""The row idioms made cheaper on torch (issue 32): scans along the rows where they lie
(Backend.accumulate_each_row), joins and rotations as the rows' parts joined along them
(Backend.concat_each_row), reals paired with an integer that converts exactly (`(+/x)%#x`,
`(+/x)>0`), a real power by one number (Backend._pow_by_number), the zero test of row sums.
Each program gives, batched, exactly the loop's outcome (KLONG_BATCH=0: printed text, element
type all the way down, error), on numpy and torch, generated code and closures, and the same
printed text on both backends; edge cases: NaN and infinite rows, -0.0, one column, one
row, zero rows, float32 interpreters (the loop: the batch is for float64 only)."""
import pytest

from klong import KlongError, KlongInterpreter
from klong.backends import list_backends
from klong.runtime.display import write

from differential.harness import outcome
from test_batching import watch_batched

BACKENDS = [b for b in ("numpy", "torch") if b in list_backends()]
MODES = [(b, c) for b in BACKENDS for c in (True, False)]

SETUP = """
m::[[1.5 2.25 -3.0 0.5] [0.1 0.2 0.3 0.7] [-1.0 -2.0 -3.5 4.0]]
i::[[3 1 2 5] [0 -4 7 1] [9 9 -2 3]]
inf::1.0e308*10
nan::inf-inf
e::[[1.0 2.0 3.0] [1.0 0.0 3.0] [4.0 5.0 6.0] [1.0e308 1.0e308 -1.0e308]],[[-0.0 -0.0 -0.0]]
f::[[1.0 2.0 3.0] [4.0 5.0 6.0]],,(inf,(-inf),nan)
col::[[1.5] [-2.0] [0.0]]
row::[[0.25 -1.5 3.0 2.0]]
big::[[4611686018427387904 4611686018427387904] [1 2]]
p::[[0.5 1.0 2.0] [0.0 4.0 9.0] [1.0e-200 1.0e-200 1.0]]
t3::[2 3 4]:^((!24)-11)%7.0
z::[[-0.0 -0.0 1.0] [0.0 -0.0 2.0] [1.0 -0.0 0.0] [-0.0 0.5 -0.5]]
ties::[[0.5 1.0 1.0 0.25] [2.0 -0.0 2.0 0.0] [0.0 -0.0 0.0 1.0] [3.0 3.0 3.0 3.0]]
"""

# (program, batched): True where the batched evaluation gives the result, False where it
# declines (the loop runs), None where either may happen
PROGRAMS = [
    # scans along each row
    ("+\\'m", True), ("*\\'m", True), ("|\\'m", True), ("&\\'m", True), ("+\\'i", True),
    ("*\\'i", True), ("|\\'i", True), ("&\\'i", True), ("+\\'e", True), ("*\\'e", True),
    ("+\\'f", True), ("*\\'f", True), ("|\\'f", True), ("&\\'f", True), ("+\\'col", True),
    ("+\\'row", True), ("*\\'big", False), ("+\\'big", False), ("{+\\x}'m", True),
    ("{+/+\\x}'m", True), ("{(+\\x)-x}'i", True), ("{|\\x}'e", False),      # -0.0
    # joins and rotations
    ("{x,0.0}'m", True), ("{0.0,x}'m", True), ("{x,x}'i", True), ("{x,0}'i", True),
    ("{x,0}'m", False), ("{x,0.0}'f", True), ("{x,0.0}'col", True), ("{(+/x),x}'m", True),
    ("{(*x),*|x}'m", True), ("{1:+x}'m", True), ("{-1:+x}'i", True), ("{5:+x}'m", True),
    ("{0:+x}'m", True), ("{4:+x}'i", True), ("{-7:+x}'f", True), ("{1:+x}'col", True),
    ("{1:+x}'row", True), ("{2:+x,x}'i", True),
    # reals beside integers that convert exactly
    ("{(+/x)%#x}'m", True), ("{(+/x)%#x}'f", True), ("{(+/x)%3}'e", True),
    ("{(+/x)%0}'m", False), ("{x-(+/x)%#x}'m", True), ("{x%+/x}'m", True),
    ("{(+/x)>0}'m", True), ("{(+/x)<1}'f", True), ("{(*x)=1}'e", True), ("{x=1}'e", None),
    ("{(+/x)+1}'m", True), ("{x*2}'f", None), ("{3-x}'m", None),
    ("{(+/x)>9007199254740993}'m", None), ("{x+9007199254740993}'m", None),
    ("{(+/x)%#x}'i", True), ("{:[(+/x)>0;1;-1]}'m", True), ("{:[(+/x)>0;1;-1]}'f", True),
    # a real power by one number
    ("{(+/x*x)^0.5}'m", True), ("{(+/x*x)^0.5}'e", None), ("{(+/x)^0.5}'m", None),
    ("{(+/x)^1.5}'p", True), ("{(+/x)^-0.5}'p", True), ("{(*x)^-1.0}'p", None),
    ("{(*x)^2.0}'m", True), ("{(*x)^-3.0}'m", True), ("{(*x)^0.5}'f", None),
    ("{(*x)^1.0e10}'p", None), ("{(*x)^0.0}'p", True), ("{(+/x)^nan}'p", None),
    ("{(+/x)^inf}'p", None), ("{(*x)^400.0}'p", None),
    # sums with a zero, and the idioms of the benchmark
    ("+/'e", True), ("*/'e", True), ("+/'f", True), ("{+/x*x}'m", True), ("{+/1_x}'m", True),
    ("#'m", True), ("{x|0.0}'m", None), ("{x-|/x}'m", True), ("{|/x*x}'m", True),
    ("m{+/(x-y)^2}'m", True), ("+/'col", True), ("*/'row", True),
    # the largest and smallest of each row (of rows of rows too)
    ("|/'m", True), ("&/'m", True), ("|/'f", True), ("&/'f", True), ("|/'t3", True),
    ("&/'t3", True), ("|/'i", True), ("{(|/x)-&/x}'f", True), ("|/'e", False),
    # a -0.0 matters only where a row's largest (smallest) is a zero
    ("|/'[[-0.0 1.0] [2.0 -0.0]]", True), ("&/'[[-0.0 1.0] [2.0 -0.0]]", False),
    ("|/'[[-0.0 0.0] [1.0 2.0]]", False), ("&/'[[0.0 0.0] [1.0 2.0]]", True),
    ("{x-|/x}'[[-0.0 -1.0] [-2.0 -0.0]]", False), ("{x-&/x}'[[-0.0 1.0] [2.0 -0.0]]", False),
    ("{x-|/x}'[[-0.0 1.0] [2.0 -0.0]]", True), ("|/'[[-0.0 nan] [1.0 -0.0]]", None),
    # Max and Min of reals by fmax and fmin (an element-wise body: the whole-array form),
    # against NaN, infinities and -0.0
    ("{(x|-0.25)&0.25}'m", None), ("{(x|-0.25)&0.25}'f", None), ("{(x|-0.25)&0.25}'e", None),
    ("{x|0.0}'e", None), ("{x&-0.0}'e", None), ("{x|-0.0}'f", None), ("{x|nan}'m", None),
    ("{x&inf}'f", None), ("{x|-x}'e", None), ("{+/x|-x}'f", True), ("{+/x|-x}'e", None),
    ("(m|-0.25)&0.25", None), ("(f&0.5)|-0.5", None), ("e|0.0", None), ("f|f", None),
    ("{(x|1)&4}'i", None),
    # one number per row beside each row's array (either side), of one kind
    ("{x-(+/x)%#x}'f", True), ("{x-(+/x)%#x}'e", True), ("{((+/x)%#x)-x}'m", True),
    ("{x*+/x}'e", True), ("{(+/x)-x}'i", True), ("{x*|/x}'i", True), ("{x-*x}'m", True),
    ("{x-*x}'f", True), ("{(*x)+x}'e", True), ("{x-|/|/x}'t3", True), ("{x-+/x}'t3", False),
    ("{x+|/x}'big", None), ("{(|/x)*x}'big", None), ("{x=*x}'i", True), ("{(*x)<x}'m", True),
    ("{x-(+/x)%#x}'col", True), ("{x-(+/x)%#x}'row", True),
    ("{x%+/x}'f", True), ("{(+/x)%x}'m", True), ("{x%*x}'m", True), ("{(x*x)%+/x}'p", True),
    ("{(x%+/x)-x%|/x}'m", True), ("{x%(+/x)-+/x}'m", False),
    ("{x%1+|/|/x*x}'t3", True),
    # a conditional choosing between two plain numbers of one kind, or not
    ("{:[(+/x)>0;1;-1]}'i", True), ("{:[(+/x)>0;1.5;-0.0]}'e", True),
    ("{:[(*x)>0;nan;inf]}'m", True), ("{:[(+/x)>0;1;-1.0]}'m", None),
    ("{:[(+/x)>0;9223372036854775807;-9223372036854775808]}'m", True),
    ("{:[(+/x)>0;9223372036854775808;0]}'m", None), ("{:[(*x)>0;x;0.5*x]}'m", True),
    ("{:[(+/x)>0;1:|(+/x)>1;2;3]}'m", None),
    # running sums of rows that start with a zero, or hold none there (the zero test of the
    # first elements on the tensor's memory)
    ("+\\'z", True), ("{+\\x}'z", True), ("{(+\\x)%2.0}'z", True), ("+\\'ties", True),
    # the first match of a number in each row (the first near element of every row), ties
    # and zeros of both signs among them
    ("{*x?*x}'m", True), ("{*x?x@2}'ties", True), ("{*x?|/x}'ties", True),
    ("{*x?&/x}'ties", None), ("{*x?x@1}'z", None), ("{*x?*x}'f", None), ("{*x?2.0}'ties", None),
    ("{*x?1.0}'ties", None),
]


def run(mode, batch, program, dtype=None):
    backend, codegen = mode
    k = KlongInterpreter(backend=backend, codegen=codegen, batch=batch, dtype=dtype)
    k(SETUP)
    return outcome(k, program)


@pytest.fixture(params=MODES, ids=[f"{b}-{'codegen' if c else 'closures'}" for b, c in MODES])
def mode(request):
    return request.param


@pytest.mark.parametrize("program, batched", PROGRAMS, ids=[p for p, _ in PROGRAMS])
def test_batched_rows_give_the_loops_outcome(mode, program, batched, monkeypatch):
    looped = run(mode, False, program)
    gave = []
    watch_batched(monkeypatch, lambda r, n: gave.append(1))
    assert run(mode, True, program) == looped
    if batched is True:
        assert gave, "the batched evaluation gave no result"
    elif batched is False:
        assert not gave, "the batched evaluation should have declined"


@pytest.mark.skipif(len(BACKENDS) < 2, reason="needs numpy and torch")
@pytest.mark.parametrize("program", [p for p, _ in PROGRAMS if "big" not in p])
def test_torch_prints_what_numpy_prints(program):
    # (not `big`: a list of a big-integer row and an int64 row prints its tensor on torch,
    # batched or not)
    assert run(("torch", True), True, program)[:2] == run(("numpy", True), True, program)[:2]


@pytest.mark.parametrize("program", ["+\\'m", "{x,0.0}'m", "{1:+x}'m", "{(+/x)%#x}'m",
                                     "{(+/x*x)^0.5}'m", "{:[(+/x)>0;1;-1]}'m", "+\\'f"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_narrow_interpreter_gives_the_loops_outcome(backend, program):
    """float32 (where the backend has it): the loop runs, batched or not."""
    mode = (backend, True)
    try:
        narrow = run(mode, True, program, dtype="float32")
    except KlongError:
        pytest.skip(f"{backend} has no float32 interpreter")
    assert narrow == run(mode, False, program, dtype="float32")


@pytest.mark.parametrize("backend", BACKENDS)
def test_zero_rows_and_empty_rows_run_the_loop(backend, monkeypatch):
    gave = []
    watch_batched(monkeypatch, lambda r, n: gave.append(1))
    for program in ("+\\'0#,[1.0 2.0]", "{x,0.0}'0#,[1.0 2.0]", "{1:+x}'0#,[1.0 2.0]",
                    "{(+/x)%#x}'0#,[1.0 2.0]", "+\\'[[] []]", "{x,0.0}'[[] []]"):
        for codegen in (True, False):
            looped = run((backend, codegen), False, program)
            assert run((backend, codegen), True, program) == looped, program
    assert not gave


# ---------------------------------------------------------------- the backends' steps

torch = pytest.importorskip("torch") if "torch" in BACKENDS else None


def _loop_scan(row, op):
    acc, out = row[0], [row[0]]
    for v in row[1:]:
        acc = acc + v if op == "+" else acc * v
        out.append(acc)
    return out


@pytest.mark.skipif(torch is None, reason="needs torch")
@pytest.mark.parametrize("op", ["+", "*"])
def test_torch_row_scans_add_left_to_right(op):
    """Torch's CPU scan of float64 along the rows gives every row's running fold as the
    loop makes it, one IEEE operation a step, from the first element: bit for bit, on
    reals of widely different magnitudes (where any other order rounds otherwise)."""
    import numpy as np
    from klong.backends import get_backend
    rng = np.random.default_rng(32)
    scale = 10.0 ** rng.integers(-12, 12, (300, 40)) if op == "+" else 1.0
    a = (rng.random((300, 40)) - 0.5) * scale + (1.0 if op == "*" else 0.0)
    backend = get_backend("torch", "cpu", "float64")
    got = backend.accumulate_each_row(op, torch.as_tensor(a)).numpy()
    want = np.array([_loop_scan(list(r), op) for r in a])
    assert got.tobytes() == want.tobytes()
    sums = backend.fold_each_row(op, torch.as_tensor(a[:, :16])).numpy()
    assert sums.tobytes() == np.array([_loop_scan(list(r), op)[-1] for r in a[:, :16]]).tobytes()


@pytest.mark.skipif(torch is None, reason="needs torch")
def test_torch_row_joins_and_scans_own_their_memory():
    k = KlongInterpreter(backend="torch", batch=True)
    k(SETUP)
    before = write(k("m")), write(k("i"))
    for program in ("+\\'m", "|\\'m", "{x,0.0}'m", "{1:+x}'m", "{x,x}'i"):
        v = k(program)
        assert v._base is None and v.is_contiguous(), program
        assert not k.backend.may_share(v, k("m")) and not k.backend.may_share(v, k("i"))
    # (a rotation by 0 is the rows themselves, which a result may show: values never change)
    k("{0:+x}'m")
    assert (write(k("m")), write(k("i"))) == before


@pytest.mark.skipif(torch is None, reason="needs torch")
def test_a_result_laid_out_in_order_but_a_view_is_given_memory_of_its_own():
    """A copy back from a GPU keeps a transposed layout, so the row scan's result
    there is an in-order view of a column-major tensor: it must still be owned."""
    from klong.backends.torch_backend import _owned
    view = torch.arange(12.0).reshape(3, 4).T.contiguous().T.T    # in order, a view
    assert view.is_contiguous() and view._base is not None
    owned = _owned(view)
    assert owned._base is None and owned.is_contiguous() and torch.equal(owned, view)
    plain = torch.zeros(2, 3)
    assert _owned(plain) is plain


@pytest.mark.skipif(torch is None, reason="needs torch")
def test_gradients_flow_through_the_rows_idioms():
    """Differentiated rows: the same gradient batched or not."""
    ks = [KlongInterpreter(backend="torch", batch=batch) for batch in (True, False)]
    for k in ks:
        k("w::[1.0 2.0 3.0];m::[[1.0 2.0 3.0] [4.0 5.0 6.0]]")
    for program in ("{+/+/+\\'x}:>m", "{+/+/{x,0.0}'x*x}:>m", "{+/+/{1:+x}'x*x}:>m",
                    "{+/{(+/x)%#x}'x*x}:>m", "{+/{(+/x*x)^0.5}'x}:>m", "{+/+/{x%+/x}'x}:>m",
                    "{+/{(+/x*w)%3}'m*x}:>2.0", "{+/+/{x-(+/x)%#x}'m*x}:>1.5"):
        assert write(ks[0](program)) == write(ks[1](program)), program


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_running_sum_that_overflows_warns_of_nothing(backend):
    """+\\ of reals reaching inf or NaN, in the loop and batched: inf and NaN, silently."""
    import warnings
    k = KlongInterpreter(backend=backend)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert write(k("+\\[1.0e308 1.0e308 -1.0e308]")) == "[1.0e+308 inf inf]"
        assert write(k("*\\[1.0e308 10.0 0.0]")) == "[1.0e+308 inf nan]"
        assert write(k("+\\'[[1.0e308 1.0e308] [1.0 2.0]]")) == "[[1.0e+308 inf] [1.0 3.0]]"


@pytest.mark.skipif(torch is None, reason="needs torch")
def test_torch_selects_between_two_python_numbers_in_their_kind():
    """Backend.select of two Python numbers: integers as int64, reals as the interpreter's
    reals (float64; not torch's default dtype), each where the condition says."""
    from klong.backends import get_backend
    backend = get_backend("torch", "cpu", "float64")
    mask = torch.tensor([True, False, True])
    ints = backend.select(mask, 1, -1)
    assert ints.dtype == torch.int64 and ints.tolist() == [1, -1, 1]
    largest = backend.select(mask, 2 ** 63 - 1, -2 ** 63)
    assert largest.tolist() == [2 ** 63 - 1, -2 ** 63, 2 ** 63 - 1]
    reals = backend.select(mask, 0.1, -0.0)
    assert reals.dtype == torch.float64 and reals.tolist() == [0.1, -0.0, 0.1]
    assert str(reals[1].item()) == "-0.0"


@pytest.mark.parametrize("program", ["{x-*x}'e", "{x*+/x}'e2", "{((+/x)%#x)-x}'e",
                                     "{(x|-0.25)&0.25}'e", "{x|0.0}'e", "{x&-0.0}'e",
                                     "{x|-x}'e", "{:[(+/x)>0;1.5;-0.0]}'e", "+/'e", "*/'e",
                                     "{x-|/x}'[[-0.0 1.0] [2.0 -0.0]]",
                                     "&/'[[0.0 0.0] [1.0 -0.0]]"])
def test_signed_zeros_batched_are_the_loops_bits(mode, program):
    """Where the printed text cannot tell 0.0 from -0.0: the batched result's bits are the
    loop's, element by element."""
    import numpy as np
    from klong.backends import to_host
    backend, codegen = mode
    got = []
    for batch in (True, False):
        k = KlongInterpreter(backend=backend, codegen=codegen, batch=batch)
        k(SETUP)
        k("e2::[[1.0 2.0 3.0] [-0.0 -0.0 -0.0]]")
        got.append(np.asarray(to_host(k(program))))
    assert got[0].dtype == got[1].dtype and got[0].tobytes() == got[1].tobytes()


@pytest.mark.skipif(torch is None, reason="needs torch")
def test_torch_finds_a_zero_divisor_on_the_host_or_in_torch():
    """Backend.any_zero: numpy's look at a CPU tensor's memory, torch's own test for a
    tensor being differentiated; -0.0 is a zero."""
    from klong.backends import get_backend
    backend = get_backend("torch", "cpu", "float64")
    assert backend.any_zero(torch.tensor([1.0, -0.0, 2.0])) is True
    assert backend.any_zero(torch.tensor([[1.0, 0.5], [2.0, -3.0]])) is False
    assert backend.any_zero(torch.tensor([4, 0, 2])) is True
    tracked = torch.tensor([1.0, 0.0], requires_grad=True)
    assert backend.any_zero(tracked) is True and backend.any_zero(tracked + 1) is False


@pytest.mark.skipif(torch is None, reason="needs torch")
def test_torch_column_sums_of_zeros_keep_the_loops_signs():
    """TorchBackend.fold_columns (numpy's reduction on the same memory, its zeros found there):
    a column of nothing but -0.0 sums to -0.0 as the loop's fold from its first element; one
    whose elements cancel to 0.0, and one of 0.0 beside -0.0, to 0.0; NaN and the rest as
    numpy's fold of the same columns, bit for bit."""
    import numpy as np
    from klong.backends import get_backend
    backend = get_backend("torch", "cpu", "float64")
    host = get_backend("numpy", None, "float64")
    nan = float("nan")
    c = np.array([[-0.0, 0.5, 0.0, -0.0, nan, 1.0],
                  [-0.0, -0.5, -0.0, 0.0, 1.0, 2.0],
                  [-0.0, 0.0, -0.0, -0.0, 1.0, 3.0]])
    got = backend.fold_columns("+", torch.from_numpy(c.copy()))
    want = host.fold_columns("+", c.copy())
    loop = [float(v) for v in c[0]]
    for row in c[1:]:
        loop = [p + q for p, q in zip(loop, row)]
    assert isinstance(got, torch.Tensor)
    assert got.numpy().tobytes() == want.tobytes() == np.array(loop).tobytes()
    assert [str(v) for v in got.tolist()[:4]] == ["-0.0", "0.0", "0.0", "0.0"]


# ---------------------------------------------------------------- issue 32, third round

def _adversarial(seed, rows=400, cols=16):
    """Reals in [-0.5, 0.5) and, in some rows, NaN, inf, -inf, 0.0, -0.0, ties between
    columns and whole numbers, each row once with its columns reversed beside it."""
    import numpy as np
    rng = np.random.default_rng(seed)
    a = rng.random((rows, cols)) - 0.5
    specials = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.25, -0.25]
    for r in range(0, rows, 3):
        for c in rng.choice(cols, size=rng.integers(1, 4), replace=False):
            a[r, c] = specials[rng.integers(len(specials))]
    a[1::7] = np.round(a[1::7] * 8)           # whole numbers, zeros of both signs among them
    a[2::11] = -0.0
    return a


# (the batched rules made cheaper for issue 32, third round, and their neighbours)
BIT_PROGRAMS = ["{x|0.0}'m", "{(x|-0.25)&0.25}'m", "{x|-x}'m", "{+/x|-x}'m", "{x&-x}'m",
                "{+/x&-x}'m", "m{x|y}'n", "m{x&y}'n", "n{x|y}'m", "{(x*x)&1+x*x}'m",
                "{(x*x)|x*x*x}'m", "m{+/(x-y)^2}'n", "m{(x-y)^2}'n", "{x^2}'m", "{x^3}'m",
                "{(+/x*x)^0.5}'m", "+/'m", "*/'m", "{(+/x)%#x}'m",
                "{(+/(x-(+/x)%#x)^2)%#x}'m", "{x%+/x}'m", "m{+/x-y}'2#n", "m{x*y}'n",
                "m|n", "m&n", "n|m", "(m*m)|m"]


@pytest.mark.parametrize("program", BIT_PROGRAMS)
@pytest.mark.parametrize("seed", [3, 32])
def test_rows_on_random_and_adversarial_reals_are_the_loops_bits(mode, program, seed):
    """On 400 rows of 16 random reals with NaN, infinities, zeros of both signs, whole
    numbers and ties among them: the batched result's bits (NaN's sign and payload too) and
    dtype are the loop's (KLONG_BATCH=0), on both backends, generated code and closures."""
    import numpy as np
    from klong.backends import to_host
    backend, codegen = mode
    got = []
    for batch in (True, False):
        k = KlongInterpreter(backend=backend, codegen=codegen, batch=batch)
        k["m"] = _adversarial(seed)
        k["n"] = _adversarial(seed + 1)
        v = k(program)
        # (a list of lists where a row's result is :undefined, as x%0 is: its text)
        mixed = type(v) is list or isinstance(v, np.ndarray) and v.dtype == object
        got.append(write(v) if mixed else np.asarray(to_host(v)))
    if type(got[0]) is str or type(got[1]) is str:
        assert got[0] == got[1]
        return
    assert got[0].dtype == got[1].dtype and got[0].shape == got[1].shape
    assert got[0].tobytes() == got[1].tobytes()


def _klong_max(a, b):
    """Klong's Max of two reals by its definition: a where a >= b, else b."""
    return a if a >= b else b


def _klong_min(a, b):
    """Klong's Min: a where a < b, else b."""
    return a if a < b else b


@pytest.mark.parametrize("backend", BACKENDS)
def test_max_and_min_of_two_real_arrays_pick_what_the_verbs_define(backend):
    """Max and Min of two real arrays (the library's maximum and minimum where their result
    holds no NaN and no zero; fmax and fmin, or the verbs' steps, elsewhere): every element
    the operand Klong's definition picks, bit for bit (which zero, which NaN), on results
    all positive, of both signs, with zeros of both signs beside each other, and with NaN
    in either operand."""
    import struct
    import numpy as np
    from klong.backends import to_host
    nan, inf = float("nan"), float("inf")
    cases = [([1.5, -2.0, 3.0], [-1.5, 2.0, -3.0]),              # |x|-like: all positive
             ([0.5, -3.0, 2.0], [1.0, -4.0, -2.0]),              # both signs, no zero
             ([0.0, -0.0, 1.0, -0.0], [-0.0, 0.0, 1.0, -0.0]),   # zeros of both signs
             ([nan, 1.0, -nan, 2.0], [1.0, nan, 2.0, -nan]),     # NaN on either side
             ([inf, -inf, 2.0], [-inf, inf, 2.0])]
    bits = lambda v: struct.pack("<d", v)                  # noqa: E731
    k = KlongInterpreter(backend=backend)
    for a, b in cases:
        k["a"], k["b"] = np.array(a), np.array(b)
        for verb, define in (("|", _klong_max), ("&", _klong_min)):
            for x, y, xs, ys in ((a, b, "a", "b"), (b, a, "b", "a")):
                got = np.asarray(to_host(k(f"{xs}{verb}{ys}"))).tolist()
                want = [define(p, q) for p, q in zip(x, y)]
                assert [bits(v) for v in got] == [bits(v) for v in want], (verb, x, y)


@pytest.mark.parametrize("program", ["{+/x|-x}'m", "{(+/x)%#x}'m"])
@pytest.mark.parametrize("rows", [2, 64])
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_row_of_negative_zeros_sums_to_negative_zero_batched(backend, program, rows):
    """A row of -0.0 sums to -0.0, a fold from its first element, batched and looped: by few
    rows (the loop row by row) and by many (on torch the loop of KLONG_BATCH=0 is a trace,
    whose running sum starts from +0.0 unless the sums see to it)."""
    import numpy as np
    from klong.backends import to_host
    got = []
    for batch in (True, False):
        k = KlongInterpreter(backend=backend, batch=batch)
        k["m"] = np.array([[-0.0] * 16, [0.5] * 16] * (rows // 2))
        got.append(np.asarray(to_host(k(program))))
    assert got[0].tobytes() == got[1].tobytes()
    assert str(float(got[0][0])) == "-0.0"


@pytest.mark.parametrize("weights", ["reals", "integers", "zeros"])
@pytest.mark.parametrize("seed", [3, 32])
def test_rows_times_a_matrix_summed_are_the_loops_bits(mode, weights, seed):
    """`{+/x*w}'m` by a 16 x p matrix w (torch: its own products, numpy's fold of them on
    the same memory): on adversarial rows, by real weights with NaN, infinities and zeros
    of both signs, by integers, and by -0.0 and 0.0 (rows of zero products, whose sums are
    -0.0 only where every product is): the batched result's bits and dtype are the loop's."""
    import numpy as np
    from klong.backends import to_host
    backend, codegen = mode
    rng = np.random.default_rng(seed)
    if weights == "reals":
        w = _adversarial(seed + 2, rows=16, cols=8)
    elif weights == "integers":
        w = rng.integers(-3, 4, (16, 3))
    else:
        w = np.where(rng.random((16, 5)) < 0.5, -0.0, 0.0)
        w[:, 0] = 0.0
    got = []
    for batch in (True, False):
        k = KlongInterpreter(backend=backend, codegen=codegen, batch=batch)
        k["m"] = _adversarial(seed, rows=300)
        k["w"] = w
        got.append(np.asarray(to_host(k("{+/x*w}'m"))))
    assert got[0].dtype == got[1].dtype == np.float64 and got[0].shape == got[1].shape
    assert got[0].tobytes() == got[1].tobytes()


@pytest.mark.parametrize("backend", BACKENDS)
def test_running_sums_keep_the_loops_zeros(backend):
    """The sign of a running sum's zeros, which no printed text shows: each row's running
    sum batched is that row's alone, -0.0 for as long as it holds nothing but -0.0."""
    import numpy as np
    from conftest import host
    k = KlongInterpreter(backend=backend, batch=True)
    k(SETUP)
    alone = [list(np.signbit(np.asarray(host(k(f"+\\z@{i}")), dtype=float))) for i in range(4)]
    assert alone[0] == [True, True, False] and alone[3] == [True, False, False]
    for program in ("+\\'z", "{+\\x}'z"):
        got = np.signbit(np.asarray(host(k(program)), dtype=float))
        assert [list(r) for r in got] == alone, program


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_first_true_of_each_row(backend):
    """Backend.first_true_each_row: the place of each row's first truth, 0 for a row of
    none, as an integer vector (numpy's argmax of the truths beside the general steps)."""
    import numpy as np
    from klong.backends import get_backend
    from klong.backends.base import Backend
    from conftest import host
    b = get_backend(backend)
    rng = np.random.default_rng(32)
    mask = rng.random((200, 9)) < 0.2
    mask[:5] = False
    want = [next((j for j, t in enumerate(row) if t), 0) for row in mask]
    on = torch.from_numpy(mask) if backend == "torch" else mask
    for got in (b.first_true_each_row(on), Backend.first_true_each_row(b, on)):
        assert b.kind(got) == "i"
        assert list(np.asarray(host(got))) == want


@pytest.mark.parametrize("backend", BACKENDS)
def test_running_sums_of_a_list_keep_the_loops_zeros(backend):
    """+\\ of a list, or of the rows of a matrix, starts from its first element, not from
    0.0: -0.0 for as long as it holds nothing but -0.0 (signs no printed text shows)."""
    import numpy as np
    from conftest import host
    k = KlongInterpreter(backend=backend)
    for v in ([-0.0, -0.0, 1.0], [0.0, -0.0, 1.0], [1.0, -0.0, 0.0], [-0.0]):
        want = [v[0]]
        for e in v[1:]:
            want.append(want[-1] + e)
        k["v"] = np.array(v)
        got = host(k("+\\v"))
        assert list(np.signbit(got)) == list(np.signbit(want)), v
    got = host(k("+\\[[-0.0 0.0] [-0.0 -0.0] [1.0 2.0]]"))
    assert [list(r) for r in np.signbit(got)] == [[True, False], [True, False], [False, False]]
