"""Tests of the model players (against tests/support/wire_server.py and the offline model)."""
