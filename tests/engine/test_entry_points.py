"""The one entry point reader (:mod:`arena.plugins`) against a real installed distribution.

A distribution's metadata is written to a temp folder put on ``sys.path``, which is how
``importlib.metadata`` finds any installed package.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.plugins import entry_points as plugins

GROUP = "arena.test_plugins"
MODULE = """
class Thing:
    def __init__(self, name: str = "made") -> None:
        self.name = name

INSTANCE = Thing("instance")
NOT_A_THING = 42

def family():
    return [Thing("first"), Thing("second"), "not a thing"]

def broken_family():
    raise RuntimeError("this plugin is broken")
"""
ENTRY_POINTS = f"""[{GROUP}]
instance = demo_plugins:INSTANCE
made = demo_plugins:Thing
family = demo_plugins:family
missing_module = no_such_module_here:THING
missing_name = demo_plugins:NOTHING
wrong_type = demo_plugins:NOT_A_THING
broken_family = demo_plugins:broken_family
"""


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[type[Any]]:
    """The ``Thing`` class of an installed ``demo-plugins`` distribution."""
    (tmp_path / "demo_plugins.py").write_text(MODULE)
    info = tmp_path / "demo_plugins-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: demo-plugins\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins.refresh()
    thing: type[Any] = importlib.import_module("demo_plugins").Thing
    yield thing
    plugins.refresh()


def test_every_plugin_that_loads_is_found_and_broken_ones_are_left_out(demo: type[Any]) -> None:
    assert list(plugins.plugin_points(GROUP)) == [
        "instance",
        "made",
        "family",
        "missing_module",
        "missing_name",
        "wrong_type",
        "broken_family",
    ]
    found = plugins.installed(GROUP, demo)
    assert [thing.name for thing in found] == ["instance", "made", "first", "second"]


def test_loading_one_plugin_instantiates_a_class_and_reports_what_is_missing(demo: type[Any]) -> None:
    points = plugins.plugin_points(GROUP)
    made: Any = plugins.load_plugin(points["made"])
    assert isinstance(made, demo) and made.name == "made"
    with pytest.raises(ImportError):
        plugins.load_plugin(points["missing_module"])
    with pytest.raises(AttributeError):
        plugins.load_plugin(points["missing_name"])


def test_refresh_forgets_what_was_read(tmp_path: Path, demo: type[Any]) -> None:
    assert "instance" in plugins.plugin_points(GROUP)
    info = next(path for path in tmp_path.iterdir() if path.suffix == ".dist-info")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\nonly = demo_plugins:INSTANCE\n")
    assert "instance" in plugins.plugin_points(GROUP)  # read once per process
    plugins.refresh()
    assert list(plugins.plugin_points(GROUP)) == ["only"]


def test_every_group_is_read_in_the_same_pass(tmp_path: Path, demo: type[Any]) -> None:
    # each pass opens every installed distribution's metadata: reading one group reads them all
    assert "instance" in plugins.plugin_points(GROUP)
    info = next(path for path in tmp_path.iterdir() if path.suffix == ".dist-info")
    with (info / "entry_points.txt").open("a") as entries:
        entries.write("[arena.test_later]\nlater = demo_plugins:INSTANCE\n")
    assert plugins.plugin_points("arena.test_later") == {}
    plugins.refresh()
    assert list(plugins.plugin_points("arena.test_later")) == ["later"]
