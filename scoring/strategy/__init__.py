"""What every family's strategy shares: dice combinatorics, self-play, and the computer
players by level (each family's own moves live in its package's ``strategy``).

Nothing is imported here: the families' strategies import these modules, and the players
import the families' strategies, so the package itself stays empty to keep that acyclic.
"""
