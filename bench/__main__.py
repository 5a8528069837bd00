"""``python -m bench``: the engine benchmarks (see :mod:`bench.engine`)."""

import sys

from bench.engine import main

sys.exit(main())
