"""Renderers: the IR made runnable, as Python closures (closures.py) or Python source
(pysource.py), one rule per IR node. What the rendered code calls at run time lives in
verbs/ and runtime/."""
