"""Who may do what to whom: the checks of a moderation action and of a player's report, as plain logic.

The store reads the facts (the target, the moderator, the sanctions in force) inside the action's transaction and
asks these; a refusal raises `Refusal` before anything is written, so a refused action changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from freecell_arena.core.effects import Refusal
from freecell_arena.core.identity import new_id
from freecell_arena.core.moderation.sanctions import OPERATOR, Act, InForce
from freecell_arena.protocol.errors import ErrorCode

__all__ = ["Person", "Refusal", "ReportReason", "check_action", "check_moderator", "check_reason", "check_report",
           "neutral_name", "new_report_id"]  # fmt: skip

REASON_MIN = 3
"""A reason says something: at least this many characters (a moderator's required reason)."""
REASON_MAX = 500
PUBLIC_REASON_MAX = 200
REPORT_TEXT_MAX = 500
REPORTS_PER_DAY = 10
"""Reports one player may file in a day (UTC, rolling): enough for a bad day of races, too few to flood."""
REPORTS_PER_ADDRESS_PER_DAY = 20
"""Reports from one address in a day, whoever files them: many new identities on one machine share it."""
REPORT_WINDOW = timedelta(days=1)


class ReportReason(StrEnum):
    HELP = "help"
    """Playing with help, or a program playing as a person."""
    NAME = "name"
    """An offensive name."""
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class Person:
    """A player as the checks need them."""

    player_id: str
    name: str
    bot: bool
    saved: bool
    moderator: bool
    created_at: datetime


def check_moderator(actor: Person | None) -> None:
    """A moderator request from a player the store does not hold as a moderator now: `not_allowed`."""
    if actor is None or not actor.moderator:
        raise Refusal(ErrorCode.not_allowed, "only a moderator may do this")


def check_reason(reason: str) -> str:
    reason = " ".join(reason.split())
    if len(reason) < REASON_MIN:
        raise Refusal(ErrorCode.invalid_message, "every moderation action needs a reason (a few words at least)")
    return reason[:REASON_MAX]


def check_action(act: Act, actor_id: str | None, target: Person | None, held: Sequence[InForce], *,
                 game_id: str | None = None, game_owner: str | None = None,
                 lifts: InForce | None = None) -> None:  # fmt: skip
    """Refuse an action that cannot be: on nobody, on oneself or another moderator, twice, or a lift of nothing.
    `actor_id` None is the operator (the command line), who may grant and revoke; `held`: the target's sanctions in
    force; `game_owner`: the player of the game a void names; `lifts`: the sanction a lift names."""
    if target is None:
        raise Refusal(ErrorCode.unknown_player, "there is no such player")
    if act in (Act.GRANT, Act.REVOKE):
        if actor_id is not None:
            raise Refusal(ErrorCode.not_allowed, "moderators are made and unmade by the operator, on the command line")
        if act is Act.GRANT and (not target.saved or target.bot):
            raise Refusal(ErrorCode.not_saved, f"{target.name} is not a saved player: only a player with a passkey can "
                                               "be a moderator")  # fmt: skip
        if (act is Act.GRANT) == target.moderator:
            raise Refusal(ErrorCode.invalid_message, f"{target.name} is {'already' if target.moderator else 'not'} a "
                                                     "moderator")  # fmt: skip
        return
    if actor_id is not None and target.player_id == actor_id:
        raise Refusal(ErrorCode.not_allowed, "a moderator cannot act on themselves")
    if target.moderator and act is not Act.LIFT:
        raise Refusal(ErrorCode.not_allowed, "a moderator cannot be sanctioned: the operator revokes the role first")
    kinds = {sanction.kind for sanction in held}
    if act in (Act.MARK, Act.BAN) and act in kinds:
        state = "marked" if act is Act.MARK else "banned"
        raise Refusal(ErrorCode.invalid_message, f"{target.name} is already {state}")
    if act is Act.RENAME and Act.RENAME in kinds:
        raise Refusal(ErrorCode.invalid_message, f"{target.name}'s name was replaced already: lift that first")
    if act is Act.VOID:
        if game_owner != target.player_id:
            raise Refusal(ErrorCode.unknown_game, "void names a finished ranked game of the player")
        if any(sanction.kind is Act.VOID and sanction.game_id == game_id for sanction in held):
            raise Refusal(ErrorCode.invalid_message, "that game is void already")
    if act is Act.LIFT and (lifts is None or lifts.player_id != target.player_id):
        raise Refusal(ErrorCode.not_found, "lift names a sanction of this player that is in force (see the log)")


def actor_name(moderator_name: str | None) -> str:
    return moderator_name or OPERATOR


def check_report(reporter: Person, target: Person | None, *, filed_today: int, from_address_today: int,
                 open_on_target: bool) -> None:  # fmt: skip
    """Refuse a report from someone who may not, of someone who cannot be reported, or one too many."""
    if not reporter.saved:
        raise Refusal(ErrorCode.not_saved, "save your player with a passkey to report another")
    if target is None:
        raise Refusal(ErrorCode.unknown_player, "there is no such player")
    if target.player_id == reporter.player_id:
        raise Refusal(ErrorCode.invalid_message, "you cannot report yourself")
    if open_on_target:
        raise Refusal(ErrorCode.already_reported, f"your report of {target.name} is open already: moderators will "
                                                  "look at it")  # fmt: skip
    if filed_today >= REPORTS_PER_DAY or from_address_today >= REPORTS_PER_ADDRESS_PER_DAY:
        raise Refusal(ErrorCode.rate_limited, f"at most {REPORTS_PER_DAY} reports a day: try again tomorrow")


def new_report_id() -> str:
    return new_id("rep")


def neutral_name(player_id: str) -> str:
    """The name a renamed player goes by until they choose another: nobody's choice, and nobody else's."""
    return f"Player {player_id[-6:]}"
