"""Klong's verbs: MONADS and DYADS map a verb's symbol to the Python function that
implements it. Each verb's meaning lives in exactly one function in atomic.py or
structural.py."""
from . import atomic, structural

MONADS = {**atomic.MONADS, **structural.MONADS}
DYADS = {**atomic.DYADS, **structural.DYADS}
