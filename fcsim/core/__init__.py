"""The jitted core: cards, rules, randomness, the exact solver and the game engine."""
