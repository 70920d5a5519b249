"""A move works on a copy of its game's state (``scoring.ruleset.copied``): equal to the state,
sharing nothing that can change, so a refused or replayed move leaves the state as it was."""

import copy

from hypothesis import given
from hypothesis import strategies as st

from scoring.registry import get_ruleset
from scoring.ruleset import copied

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


def containers(value, found=None):
    """Every dict and list inside ``value``, by identity."""
    found = {} if found is None else found
    if isinstance(value, dict | list):
        found[id(value)] = value
        for item in value.values() if isinstance(value, dict) else value:
            containers(item, found)
    return found


@given(st.dictionaries(st.text(), JSON, max_size=6))
def test_a_copy_equals_the_state_and_shares_no_container(state):
    made = copied(state)
    assert made == copy.deepcopy(state)
    assert not set(containers(made)) & set(containers(state))


def test_changing_the_copy_of_a_real_state_leaves_the_state_as_it_was():
    state = get_ruleset("yahtzee").new_state(seats=2, options={})
    before = copy.deepcopy(state)
    made = copied(state)
    for container in containers(made).values():
        if isinstance(container, dict):
            container["changed"] = 1
        else:
            container.append("changed")
    assert len(containers(made)) > 3
    assert state == before


def test_other_containers_are_deep_copied_too():
    state = {"seen": {1, 2}, "pair": ([1], 2)}
    made = copied(state)
    assert made == state
    assert made["seen"] is not state["seen"]
    assert made["pair"][0] is not state["pair"][0]
