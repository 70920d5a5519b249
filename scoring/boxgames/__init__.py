"""The box games (Yahtzee and the Yatzy family): a card of boxes filled once each.

The shared engine is :mod:`.boxgame`; each ruleset is a small module of boxes and options
beside it, and :mod:`.strategy` solves them. A new box-game variant touches this package only.
"""
