"""Settings of the bot arena (games/arena/, games/tournaments/), imported by config/settings.py."""

from config.env import env_int

# The most games of all running tournaments under way at once, shared evenly between the
# tournaments running (games/tournaments/running.py): the bots' moves are requests like
# anyone's, so this bounds the share of the service the arena takes from ordinary play.
TOURNAMENT_GAMES_AT_ONCE = env_int("TOURNAMENT_GAMES_AT_ONCE", 64, minimum=1)
