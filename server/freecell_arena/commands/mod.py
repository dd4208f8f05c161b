"""`freecell-arena mod ...`: moderators and sanctions from the command line, for an operator without a browser.

    mod grant NAME | revoke NAME               make a saved player a moderator, or no longer
    mod list                                   the moderators
    mod mark NAME --reason R                   playing with help: results off the humans' boards, ratings again
    mod ban NAME --reason R --public-reason P  tokens revoked, connections closed, hello refused
    mod rename NAME --reason R                 the name replaced; the player chooses another
    mod void GAME --reason R                   one game off every board
    mod lift ACTION --reason R                 undo a sanction (its mod log number)
    mod dismiss NAME --reason R                close the open reports on a player without a sanction
    mod show NAME                              sanctions in force, reports, the player's log
    mod reports                                the open reports, by player
    mod log [--limit N] [--player NAME]        the mod log, newest first

NAME is a player id, a claimed name or a displayed name only one player has. Every action goes through the same
store call as the console's (`freecell_arena.store.moderation.ModerationStore.act`), as the operator: the mod log
records it with no moderator. Running servers follow the mod log (a ban closes the player's connection within a
second on every process). Exit 0 when done, 2 when refused (the reason on stderr).
"""

from __future__ import annotations

import argparse
import asyncio
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from freecell_arena.commands.common import fail
from freecell_arena.store import DATABASE_URL_ENV, DEFAULT_DATABASE_URL, database_url_from_env

if TYPE_CHECKING:
    from freecell_arena.core.moderation.sanctions import LoggedAction
    from freecell_arena.store.moderation import ModerationStore

ACTIONS = {
    "grant": "make a saved player a moderator",
    "revoke": "take the moderator role back",
    "mark": "mark as playing with help",
    "ban": "ban: tokens revoked, connections closed, hello refused",
    "rename": "replace an offensive name",
    "void": "void one game (GAME is its id)",
    "lift": "lift a sanction (ACTION is its mod log number)",
    "dismiss": "close a player's open reports without a sanction",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database-url", metavar="URL", default=None,
                        help=f"default: ${DATABASE_URL_ENV}, else {DEFAULT_DATABASE_URL}")  # fmt: skip
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    for verb, summary in ACTIONS.items():
        act = verbs.add_parser(verb, help=summary, description=summary)
        act.add_argument("subject", metavar={"void": "GAME", "lift": "ACTION"}.get(verb, "NAME"))
        act.add_argument("--reason", required=verb not in ("grant", "revoke"),
                         default="by the operator", help="why (kept in the mod log; moderators see it)")  # fmt: skip
        if verb == "ban":
            act.add_argument("--public-reason", required=True, help="what the player is told when refused")
    verbs.add_parser("list", help="the moderators")
    verbs.add_parser("reports", help="the open reports, by player")
    show = verbs.add_parser("show", help="a player's sanctions in force, reports and log")
    show.add_argument("subject", metavar="NAME")
    log = verbs.add_parser("log", help="the mod log, newest first")
    log.add_argument("--limit", type=int, default=50)
    log.add_argument("--player", metavar="NAME", default=None)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from freecell_arena.core.effects import Refusal
    from freecell_arena.store import StoreError

    url = args.database_url or database_url_from_env()
    try:
        return asyncio.run(_run(url, args))
    except Refusal as refusal:
        return fail(refusal.message)
    except (StoreError, SQLAlchemyError, OSError) as error:
        cause = getattr(error, "orig", None) or error
        return fail(f"cannot moderate: {' '.join(str(cause).split()) or type(cause).__name__}")


async def _run(url: str, args: argparse.Namespace) -> int:
    from freecell_arena.store import SqlStore, check_migrated
    from freecell_arena.store.moderation import ModerationStore

    await check_migrated(url)
    store = SqlStore(url)
    try:
        return await _verb(ModerationStore(store.engine), args)
    finally:
        await store.close()


async def _verb(mods: ModerationStore, args: argparse.Namespace) -> int:
    from freecell_arena.core.effects import Refusal
    from freecell_arena.core.moderation.rules import check_reason
    from freecell_arena.core.moderation.sanctions import Act
    from freecell_arena.protocol.errors import ErrorCode

    if args.verb == "list":
        for person, since in await mods.moderator_list():
            print(f"{person.player_id}  {person.name}  since {since.isoformat()}")
        return 0
    if args.verb == "reports":
        for person, open_reports in await mods.queue():
            print(f"{person.player_id}  {person.name}: {len(open_reports)} open")
            for report in open_reports:
                print(f"  {report.created_at.isoformat()}  {report.source}  {report.reason}  {report.text!r}")
        return 0
    if args.verb == "log":
        target = (await mods.resolve(args.player)).player_id if args.player else None
        for entry in await mods.log(args.limit, target_id=target):
            print(describe(entry))
        return 0
    if args.verb == "show":
        person = await mods.resolve(args.subject)
        role = ", moderator" if person.moderator else ""
        print(f"{person.player_id}  {person.name}{' (bot)' if person.bot else ''}{role}")
        for held in await mods.in_force(person.player_id):
            print(f"  in force: #{held.action_id} {held.kind}{' of game ' + held.game_id if held.game_id else ''}"
                  f" since {held.at.isoformat()}")  # fmt: skip
        for report in await mods.reports_on(person.player_id):
            print(f"  report {report.status}: {report.reason} {report.text!r} ({report.created_at.isoformat()})")
        for entry in await mods.log(20, target_id=person.player_id):
            print(f"  {describe(entry)}")
        return 0
    act = Act(args.verb)
    reason = check_reason(args.reason)
    game_id = lifts = None
    if act is Act.VOID:
        game_id = args.subject
        owner = await mods.owner_of(game_id)
        if owner is None:
            raise Refusal(ErrorCode.unknown_game, f"no finished ranked game {game_id!r}")
        target_id = owner
    elif act is Act.LIFT:
        lifts = _number(args.subject)
        lifted = next((held for held in await mods.in_force() if held.action_id == lifts), None)
        if lifted is None:
            raise Refusal(ErrorCode.not_found, f"no sanction #{args.subject} is in force (see `mod log`)")
        target_id = lifted.player_id
    else:
        target_id = (await mods.resolve(args.subject)).player_id
    acted = await mods.act(act, target_id, None, reason, datetime.now(UTC), game_id=game_id, lifts=lifts,
                           public_reason=getattr(args, "public_reason", "") or "")  # fmt: skip
    print(describe(acted.entry))
    return 0


def _number(text: str) -> int:
    from freecell_arena.core.effects import Refusal
    from freecell_arena.protocol.errors import ErrorCode

    try:
        return int(text.lstrip("#"))
    except ValueError:
        raise Refusal(ErrorCode.invalid_message, f"ACTION is a mod log number, not {text!r}") from None


def describe(entry: LoggedAction) -> str:
    """One line of the log: number, when, who, what, to whom, why."""
    who = entry.moderator_id or "operator"
    what = f"{entry.act}" + (f" game {entry.game_id}" if entry.game_id else "") + (
        f" (lifts #{entry.lifts})" if entry.lifts else "")  # fmt: skip
    public = f" [public: {entry.public_reason}]" if entry.public_reason else ""
    return f"#{entry.action_id} {entry.at.isoformat()} {who}: {what} {entry.target_id}: {entry.reason}{public}"
