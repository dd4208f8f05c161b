"""The protocol messages several rooms of core send about rooms and games, built in one place.

Play, the races and the replica of shared rooms all tell players that a game ended, that a race began or is
over, and what the whole room looks like now; each builds these messages here, so a message means the same
whoever sends it (and `net` builds none of them: a resync's announcements come back as an `Effect`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from freecell_arena.core.effects import Publication
from freecell_arena.core.events import player_topic, room_topic
from freecell_arena.core.live.player_game import OUTCOME_SENTENCES, Finish, PlayerGame
from freecell_arena.core.live.room import Room
from freecell_arena.core.ports.records import RoomVersion
from freecell_arena.protocol.play import GameOverMessage
from freecell_arena.protocol.rooms import RaceOverMessage, RaceStartedMessage, RoomMessage
from freecell_arena.protocol.wire import RequestId

Connected = Callable[[str], bool]
"""Whether a player has a connection to this process (a room's view shows who is there)."""


def game_over(game: PlayerGame, request_id: RequestId, finish: Finish | None = None) -> GameOverMessage:
    """`finish`: how a change being made ends the game, before memory has it (else the game's own)."""
    finish = finish or game.finish
    assert finish is not None
    counts = game.counts(finish=finish)
    return GameOverMessage(
        id=request_id,
        game_id=game.game_id,
        outcome=finish.outcome,
        message=OUTCOME_SENTENCES[finish.outcome],
        player_moves=counts.moves,
        single_card_moves=counts.single_card_moves,
        cards_on_foundations=counts.cards_home,
        time_ms=counts.time_ms,
    )


def game_over_to_player(game: PlayerGame, finish: Finish | None = None) -> Publication:
    """A game ended by time (a race's limit, a daily's close): its player hears it on their own topic."""
    return Publication(player_topic(game.player_id), game_over(game, None, finish))


def whole_room(room: Room, now: datetime, connected: Connected, version: RoomVersion | None = None) -> Publication:
    """The whole room to everyone in it: only when its status changes (start, begin, finish), once a race."""
    return Publication(room_topic(room.code), RoomMessage(room=room.view(now, connected)), version=version)


def race_started(room: Room, game: PlayerGame, now: datetime) -> Publication:
    """A player's copy of the deal, on their own topic."""
    view = game.view(now, seed_public=room.seed_public)
    return Publication(player_topic(game.player_id), RaceStartedMessage(code=room.code, game=view))


def race_over(room: Room, version: RoomVersion | None = None) -> Publication:
    return Publication(room_topic(room.code), race_over_message(room), version=version)


def race_over_message(room: Room) -> RaceOverMessage:
    """The final standings, and the seed (public once the race is over, for every variant but a cup's heat)."""
    return RaceOverMessage(code=room.code, seed=room.record.seed if room.seed_public else None,
                           standings=room.standings())
