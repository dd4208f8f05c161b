"""The reply to every move is built straight into wire text (`freecell_arena/protocol/trusted.py`), not through its
pydantic model. These tests hold it to the model: every frame of random games in every variant (moves, undos,
autoplay, wins and stuck games) parses with `MoveAcceptedMessage` and re-encodes to the very same text, and the
encoder refuses what the model's constructor would refuse."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from core_driver import handled, registered, ticked

from freecell_arena.core.arena import Arena
from freecell_arena.core.effects import Refusal
from freecell_arena.engine import VARIANTS, format_move, variant_by_id
from freecell_arena.protocol.board import PlayedMove
from freecell_arena.protocol.play import MoveAcceptedMessage, MoveRequest, UndoRequest
from freecell_arena.protocol.registry import SERVER_MESSAGES
from freecell_arena.protocol.rooms import CreateRoomRequest, RoomOptions, StartRaceRequest
from freecell_arena.protocol.trusted import Encoded, TrustedEncoder, wire_text
from freecell_arena.protocol.wire import encode


class SteppingClock:
    """Each read is 7 ms after the last, so time_ms varies like it does in a real game."""

    def __init__(self) -> None:
        self.instant = datetime(2026, 3, 1, tzinfo=UTC)

    def now(self) -> datetime:
        self.instant += timedelta(milliseconds=7)
        return self.instant


def play_random_game(variant_id: str, seed: int, actions: int) -> list[str]:
    """The wire text of every `move_accepted` of one random game played through the arena."""
    arena = Arena(SteppingClock())
    player = registered(arena, "trusted", bot=True)
    options = RoomOptions(autoplay=seed % 2 == 0, countdown_s=0, undo_allowed=True)
    hidden = variant_by_id(variant_id).face_down  # its rooms deal from a seed the server draws
    handled(arena, player, CreateRoomRequest(variant=variant_id, seed=None if hidden else seed, options=options))
    handled(arena, player, StartRaceRequest())
    ticked(arena)
    game = arena.play.running_game(player, None, arena.state.clock.now())
    rng = random.Random(seed)
    texts: list[str] = []
    for number in range(actions):
        legal = list(game.game.board.legal_moves)
        undo = game.game.can_undo() and (not legal or rng.random() < 0.2)
        if not legal and not undo:
            break
        request = UndoRequest(id=number) if undo else MoveRequest(
            id=f"m{number}", move=format_move(game.variant, rng.choice(legal))
        )
        try:
            effect = handled(arena, player, request)
        except Refusal:
            continue
        accepted = [reply for reply in effect.replies if isinstance(reply, Encoded)]
        assert [reply.type for reply in accepted] == ["move_accepted"]
        texts.append(accepted[0].text)
        if not game.running:
            break
    return texts


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_every_move_reply_is_exactly_what_the_model_would_send(variant_id: str) -> None:
    texts = [text for seed in range(1, 5) for text in play_random_game(variant_id, seed, 120)]
    assert len(texts) >= 200
    kinds = {"undo": 0, "autoplay": 0, "move": 0}
    for text in texts:
        message = MoveAcceptedMessage.model_validate_json(text)  # extra="forbid": no stray or missing field
        assert encode(message) == text
        assert isinstance(SERVER_MESSAGES.validate_json(text), MoveAcceptedMessage)
        kinds["undo"] += message.action == "undo"
        kinds["autoplay"] += bool(message.autoplay)
        kinds["move"] += message.move is not None
    assert all(kinds.values()), kinds  # undos, autoplay and plain moves were all seen


def test_the_encoder_takes_names_order_and_defaults_from_the_model() -> None:
    encoder = TrustedEncoder(PlayedMove)
    structured = {"from": "tableau", "from_index": 0, "to": "cell", "to_index": 1, "count": 1}
    values = encoder.values(move=structured, notation="1a")  # given out of order
    assert list(values) == list(PlayedMove.model_fields)
    accepted = TrustedEncoder(MoveAcceptedMessage).encode(
        game_id="g_1", index=0, action="1a", move=values, autoplay=[], player_moves=1, single_card_moves=1,
        cards_on_foundations=0, time_ms=5, status="playing", changes={"tableau": {}, "cards_on_foundations": 0},
    )
    message = MoveAcceptedMessage.model_validate_json(accepted.text)
    assert message.id is None and message.undone == [] and message.only_undo_left is False  # the model's defaults
    assert wire_text(accepted) == accepted.text == encode(message)


def test_a_missing_or_unknown_field_is_a_type_error_as_with_the_model() -> None:
    encoder = TrustedEncoder(PlayedMove)
    with pytest.raises(TypeError, match="missing fields \\['move'\\]"):
        encoder.values(notation="1a")
    with pytest.raises(TypeError, match="unknown fields \\['notaton'\\]"):
        encoder.values(notation="1a", move={}, notaton="1a")


def test_wire_names_come_from_aliases() -> None:
    from freecell_arena.protocol.play import MoveJson

    values = TrustedEncoder(MoveJson).values(from_="cell", from_index=0, to="foundation")
    assert list(values) == ["from", "from_index", "to", "to_index", "count"]
    assert MoveJson.model_validate(values).from_ == "cell"


@pytest.mark.parametrize("request_id", ['quote " back \\ slash', "é ☃ \u2028 \n tab\t", 2**53 - 1, -7, None])
def test_a_client_chosen_id_comes_back_as_the_model_would_send_it(request_id: str | int | None) -> None:
    arena = Arena(SteppingClock())
    player = registered(arena, "ids", bot=True)
    handled(arena, player, CreateRoomRequest(variant="freecell", deal=1, options=RoomOptions(countdown_s=0)))
    handled(arena, player, StartRaceRequest())
    ticked(arena)
    effect = arena.handle(player, MoveRequest.model_validate_json(
        MoveRequest(id=request_id, move="1a").model_dump_json()  # through JSON, as a frame arrives
    ))
    text = wire_text(effect.replies[0])
    message = MoveAcceptedMessage.model_validate_json(text)
    assert message.id == request_id and encode(message) == text
