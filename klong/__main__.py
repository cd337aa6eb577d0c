"""`python -m klong`: the kgpy command."""
import sys

from .frontends.cli import main

sys.exit(main())
