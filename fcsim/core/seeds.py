"""The range of a seed, declared once: root seeds, game seeds and game indices are uint64.

This module imports no numba, so a command checks a seed, and a run folder its
metadata, without loading the engine.
"""

MAX_SEED = 2**64 - 1
