"""Where the project's folders are: a leaf module every other one may import (no import of its
own from the package, so it closes no circle)."""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("CELLULA_DATA", ROOT / "data")).resolve()
"""The data folder; tests point ``CELLULA_DATA`` at a fixture set."""
DOCS_DIR = ROOT / "docs"
GENERATED_DIR = "generated"
"""The folder of ``docs/`` (and of the site) holding the features' shared generated files
(:class:`~generator.render.Asset`); like the language folders it is rebuilt, never committed."""
