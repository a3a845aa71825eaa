"""``bench/`` is not part of the installed package; make it importable from
the repository root whichever way pytest was started."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
