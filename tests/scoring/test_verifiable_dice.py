"""The verifiable dice (docs/contract.md, "Verifiable dice and records"): each face derived from
the secret, the client seed and where the die is thrown, checked against a plain
re-implementation of the published algorithm; the commitment, the seeded secret, the
client seed's form, and the fairness of the faces."""

import hashlib
import hmac
import itertools
import string

import pytest

import scoring
from scoring import verifiable
from scoring.verifiable import DerivedDice, face

param = pytest.param

SECRET = scoring.seeded_secret(42)
CLIENT_SEED = "table-7"


def reference_face(
    secret: bytes, client_seed: str, seat: int, turn: int, roll: int, position: int
) -> int:
    """docs/contract.md's algorithm, written out: the first byte below 252 of the digest, retrying
    with ":1", ":2"... appended when every byte is 252 or more."""
    message = f"{client_seed}:{seat}:{turn}:{roll}:{position}"
    for retry in itertools.count():
        suffix = "" if retry == 0 else f":{retry}"
        digest = hmac.new(secret, (message + suffix).encode(), hashlib.sha256).digest()
        fair = [byte for byte in digest if byte < 252]
        if fair:
            return 1 + fair[0] % 6
    raise AssertionError("unreachable")


# -- the derivation ------------------------------------------------------------------------

@pytest.mark.parametrize(
    "coordinates",
    [(0, 0, 0, 0), (0, 0, 0, 4), (1, 0, 2, 3), (3, 12, 1, 0), (7, 40, 0, 5), (2, 5, 9, 5)],
)
def test_a_face_is_the_published_algorithm(coordinates):
    assert face(SECRET, CLIENT_SEED, *coordinates) == reference_face(
        SECRET, CLIENT_SEED, *coordinates
    )


def test_known_faces_stay_the_same():
    """Faces for fixed inputs, so that a change to the algorithm cannot pass unnoticed
    even if the re-implementation above changed with it."""
    secret = scoring.seeded_secret(1)
    faces = [face(secret, "abc", 0, 0, 0, position) for position in range(6)]
    assert faces == [reference_face(secret, "abc", 0, 0, 0, p) for p in range(6)]
    assert faces == [5, 4, 1, 2, 3, 5]  # also what `openssl dgst -sha256 -mac HMAC` gives


def test_the_positional_source_throws_exactly_the_positions_asked():
    dice = DerivedDice(SECRET, CLIENT_SEED)
    assert dice.throw(1, 2, 1, [4, 0, 2]) == [
        reference_face(SECRET, CLIENT_SEED, 1, 2, 1, p) for p in (4, 0, 2)
    ]
    assert dice.throw(1, 2, 1, []) == []


def test_every_coordinate_and_the_client_seed_change_the_message():
    base = [face(SECRET, CLIENT_SEED, 0, 0, 0, p) for p in range(64)]
    for moved in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
        assert [face(SECRET, CLIENT_SEED, *moved, p) for p in range(64)] != base
    assert [face(SECRET, "table-8", 0, 0, 0, p) for p in range(64)] != base
    assert [face(scoring.seeded_secret(43), CLIENT_SEED, 0, 0, 0, p) for p in range(64)] != base


def first_byte_unfair() -> tuple[int, int, int, int]:
    """Coordinates whose digest starts with a byte of 252 or more, and whose first fair
    byte gives another face than that first byte would."""
    for position in itertools.count():
        coordinates = (0, 0, 0, position)
        message = f"{CLIENT_SEED}:0:0:0:{position}".encode()
        digest = hmac.new(SECRET, message, hashlib.sha256).digest()
        fair = next(byte for byte in digest if byte < 252)
        if digest[0] >= 252 and fair % 6 != digest[0] % 6:
            return coordinates
    raise AssertionError("unreachable")


def test_a_byte_of_252_or_more_is_skipped_for_the_next_one():
    coordinates = first_byte_unfair()
    message = "{}:{}:{}:{}:{}".format(CLIENT_SEED, *coordinates).encode()
    digest = hmac.new(SECRET, message, hashlib.sha256).digest()
    fair = next(byte for byte in digest if byte < 252)
    assert digest[0] >= 252
    assert face(SECRET, CLIENT_SEED, *coordinates) == 1 + fair % 6
    assert face(SECRET, CLIENT_SEED, *coordinates) != 1 + digest[0] % 6


def test_a_digest_without_a_fair_byte_retries_with_a_counter(monkeypatch):
    """No known message has 32 bytes of 252 or more (the odds are 1 in 2^192), so the
    digest is made to have none for the plain message and for ":1"."""
    real = hmac.digest
    asked: list[bytes] = []

    def digest(key: bytes, message: bytes, name: str) -> bytes:
        asked.append(message)
        return bytes([255] * 32) if len(asked) <= 2 else real(key, message, name)

    monkeypatch.setattr(verifiable.hmac, "digest", digest)
    got = face(SECRET, CLIENT_SEED, 1, 2, 0, 3)
    monkeypatch.undo()
    assert asked == [b"table-7:1:2:0:3", b"table-7:1:2:0:3:1", b"table-7:1:2:0:3:2"]
    expected = hmac.new(SECRET, b"table-7:1:2:0:3:2", hashlib.sha256).digest()
    assert got == 1 + next(byte for byte in expected if byte < 252) % 6


# -- commitment and secrets ----------------------------------------------------------------

def test_the_commitment_is_the_hex_sha256_of_the_secret():
    secret = bytes(range(32))
    assert scoring.commitment(secret) == hashlib.sha256(secret).hexdigest()
    assert DerivedDice(secret, CLIENT_SEED).commitment == scoring.commitment(secret)
    assert DerivedDice.algorithm == "hmac-sha256-v1"


@pytest.mark.parametrize("seed", [0, 42, -7, 2**63])
def test_a_seeded_secret_is_sha256_of_the_seed_spelled_out(seed):
    assert scoring.seeded_secret(seed) == hashlib.sha256(f"seed:{seed}".encode()).digest()


def test_fresh_secrets_and_client_seeds_have_the_contracts_form():
    secrets = {scoring.new_secret() for _ in range(3)}
    assert len(secrets) == 3 and all(len(secret) == 32 for secret in secrets)
    seed = scoring.new_client_seed()
    assert len(seed) == 16 and set(seed) <= set(string.hexdigits.lower())
    assert scoring.check_client_seed(seed) == seed


def test_the_secret_stays_out_of_the_sources_repr():
    assert SECRET.hex() not in repr(DerivedDice(SECRET, CLIENT_SEED))
    assert repr(SECRET) not in repr(DerivedDice(SECRET, CLIENT_SEED))


# -- the client seed -----------------------------------------------------------------------

@pytest.mark.parametrize(
    "seed",
    [param("a", id="one-character"), param("x" * 64, id="64-characters"),
     param("game-3", id="assignment"), param(" !~{}", id="space-and-punctuation")],
)
def test_a_client_seed_of_printable_ascii_is_accepted(seed):
    assert scoring.check_client_seed(seed) == seed


@pytest.mark.parametrize(
    "seed",
    [param("", id="empty"), param("x" * 65, id="65-characters"), param("a:b", id="colon"),
     param("tab\there", id="tab"), param("new\nline", id="newline"), param("café", id="accent"),
     param("\x7f", id="delete"), param(12, id="number"), param(None, id="null"),
     param(["a"], id="list")],
)
def test_any_other_client_seed_is_refused(seed):
    with pytest.raises(scoring.RuleError) as refused:
        scoring.check_client_seed(seed)
    assert (refused.value.code, refused.value.field) == ("invalid", "client_seed")


# -- fairness ------------------------------------------------------------------------------

# The chi-square statistic with 5 degrees of freedom exceeds this with probability 0.001.
CHI_SQUARE_5_AT_0_001 = 20.515


@pytest.mark.slow
def test_a_million_derived_dice_are_fair():
    """Every coordinate of eight seats' 7,000 turns of three throws of six dice."""
    tally = [0] * 7
    for seat, turn, roll, position in itertools.product(
        range(8), range(7000), range(3), range(6)
    ):
        tally[face(SECRET, CLIENT_SEED, seat, turn, roll, position)] += 1
    thrown = sum(tally)
    assert thrown >= 1_000_000
    expected = thrown / 6
    for count in tally[1:]:
        assert abs(count / thrown - 1 / 6) <= 0.005 / 6  # within 0.5 % of 1/6
    chi_square = sum((count - expected) ** 2 / expected for count in tally[1:])
    assert chi_square < CHI_SQUARE_5_AT_0_001
