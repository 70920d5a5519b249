"""Ten Thousand: six dice, push your luck, first past the target wins.

The rules are :mod:`.rules`; :mod:`.strategy` solves the game and plays it.
"""
