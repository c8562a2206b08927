"""madang: a declarative rules language and a generic interpreter for card and board games."""

from .game.api import GameState, MadangError, load_program, new_game
from .game.position import Position, SetupError

__version__ = "0.1.0"
__all__ = [
    "GameState", "MadangError", "Position", "SetupError", "load_program", "new_game", "__version__",
]  # fmt: skip
