"""A move's body is parsed by fields each thread keeps (``CommandIn.get_fields``): what one
body was, or what was wrong with it, never shows in the next one's parsing, in the same
thread or in another one at the same time."""

import threading

from games.api.games.requests import HoldIn, RollIn, ScoreBoxIn
from scoring.commands import Hold, Roll, Score


def parsed(body_class, data):
    body = body_class(data=data)
    if body.is_valid():
        return body.save()
    return {name: [str(error.code) for error in errors] for name, errors in body.errors.items()}


def test_a_refused_body_leaves_nothing_behind_for_the_next():
    assert parsed(HoldIn, {"hold": [0, 9]}) == {"hold": ["invalid_dice"]}
    assert parsed(HoldIn, {}) == {"hold": ["required"]}
    assert parsed(HoldIn, {"hold": [4, 1]}) == Hold(hold=(1, 4))
    assert parsed(RollIn, {"hold": [1], "Hold": [2]}) == {"Hold": ["unknown_field"]}
    assert parsed(RollIn, {"set_aside": [2]}) == Roll(hold=None, set_aside=(2,))
    assert parsed(RollIn, {}) == Roll()
    assert parsed(ScoreBoxIn, {"category": 3}) == {"category": ["invalid"]}
    assert parsed(ScoreBoxIn, {"category": "chance"}) == Score(category="chance")


def test_each_serializer_owns_its_fields_while_it_parses():
    first, second = HoldIn(data={"hold": [0]}), HoldIn(data={"hold": [1]})
    assert first.fields["hold"].parent is first
    assert second.fields["hold"].parent is second
    assert first.is_valid() and second.is_valid()
    assert (first.save(), second.save()) == (Hold(hold=(0,)), Hold(hold=(1,)))


def test_threads_parsing_at_once_each_get_their_own_answer():
    bodies = [{"hold": [n % 5]} if n % 3 else {"hold": "all"} for n in range(60)]
    wanted = [parsed(HoldIn, body) for body in bodies]
    answers: dict[int, list] = {}
    start = threading.Barrier(4)

    def parse_all(thread: int) -> None:
        start.wait()
        answers[thread] = [parsed(HoldIn, body) for _ in range(20) for body in bodies]

    threads = [threading.Thread(target=parse_all, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(found == wanted * 20 for found in answers.values())
    assert len(answers) == 4
