"""Pieces of one screen (or one family of screens) each, named after it."""
