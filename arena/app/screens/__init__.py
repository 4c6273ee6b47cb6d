"""Screens of the Arena app."""
