"""The fault matrix of issue 42: no fault of a model's server or reply gets the model rated on
the harness's moves. Every provider kind, every fault, the default policy (``fallback``) and
``forfeit`` (see :mod:`tests.support.fault_matrix`; ``bench/fault_matrix.py`` prints the table).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.fault_matrix import FAULTS, KEY_ENV, PROVIDERS, outcome

FALLBACK = {
    "closed port": "refused (server down: connection refused",
    "500": "failed (player_failed)",
    "429": "failed (player_failed)",
    "refusal": "failed (player_failed)",
    "prose": "failed (player_failed)",
    "truncated": "failed (player_failed)",
    "revised": "rated (0% fallback, 6 revised)",
    "hostile": "rated (0% fallback, 0 revised) (its reason stored literally)",
}
FORFEIT = {
    **FALLBACK,
    "prose": "rated, last (2 of 2 forfeited)",
    "truncated": "rated, last (2 of 2 forfeited)",
}


@pytest.mark.parametrize("fault", list(FAULTS))
@pytest.mark.parametrize("provider", PROVIDERS)
async def test_the_fault_matrix(
    provider: str, fault: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-fault-matrix")
    assert (await outcome(provider, fault, "fallback", tmp_path)).startswith(FALLBACK[fault])


@pytest.mark.parametrize("fault", ["prose", "truncated", "500"])
async def test_the_fault_matrix_under_forfeit(
    fault: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-fault-matrix")
    assert (await outcome("openai-compat", fault, "forfeit", tmp_path)).startswith(FORFEIT[fault])
