"""`python -m platform_score ...`: the `platform-score` command (see `platform_score._cli`)."""

import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main())
