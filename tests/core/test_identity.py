"""Room codes: every code the server hands out can be read aloud and typed back (`normalize_room_code`). Games' and
rooms' ids sort by when they were made, and stay unique whatever the clock says."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

from freecell_arena.core.identity import (
    ROOM_CODE_ALPHABET,
    ROOM_CODE_LENGTH,
    new_id,
    new_ordered_id,
    new_room_code,
    normalize_room_code,
    room_code_of,
)


def test_a_new_code_is_eight_letters_of_the_alphabet_and_reads_back_as_itself() -> None:
    codes = {new_room_code() for _ in range(2_000)}
    assert len(codes) == 2_000  # 30^8 codes: two equal ones in 2,000 draws would mean a broken draw
    for code in codes:
        assert len(code) == ROOM_CODE_LENGTH and set(code) <= set(ROOM_CODE_ALPHABET)
        assert normalize_room_code(f" {code[:4].lower()}-{code[4:]} ") == code


def test_every_letter_appears_in_every_position() -> None:
    codes = [new_room_code() for _ in range(3_000)]
    for position in range(ROOM_CODE_LENGTH):
        assert {code[position] for code in codes} == set(ROOM_CODE_ALPHABET)


def test_numbers_below_the_code_space_give_distinct_codes_lowest_digit_first() -> None:
    base = len(ROOM_CODE_ALPHABET)
    assert base == 30 and not set("01ILOU") & set(ROOM_CODE_ALPHABET)
    assert room_code_of(0) == ROOM_CODE_ALPHABET[0] * ROOM_CODE_LENGTH
    assert room_code_of(1) == ROOM_CODE_ALPHABET[1] + ROOM_CODE_ALPHABET[0] * 7
    assert room_code_of(base**ROOM_CODE_LENGTH - 1) == ROOM_CODE_ALPHABET[-1] * ROOM_CODE_LENGTH
    assert len({room_code_of(number) for number in range(0, base**3, 7)}) == len(range(0, base**3, 7))


def test_ordered_ids_sort_by_their_instant_to_the_millisecond_and_never_repeat() -> None:
    start = datetime(2026, 12, 3, 7, 0, tzinfo=UTC)
    instants = [start + timedelta(microseconds=step * 1_700) for step in range(500)]
    ids = [new_ordered_id("g", instant) for instant in instants]
    assert all(re.fullmatch(r"g_[0-9a-f]{28}", game_id) for game_id in ids)
    assert ids[0].startswith(f"g_{int(start.timestamp() * 1000):012x}")
    assert [ids[i] < ids[j] for i, j in zip(range(499), range(1, 500), strict=True)] == [True] * 499
    same = {new_ordered_id("r", start.astimezone(timezone(timedelta(hours=-5)))) for _ in range(2_000)}
    assert len(same) == 2_000 and {room_id[:14] for room_id in same} == {f"r_{int(start.timestamp() * 1000):012x}"}
    assert new_ordered_id("g", datetime(1969, 12, 31, tzinfo=UTC)).startswith("g_000000000000")  # a clock gone wrong


def test_other_ids_say_nothing_of_when_they_were_made() -> None:
    ids = {new_id("p") for _ in range(2_000)}
    assert len(ids) == 2_000 and all(re.fullmatch(r"p_[0-9a-f]{16}", player_id) for player_id in ids)
    assert len({player_id[2] for player_id in ids}) == 16  # the first digit is as random as the rest
