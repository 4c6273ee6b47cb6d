"""Draw the README's picture of the app: ``.venv/bin/python -m tests.support.docs_screenshot``.

A lemonade match of two baselines, paused after a few days, captured with Textual's own
``export_screenshot`` at 140x40 (the scene the golden match screens use) into
``docs/arena-match.svg``.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from arena.app import create_app
from tests.app.test_screens import match, settled_screenshot
from tests.support.app_driving import started

PICTURE = Path(__file__).parents[2] / "docs" / "arena-match.svg"
SIZE = (140, 40)


async def capture(db: Path) -> str:
    """The match screen's SVG, as drawn once it has settled."""
    app = create_app(db, load_models=False)
    async with started(app, size=SIZE) as pilot:
        await match(pilot, app, db)
        await settled_screenshot(pilot, app, "settled")  # compared with latencies hidden
        return app.export_screenshot(title="arena: a lemonade match")  # drawn with them


def main() -> None:
    """Write the picture."""
    with tempfile.TemporaryDirectory() as folder:
        svg = asyncio.run(capture(Path(folder) / "arena.db"))
    PICTURE.write_text(svg, encoding="utf-8")
    print("wrote", PICTURE)


if __name__ == "__main__":
    main()
