"""Tests of the model players (against tests/wire_server.py and the offline model)."""
