"""Room codes: every code the server hands out can be read aloud and typed back (`normalize_room_code`)."""

from __future__ import annotations

from freecell_arena.core.identity import (
    ROOM_CODE_ALPHABET,
    ROOM_CODE_LENGTH,
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
