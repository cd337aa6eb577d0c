"""Renderers: the IR made runnable, as Python closures (closures.py) or Python source
(pysource.py), one rule per IR node; and what both need at run time (forms.py, wholes.py)."""
