"""Widgets of the Arena app."""
