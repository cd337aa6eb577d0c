"""The syntax tree lowered once to the IR (ir.py) that passes rewrite and renderers run."""
from .lower import lower, verb_label

__all__ = ["lower", "verb_label"]
