"""python -m klong: the kgpy command line (also how torchrun starts Klong: torchrun ... -m klong)."""
import sys

from .cli import main

sys.exit(main())
