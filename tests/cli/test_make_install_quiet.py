"""``make run`` on a fresh clone: the editable install does not print setuptools' warning block.

setuptools warns on every editable install of a flat layout ("Please be careful with folders
in your working directory..."): the Makefile's install filters that one warning by its
message through ``PYTHONWARNINGS``, which pip's build subprocess inherits.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# How setuptools' warning starts (SetuptoolsWarning puts the summary first, then its "!!" block).
SETUPTOOLS_TEXT = "Editable installation.\n!!\n\n        ****\n        Please be careful with folders"


def test_the_editable_install_filters_setuptools_warning_block_and_nothing_else() -> None:
    recipe = next(
        line
        for line in (ROOT / "Makefile").read_text().splitlines()
        if "pip install" in line and "-e" in line
    )
    found = re.search(r'PYTHONWARNINGS="([^"]+)"', recipe)
    assert found, f"the install sets no warning filter: {recipe}"
    script = (
        "import warnings, sys\n"
        "warnings.warn(sys.argv[1], UserWarning)\n"
        "warnings.warn('another warning', UserWarning)\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", script, SETUPTOOLS_TEXT],
        env={"PYTHONWARNINGS": found.group(1)},
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    assert "Please be careful" not in shown and "another warning" in shown
