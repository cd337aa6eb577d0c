"""`python -m klong`: the kgpy command."""
import sys

from .cli import main

sys.exit(main())
