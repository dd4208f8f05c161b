"""`core.competition.quick_race.QuickRaces`: one filling public room a variant, starting by itself, ranked, on a
drawn deal."""

from __future__ import annotations

from datetime import timedelta

import pytest
from core_support import ManualClock, known_player
from parts import Parts, wire

from freecell_arena.core.competition.quick_race import QuickRaceRules
from freecell_arena.core.effects import Refusal
from freecell_arena.core.live.rooms import Busy
from freecell_arena.core.live.shared_state import SharedState
from freecell_arena.core.ports.records import QuickRoomRecord, RoomStatusRecord
from freecell_arena.protocol.rooms import (
    CountdownMessage,
    CreateRoomRequest,
    JoinRoomRequest,
    LeaveRoomRequest,
    QuickRaceRequest,
    RaceStartedMessage,
    StartRaceRequest,
)

RULES = QuickRaceRules(min_players=2, max_players=3, wait_s=10)


@pytest.fixture
def parts(state: SharedState) -> Parts:
    parts = wire(state, quick=RULES)
    parts.lobby.draw_seed = lambda low, high: 4242
    for player in ("ada", "bob", "cy", "dan"):
        known_player(state, player)
    return parts


def quick(parts: Parts, player: str, variant: str = "freecell") -> str:
    parts.quick.quick_race(player, QuickRaceRequest(variant=variant))
    code = parts.state.players[player].room_code
    assert code is not None
    return code


def test_the_first_opens_a_ranked_public_room_on_a_drawn_deal_and_points_the_variant_to_it(parts: Parts) -> None:
    effect = parts.quick.quick_race("ada", QuickRaceRequest(id=1, variant="freecell"))
    code = parts.state.players["ada"].room_code or ""
    room = parts.state.rooms[code]
    assert QuickRoomRecord("freecell", code, None) in effect.records
    assert room.record.quick and room.options.ranked and not room.record.seed_chosen and room.record.seed == 4242
    assert room.options.max_players == RULES.max_players and room.status == "lobby"  # one player: it waits
    assert room.view(parts.state.clock.now(), lambda player: True).quick


def test_enough_players_start_a_countdown_that_others_may_still_join(parts: Parts, clock: ManualClock) -> None:
    code = quick(parts, "ada")
    effect = parts.quick.quick_race("bob", QuickRaceRequest(variant="freecell"))
    room = parts.state.rooms[code]
    assert parts.state.players["bob"].room_code == code and room.status == "countdown"
    status = [record for record in effect.records if isinstance(record, RoomStatusRecord)]
    assert [record.status for record in status] == ["countdown"]
    assert room.starts_at == clock.now() + timedelta(seconds=RULES.wait_s)
    countdowns = [p for p in effect.publications if isinstance(p.message, CountdownMessage)]
    assert [publication.skip for publication in countdowns] == ["bob"]  # bob follows the room only after this
    assert any(isinstance(reply, CountdownMessage) for reply in effect.replies)
    clock.advance(4)
    assert quick(parts, "cy") == code  # the countdown is on: a third still gets in, and fills the room
    assert parts.state.rooms[code].starts_at == clock.now()  # full: it starts at once
    effects = parts.tick()
    room = parts.state.rooms[code]
    assert room.status == "running" and set(room.games) == {"ada", "bob", "cy"}
    started = [p for effect in effects for p in getattr(effect, "publications", [])
               if isinstance(p.message, RaceStartedMessage)]  # fmt: skip
    assert len(started) == 3 and {game.record.ranked for game in room.games.values()} == {True}
    assert quick(parts, "dan") != code  # the started room is no longer filling: a new one opens


def test_one_filling_room_a_variant_and_each_variant_its_own(parts: Parts) -> None:
    code = quick(parts, "ada")
    other = quick(parts, "bob", "chinese-freecell")
    assert other != code and parts.state.rooms[other].variant.id == "chinese-freecell"
    assert parts.quick.filling == {"freecell": code, "chinese-freecell": other}


def test_leaving_before_the_start_frees_the_seat(parts: Parts, clock: ManualClock) -> None:
    code = quick(parts, "ada")
    parts.lobby.leave_room("ada", LeaveRoomRequest())
    assert code not in parts.state.rooms  # the last one out closes it
    again = quick(parts, "bob")
    assert again != code
    quick(parts, "cy")
    room = parts.state.rooms[again]
    assert room.status == "countdown"
    refused = parts.raw.lobby.leave_room("cy", LeaveRoomRequest())
    refused.claim()
    refused.refused()
    assert parts.state.rooms[again] is room and room.status == "countdown" and "cy" in room.members, "no trace"
    left = parts.lobby.leave_room("cy", LeaveRoomRequest())  # during the countdown: the seat is free again
    room = parts.state.rooms[again]
    assert "cy" not in room.members and not room.is_full()
    assert room.status == "lobby" and room.starts_at is None  # one player left: it waits for another
    assert [record.status for record in left.records if isinstance(record, RoomStatusRecord)] == ["lobby"]
    clock.advance(RULES.wait_s + 1)
    parts.tick()
    assert parts.state.rooms[again].status == "lobby"  # the stopped countdown starts nothing
    assert quick(parts, "dan") == again
    room = parts.state.rooms[again]
    assert "dan" in room.members and room.status == "countdown"


def test_a_pointer_the_store_has_is_filled_instead_of_opening_another(parts: Parts) -> None:
    """Another process opened the filling room (net read the pointer and brought the room here first)."""
    code = quick(parts, "ada")
    parts.quick.filling.clear()
    parts.quick.know_filling("freecell", code)
    effect = parts.quick.quick_race("bob", QuickRaceRequest(variant="freecell"))
    assert not any(isinstance(record, QuickRoomRecord) for record in effect.records)
    assert parts.state.players["bob"].room_code == code


def test_a_new_filling_room_is_written_over_the_one_known_and_a_refusal_leaves_the_old_one(parts: Parts) -> None:
    first = quick(parts, "ada")
    quick(parts, "bob")
    quick(parts, "cy")  # full: started
    effect = parts.raw.quick.quick_race("dan", QuickRaceRequest(variant="freecell"))
    (pointer,) = [record for record in effect.records if isinstance(record, QuickRoomRecord)]
    assert pointer.previous == first and pointer.code != first
    effect.claim()
    known_player(parts.state, "eve")
    with pytest.raises(Busy):  # a second press while the pointer's change is in flight waits for it
        parts.raw.quick.quick_race("eve", QuickRaceRequest(variant="freecell")).claim()
    effect.refused()
    assert parts.quick.filling["freecell"] == first and pointer.code not in parts.state.rooms
    assert parts.state.players["dan"].room_code is None


@pytest.mark.parametrize(
    ("setup", "variant", "code"),
    [("none", "no-such-game", "unknown_variant"), ("lobby", "freecell", "already_in_room"),
     ("quick", "freecell", "already_in_room")],
)  # fmt: skip
def test_quick_race_from_the_wrong_state_is_refused_and_changes_nothing(
    parts: Parts, setup: str, variant: str, code: str
) -> None:
    if setup == "lobby":
        parts.lobby.create_room("ada", CreateRoomRequest(variant="freecell"))
    elif setup == "quick":
        quick(parts, "ada")
    rooms, filling = dict(parts.state.rooms), dict(parts.quick.filling)
    before = parts.state.players["ada"].room_code
    with pytest.raises(Refusal) as refused:
        parts.quick.quick_race("ada", QuickRaceRequest(variant=variant))
    assert refused.value.code == code
    assert parts.state.rooms == rooms and parts.quick.filling == filling
    assert parts.state.players["ada"].room_code == before


def test_nobody_starts_a_quick_race_by_hand(parts: Parts) -> None:
    quick(parts, "ada")
    with pytest.raises(Refusal) as refused:
        parts.lobby.start_race("ada", StartRaceRequest())
    assert refused.value.code == "not_host" and "by itself" in refused.value.message


def test_joining_a_quick_race_by_its_link_counts_as_pressing_quick_race(parts: Parts) -> None:
    code = quick(parts, "ada")
    effect = parts.lobby.join_room("bob", JoinRoomRequest(code=code))
    assert parts.state.rooms[code].status == "countdown"
    assert any(isinstance(record, RoomStatusRecord) and record.status == "countdown" for record in effect.records)
    parts.lobby.join_room("cy", JoinRoomRequest(code=code, spectator=True))  # a spectator is no player
    assert len(parts.state.rooms[code].players()) == 2
