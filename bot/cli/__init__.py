"""The terminal side of ``python -m bot``: one module per command, plus the terminal board renderer.

``bot/__main__.py`` owns the argument parser and hands each command its parsed, typed options.
"""
