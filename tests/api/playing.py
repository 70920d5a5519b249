"""Whole games over HTTP, played by random legal moves of the person seats (the computer
seats play their own turns within the persons' requests)."""

import random
from typing import Any

from scoring.tenthousand.points import best_free_selection


def play_box_turn(api, game: dict, shown: dict, rng: random.Random) -> dict:
    """One move of the current seat: roll (holding a random few), or fill a random box."""
    seat, turn = shown["current_seat"], shown["turn"]
    if turn["dice"] is None or (turn["rolls_left"] and rng.random() < 0.5):
        hold = [i for i in range(len(turn["dice"] or [])) if rng.random() < 0.5]
        return api.ok(game, "roll", {"hold": hold} if turn["dice"] else {}, seat=seat)
    box = rng.choice(sorted(shown["choices"]))
    action = "scratch" if rng.random() < 0.1 else "score"
    return api.ok(game, action, {"category": box}, seat=seat)


def play_ten_thousand_turn(api, game: dict, shown: dict, rng: random.Random) -> dict:
    """One move of the current seat: throw, or set aside the best selection and bank or
    throw on."""
    seat, turn = shown["current_seat"], shown["turn"]
    if turn["dice"] is None:
        return api.ok(game, "roll", seat=seat)
    take = best_free_selection(turn["dice"], turn["set_aside"]).positions
    if turn["can_bank"] and rng.random() < 0.6:
        return api.ok(game, "bank", {"set_aside": take}, seat=seat)
    return api.ok(game, "roll", {"set_aside": take}, seat=seat)


def play_to_end(api, game: dict[str, Any], rng: random.Random, *, moves: int = 3000) -> dict:
    """Plays ``game`` (as its creation answered it, tokens included) until it is over."""
    play = play_ten_thousand_turn if game["ruleset"] == "ten-thousand" else play_box_turn
    shown = game
    for _ in range(moves):
        if shown["status"] != "active":
            return shown
        shown = play(api, game, shown, rng)
    raise AssertionError(f"the game did not end in {moves} moves")
