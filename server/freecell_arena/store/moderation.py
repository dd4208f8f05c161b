"""Moderation in the database: roles, reports, the append-only mod log and the sanctions in force.

`act` is the one way a sanction is set or lifted: in one transaction it checks the action against the facts as the
database has them now (`freecell_arena.core.moderation.rules`: the moderator still a moderator, the target not one),
appends the action to the mod log, changes `sanctions`, and derives again what the action changes
(`store.moderation_derive`: boards, ratings, closed days), so a refused action writes nothing and an applied one
leaves every derived number as `freecell-arena audit` recomputes it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from freecell_arena.core.accounts.names import key_hashes
from freecell_arena.core.moderation.ports import Acted, RankedGame, StoredReport, TokenAge
from freecell_arena.core.moderation.rules import (
    REPORT_WINDOW,
    Person,
    Refusal,
    ReportReason,
    check_action,
    check_moderator,
    check_report,
    neutral_name,
    new_report_id,
)
from freecell_arena.core.moderation.sanctions import RECOMPUTING, RESTANDING, Act, InForce, LoggedAction
from freecell_arena.core.ports.records import MoveRecord
from freecell_arena.core.records.sanctioned import Sanctions
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.store.engine import WRITE_OPTION
from freecell_arena.store.models import (
    AccessToken,
    Account,
    ClaimedName,
    Game,
    ModAction,
    Moderator,
    Move,
    NameKey,
    Player,
    Report,
    RetiredName,
    Sanction,
    table_of,
)
from freecell_arena.store.moderation_derive import close_days, place_games, played_variants, rate_again, rated_variants
from freecell_arena.store.sanction_reads import lock_ratings, sanctions_in_force
from freecell_arena.store.tournaments import derive_standings

players = table_of(Player)
accounts = table_of(Account)
moderators = table_of(Moderator)
reports = table_of(Report)
mod_log = table_of(ModAction)
sanctions = table_of(Sanction)
retired = table_of(RetiredName)
tokens = table_of(AccessToken)
claimed = table_of(ClaimedName)
name_keys = table_of(NameKey)
games = table_of(Game)
moves = table_of(Move)

OPEN = "open"
ACTED = "acted"
DISMISSED = "dismissed"


def _entry(row: Any) -> LoggedAction:
    return LoggedAction(row.id, row.at, row.moderator_id, Act(row.action), row.target_id, row.game_id, row.lifts,
                        row.reason, row.public_reason, dict(row.detail or {}))  # fmt: skip


def _held(row: Any) -> InForce:
    return InForce(row.action_id, row.player_id, Act(row.kind), row.game_id, row.public_reason, row.at, row.reason)


def _in_force_query() -> Any:
    """The sanctions in force, each with the reason its mod log action gives."""
    return select(sanctions, mod_log.c.reason).join(mod_log, mod_log.c.id == sanctions.c.action_id)


def _report(row: Any) -> StoredReport:
    return StoredReport(row.id, row.reporter_id, row.target_id, row.reason, row.note, row.source, row.game_id,
                        row.created_at, row.status, bool(getattr(row, "opponent", False)))  # fmt: skip


def _reports_query() -> Any:
    """Reports, each saying whether its reporter raced the target: in the race of the game it names, or (naming
    none) in any race (the games' room and player indexes)."""
    targets, reporters = games.alias("target_game"), games.alias("reporter_game")
    raced = (select(targets.c.id).join(reporters, reporters.c.room_id == targets.c.room_id)
             .where(targets.c.player_id == reports.c.target_id, reporters.c.player_id == reports.c.reporter_id,
                    or_(reports.c.game_id.is_(None), targets.c.id == reports.c.game_id)))  # fmt: skip
    return select(reports, raced.exists().label("opponent"))


def _person_query() -> Any:
    return (
        select(players.c.id, players.c.display_name, players.c.bot, players.c.created_at,
               accounts.c.player_id.label("saved"), moderators.c.player_id.label("moderator"))
        .outerjoin(accounts, accounts.c.player_id == players.c.id)
        .outerjoin(moderators, moderators.c.player_id == players.c.id)
    )  # fmt: skip


def _person(row: Any) -> Person:
    return Person(row.id, row.display_name, bool(row.bot), row.saved is not None, row.moderator is not None,
                  row.created_at)  # fmt: skip


async def person_in(connection: AsyncConnection, player_id: str) -> Person | None:
    row = (await connection.execute(_person_query().where(players.c.id == player_id))).first()
    return _person(row) if row else None


class ModerationStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------ people and roles

    async def person(self, player_id: str) -> Person | None:
        async with self.engine.connect() as connection:
            return await person_in(connection, player_id)

    async def is_moderator(self, player_id: str) -> bool:
        """The stored role, read now: a revoked moderator is refused from the next request on, on every process."""
        async with self.engine.connect() as connection:
            found = await connection.execute(select(moderators.c.player_id).where(moderators.c.player_id == player_id))
            return found.first() is not None

    async def find(self, text: str, limit: int = 20) -> list[Person]:
        """Players by id, by claimed name (look-alikes included) or by a displayed name beginning with `text`."""
        text = text.strip()
        if not text:
            return []
        by_key = select(name_keys.c.player_id).where(name_keys.c.key_hash.in_(sorted(key_hashes(text))))
        prefix = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        query = _person_query().where(or_(players.c.id == text, players.c.id.in_(by_key),
                                          func.lower(players.c.display_name).like(prefix, escape="\\")))  # fmt: skip
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query.order_by(players.c.display_name, players.c.id).limit(limit))).all()
        return [_person(row) for row in rows]

    async def resolve(self, name_or_id: str) -> Person:
        """The one player a command line's NAME means: an id, a claimed name (or a look-alike), or a displayed
        name only one player has."""
        found = await self.find(name_or_id, 50)
        keys = set(key_hashes(name_or_id))
        exact = [person for person in found if person.player_id == name_or_id] or [
            person for person in found if person.name == name_or_id or keys & set(key_hashes(person.name))]
        if len(exact) != 1:
            what = "no player goes" if not exact else f"{len(exact)} players go"
            raise Refusal(ErrorCode.unknown_player, f"{what} by {name_or_id!r}: give a player id")
        return exact[0]

    async def moderator_list(self) -> list[tuple[Person, datetime]]:
        query = _person_query().add_columns(moderators.c.granted_at).where(moderators.c.player_id.is_not(None))
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query.order_by(moderators.c.granted_at))).all()
        return [(_person(row), row.granted_at) for row in rows]

    # ------------------------------------------------------------------ the log and the sanctions in force

    async def log(self, limit: int = 50, before: int | None = None, target_id: str | None = None) -> list[LoggedAction]:
        """The newest actions first (`before`: older than that action)."""
        query = select(mod_log).order_by(mod_log.c.id.desc()).limit(limit)
        if before is not None:
            query = query.where(mod_log.c.id < before)
        if target_id is not None:
            query = query.where(mod_log.c.target_id == target_id)
        async with self.engine.connect() as connection:
            return [_entry(row) for row in await connection.execute(query)]

    async def since(self, after: int, limit: int = 200) -> list[LoggedAction]:
        """Actions after `after`, oldest first (a process following the log)."""
        query = select(mod_log).where(mod_log.c.id > after).order_by(mod_log.c.id).limit(limit)
        async with self.engine.connect() as connection:
            return [_entry(row) for row in await connection.execute(query)]

    async def head(self) -> int:
        async with self.engine.connect() as connection:
            return int((await connection.execute(select(func.max(mod_log.c.id)))).scalar_one_or_none() or 0)

    async def whole_log(self) -> list[LoggedAction]:
        """Every action, oldest first (the audit's replay)."""
        async with self.engine.connect() as connection:
            return [_entry(row) for row in await connection.execute(select(mod_log).order_by(mod_log.c.id))]

    async def in_force(self, player_id: str | None = None) -> list[InForce]:
        query = _in_force_query().order_by(sanctions.c.action_id)
        if player_id is not None:
            query = query.where(sanctions.c.player_id == player_id)
        async with self.engine.connect() as connection:
            return [_held(row) for row in await connection.execute(query)]

    async def ban_of(self, player_id: str) -> InForce | None:
        """The ban in force on the player, if any (a hello reads it: one index lookup)."""
        query = _in_force_query().where(sanctions.c.player_id == player_id, sanctions.c.kind == Act.BAN.value)
        async with self.engine.connect() as connection:
            row = (await connection.execute(query.limit(1))).first()
        return _held(row) if row else None

    # ------------------------------------------------------------------ acting

    async def act(self, act: Act, target_id: str, actor_id: str | None, reason: str, now: datetime, *,
                  public_reason: str = "", game_id: str | None = None, lifts: int | None = None) -> Acted:  # fmt: skip
        """Check, log and apply one action in one transaction (refused: `Refusal`, nothing written)."""
        async with self.engine.connect() as connection:
            connection = await connection.execution_options(**{WRITE_OPTION: True})
            async with connection.begin():
                return await self._act(connection, act, target_id, actor_id, reason, now, public_reason, game_id,
                                       lifts)  # fmt: skip

    async def _act(self, connection: AsyncConnection, act: Act, target_id: str, actor_id: str | None, reason: str,
                   now: datetime, public_reason: str, game_id: str | None, lifts: int | None) -> Acted:  # fmt: skip
        if actor_id is not None:
            check_moderator(await person_in(connection, actor_id))
        target = await person_in(connection, target_id)
        held = [_held(row) for row in await connection.execute(_in_force_query()
                                                               .where(sanctions.c.player_id == target_id))]  # fmt: skip
        owner = None
        if act is Act.VOID and game_id is not None:
            owner = (await connection.execute(select(games.c.player_id).where(
                games.c.id == game_id, games.c.ranked == True, games.c.outcome.is_not(None)))).scalar_one_or_none()  # noqa: E712  # fmt: skip
        lifted = next((sanction for sanction in held if sanction.action_id == lifts), None)
        check_action(act, actor_id, target, held, game_id=game_id, game_owner=owner, lifts=lifted)
        kind = lifted.kind if lifted is not None else act
        if act is Act.LIFT and lifted is not None:
            game_id = lifted.game_id
        scope = [game_id] if kind is Act.VOID and game_id else None
        rooms_by_variant = await rated_variants(connection, target_id, scope) if kind in RECOMPUTING else {}
        if kind in RECOMPUTING:  # before the log's head moves: races of theirs being rated wait, then count again
            await lock_ratings(connection, await played_variants(connection, target_id))
        detail: dict[str, Any] = {"name": target.name} if target is not None else {}
        if kind is Act.RENAME:
            detail |= await self._rename(connection, target_id, lifted, now)
        row = {"at": now, "moderator_id": actor_id, "action": act.value, "target_id": target_id, "game_id": game_id,
               "lifts": lifts if act is Act.LIFT else None, "reason": reason, "public_reason": public_reason,
               "detail": detail}  # fmt: skip
        action_id = int((await connection.execute(insert(mod_log).values(row).returning(mod_log.c.id))).scalar_one())
        if kind is Act.RENAME and lifted is None:
            await connection.execute(insert(retired), [{"key_hash": key, "action_id": action_id}
                                                       for key in detail["retired"]])  # fmt: skip
        revoked: list[str] = []
        if act is Act.GRANT:
            await connection.execute(insert(moderators).values(player_id=target_id, granted_at=now))
        elif act is Act.REVOKE:
            await connection.execute(delete(moderators).where(moderators.c.player_id == target_id))
        elif act is Act.LIFT:
            await connection.execute(delete(sanctions).where(sanctions.c.action_id == lifts))
        elif act is not Act.DISMISS:
            await connection.execute(insert(sanctions).values(
                action_id=action_id, player_id=target_id, kind=act.value, game_id=game_id, public_reason=public_reason,
                at=now))  # fmt: skip
        if act is Act.BAN:
            revoked = list((await connection.execute(
                update(tokens).where(tokens.c.player_id == target_id, tokens.c.revoked_at.is_(None))
                .values(revoked_at=now).returning(tokens.c.token_hash))).scalars())  # fmt: skip
        if kind in RECOMPUTING | RESTANDING:
            await _derive_again(connection, kind, target_id, scope, rooms_by_variant, now)
        if act in (Act.MARK, Act.BAN, Act.RENAME, Act.VOID, Act.DISMISS):
            await connection.execute(update(reports).where(reports.c.target_id == target_id, reports.c.status == OPEN)
                                     .values(status=DISMISSED if act is Act.DISMISS else ACTED, closed_at=now,
                                             closed_by=action_id))  # fmt: skip
        entry = LoggedAction(action_id, now, actor_id, act, target_id, game_id, lifts if act is Act.LIFT else None,
                             reason, public_reason, detail)  # fmt: skip
        return Acted(entry, revoked)

    @staticmethod
    async def _rename(connection: AsyncConnection, target_id: str, lifted: InForce | None,
                      now: datetime) -> dict[str, Any]:  # fmt: skip
        """A rename: the name replaced by a neutral one and its keys retired; a lift of one: the name given back
        (its keys no longer retired, the player's claim on it restored)."""
        current = str((await connection.execute(select(players.c.display_name)
                                                .where(players.c.id == target_id))).scalar_one())  # fmt: skip
        saved = (await connection.execute(select(claimed.c.player_id).where(claimed.c.player_id == target_id))).first()
        if lifted is None:
            placeholder = neutral_name(target_id)
            keys = sorted(key_hashes(current))
            taken = set((await connection.execute(select(retired.c.key_hash).where(retired.c.key_hash.in_(keys))))
                        .scalars())  # fmt: skip
            await connection.execute(delete(name_keys).where(name_keys.c.player_id == target_id))
            await _name(connection, target_id, placeholder, saved is not None, now)
            return {"old": current, "placeholder": placeholder, "retired": [key for key in keys if key not in taken]}
        renamed = (await connection.execute(select(mod_log.c.detail)
                                            .where(mod_log.c.id == lifted.action_id))).scalar_one()  # fmt: skip
        await connection.execute(delete(retired).where(retired.c.action_id == lifted.action_id))
        await connection.execute(delete(name_keys).where(name_keys.c.player_id == target_id))
        await _name(connection, target_id, renamed["old"], saved is not None, now)
        if saved is not None:
            await connection.execute(insert(name_keys), [{"key_hash": key, "player_id": target_id}
                                                         for key in sorted(key_hashes(renamed["old"]))])  # fmt: skip
        return {"restored": renamed["old"], "replaced": current}

    async def choose_name(self, player_id: str, name: str, now: datetime) -> None:
        """A renamed player's new name (while the rename is in force and the name is still the neutral one): free,
        not retired; claimed for good when the player is saved."""
        keys = sorted(key_hashes(name))
        async with self.engine.connect() as connection:
            connection = await connection.execution_options(**{WRITE_OPTION: True})
            async with connection.begin():
                rename = (await connection.execute(
                    select(mod_log.c.detail).join(sanctions, sanctions.c.action_id == mod_log.c.id)
                    .where(sanctions.c.player_id == player_id,
                           sanctions.c.kind == Act.RENAME.value))).first()  # fmt: skip
                current = (await connection.execute(
                    select(players.c.display_name).where(players.c.id == player_id))).scalar_one_or_none()  # fmt: skip
                if rename is None or current != rename.detail["placeholder"]:
                    raise Refusal(ErrorCode.not_allowed, "only a player whose name a moderator replaced chooses a new "
                                                         "one here")  # fmt: skip
                holder = (await connection.execute(select(name_keys.c.player_id)
                                                   .where(name_keys.c.key_hash.in_(keys)))).first()  # fmt: skip
                gone = (await connection.execute(
                    select(retired.c.key_hash).where(retired.c.key_hash.in_(keys)))).first()  # fmt: skip
                if holder is not None or gone is not None:
                    raise Refusal(ErrorCode.name_taken, f"{name!r} is taken: choose another")
                saved = (await connection.execute(select(claimed.c.player_id)
                                                  .where(claimed.c.player_id == player_id))).first()  # fmt: skip
                await _name(connection, player_id, name, saved is not None, now)
                if saved is not None:
                    try:
                        await connection.execute(insert(name_keys), [{"key_hash": key, "player_id": player_id}
                                                                     for key in keys])  # fmt: skip
                    except IntegrityError:
                        raise Refusal(ErrorCode.name_taken, f"{name!r} is taken: choose another") from None

    # ------------------------------------------------------------------ reports

    async def file_report(self, reporter: Person, target_id: str, reason: ReportReason, text: str,
                          game_id: str | None, address: str, now: datetime) -> str:  # fmt: skip
        """A player's report, within the limits (`core.moderation.rules.check_report`); its id."""
        since = now - REPORT_WINDOW
        async with self.engine.connect() as connection:
            connection = await connection.execution_options(**{WRITE_OPTION: True})
            async with connection.begin():
                target = await person_in(connection, target_id)
                filed = await _count(connection, reports.c.reporter_id == reporter.player_id, since)
                from_address = await _count(connection, reports.c.address == address, since)
                open_one = (await connection.execute(select(reports.c.id).where(
                    reports.c.reporter_id == reporter.player_id, reports.c.target_id == target_id,
                    reports.c.status == OPEN))).first()  # fmt: skip
                check_report(reporter, target, filed_today=filed, from_address_today=from_address,
                             open_on_target=open_one is not None)  # fmt: skip
                report_id = new_report_id()
                try:
                    await connection.execute(insert(reports).values(
                        id=report_id, reporter_id=reporter.player_id, target_id=target_id, reason=reason.value,
                        note=text, source="player", game_id=game_id, address=address[:64], created_at=now,
                        status=OPEN))  # fmt: skip
                except IntegrityError:
                    raise Refusal(ErrorCode.already_reported, "your report of this player is open already") from None
        return report_id

    async def auto_report(self, target_id: str, game_id: str, text: str, now: datetime) -> str | None:
        """The server's own report of a suspicious win (one open at a time per player); None if one is open."""
        async with self.engine.connect() as connection:
            connection = await connection.execution_options(**{WRITE_OPTION: True})
            async with connection.begin():
                open_one = (await connection.execute(select(reports.c.id).where(
                    reports.c.reporter_id.is_(None), reports.c.target_id == target_id,
                    reports.c.status == OPEN))).first()  # fmt: skip
                if open_one is not None:
                    return None
                report_id = new_report_id()
                await connection.execute(insert(reports).values(
                    id=report_id, reporter_id=None, target_id=target_id, reason=ReportReason.HELP.value, note=text,
                    source="auto", game_id=game_id, address="", created_at=now, status=OPEN))  # fmt: skip
        return report_id

    async def reports_by(self, reporter_id: str, limit: int = 50) -> list[StoredReport]:
        query = select(reports).where(reports.c.reporter_id == reporter_id)
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query.order_by(reports.c.created_at.desc()).limit(limit))).all()
        return [_report(row) for row in rows]

    async def reports_on(self, target_id: str, limit: int = 50) -> list[StoredReport]:
        query = _reports_query().where(reports.c.target_id == target_id)
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query.order_by(reports.c.created_at.desc()).limit(limit))).all()
        return [_report(row) for row in rows]

    async def queue(self, limit: int = 50) -> list[tuple[Person, list[StoredReport]]]:
        """The open reports by target, the target with the most first (then the oldest report first)."""
        async with self.engine.connect() as connection:
            counted = (await connection.execute(
                select(reports.c.target_id, func.count().label("open"), func.min(reports.c.created_at).label("first"))
                .where(reports.c.status == OPEN).group_by(reports.c.target_id)
                .order_by(func.count().desc(), func.min(reports.c.created_at)).limit(limit))).all()  # fmt: skip
            queue = []
            for row in counted:
                person = await person_in(connection, row.target_id)
                found = (await connection.execute(_reports_query().where(
                    reports.c.target_id == row.target_id, reports.c.status == OPEN)
                    .order_by(reports.c.created_at))).all()  # fmt: skip
                if person is not None:
                    queue.append((person, [_report(report) for report in found]))
        return queue

    # ------------------------------------------------------------------ what evidence is made of

    async def ranked_games(self, player_id: str, limit: int) -> list[RankedGame]:
        """The player's newest finished ranked games with their moves (the history index, then moves by key)."""
        query = (select(games).where(games.c.player_id == player_id, games.c.outcome.is_not(None),
                                     games.c.ranked == True)  # noqa: E712
                 .order_by(games.c.finished_at.desc(), games.c.id.desc()).limit(limit))  # fmt: skip
        async with self.engine.connect() as connection:
            return await _with_moves(connection, (await connection.execute(query)).all())

    async def game_moves(self, game_id: str) -> RankedGame | None:
        """One finished game with its moves (a win the server screens for a program's rhythm)."""
        query = select(games).where(games.c.id == game_id, games.c.outcome.is_not(None))
        async with self.engine.connect() as connection:
            found = await _with_moves(connection, (await connection.execute(query)).all())
        return found[0] if found else None

    async def names_of(self, player_ids: Sequence[str]) -> dict[str, str]:
        if not player_ids:
            return {}
        query = select(players.c.id, players.c.display_name).where(players.c.id.in_(sorted(set(player_ids))))
        async with self.engine.connect() as connection:
            return {row.id: row.display_name for row in await connection.execute(query)}

    async def void_days(self, player_id: str, variant: str) -> frozenset[date]:
        """The days of the player's void daily games in a variant (they count for no streak)."""
        query = (select(games.c.daily_day).join(sanctions, sanctions.c.game_id == games.c.id)
                 .where(sanctions.c.player_id == player_id, sanctions.c.kind == Act.VOID.value,
                        games.c.variant == variant, games.c.daily_day.is_not(None)))  # fmt: skip
        async with self.engine.connect() as connection:
            return frozenset((await connection.execute(query)).scalars())

    async def owner_of(self, game_id: str) -> str | None:
        """The player of a finished ranked game (what a void names)."""
        async with self.engine.connect() as connection:
            found: str | None = (await connection.execute(select(games.c.player_id).where(
                games.c.id == game_id, games.c.ranked == True, games.c.outcome.is_not(None)))).scalar_one_or_none()  # noqa: E712  # fmt: skip
        return found

    async def token_ages(self, player_id: str) -> list[TokenAge]:
        query = select(tokens).where(tokens.c.player_id == player_id).order_by(tokens.c.created_at)
        async with self.engine.connect() as connection:
            return [TokenAge(row.kind, row.created_at, row.last_used_at, row.revoked_at is not None)
                    for row in await connection.execute(query)]  # fmt: skip

    async def saved_at(self, player_id: str) -> datetime | None:
        async with self.engine.connect() as connection:
            found: datetime | None = (await connection.execute(select(accounts.c.created_at).where(
                accounts.c.player_id == player_id))).scalar_one_or_none()  # fmt: skip
        return found

    async def sanctions(self) -> Sanctions:
        async with self.engine.connect() as connection:
            return await sanctions_in_force(connection)


async def _with_moves(connection: AsyncConnection, rows: Sequence[Any]) -> list[RankedGame]:
    found: list[RankedGame] = []
    for row in rows:
        played = (await connection.execute(select(moves).where(moves.c.game_id == row.id)
                                           .order_by(moves.c.index))).all()  # fmt: skip
        made = [MoveRecord(row.id, move._mapping["index"], move.notation, move.at) for move in played]
        found.append(RankedGame(row.id, row.variant, row.seed, row.daily_day, row.started_at, row.outcome,
                                row.player_moves or 0, row.time_ms or 0, row.board, row.flagged, made))  # fmt: skip
    return found


async def _count(connection: AsyncConnection, who: Any, since: datetime) -> int:
    return int((await connection.execute(select(func.count()).select_from(reports).where(
        who, reports.c.created_at >= since))).scalar_one())  # fmt: skip


async def _name(connection: AsyncConnection, player_id: str, name: str, saved: bool, now: datetime) -> None:
    await connection.execute(update(players).where(players.c.id == player_id).values(display_name=name))
    if saved:
        await connection.execute(update(claimed).where(claimed.c.player_id == player_id)
                                 .values(name=name, claimed_at=now))  # fmt: skip


@dataclass(frozen=True, slots=True)
class Touched:
    """What a mark, a void, a ban or their lift touches: the sanction's kind, the player, the game (a void's) or
    None (all of theirs), the rooms of those games by variant, and the sanctions in force once the action is
    applied."""

    kind: Act
    player_id: str
    game_ids: Sequence[str] | None
    rooms_by_variant: dict[str, set[str]]
    sanctions: Sanctions
    now: datetime


Derivation = Callable[[AsyncConnection, Touched], Awaitable[None]]
"""One kind of derived number made again after a sanction, in the sanction's transaction."""


async def _boards_and_days(connection: AsyncConnection, touched: Touched) -> None:
    if touched.kind not in RECOMPUTING:
        return
    days = await place_games(connection, touched.player_id, touched.sanctions, touched.game_ids)
    await close_days(connection, days)


async def _ratings(connection: AsyncConnection, touched: Touched) -> None:
    if touched.kind not in RECOMPUTING:
        return
    for variant, room_ids in sorted(touched.rooms_by_variant.items()):
        await rate_again(connection, variant, room_ids, touched.sanctions, touched.now)


async def _standings(connection: AsyncConnection, touched: Touched) -> None:
    if touched.kind in RESTANDING:
        await derive_standings(connection, touched.player_id)


DERIVED_AGAIN: list[Derivation] = [_boards_and_days, _ratings, _standings]
"""Everything a sanction derives again, in order, each for the kinds it depends on: boards, closed days and ratings
(a mark, a void), and the stored tables of the tournaments the player entered (a mark, a void, a ban:
`store.tournaments.derive_standings`, counted with `core.moderation.sanctions` as the boards are; the audit
recomputes them with the sanctions in force)."""


async def _derive_again(connection: AsyncConnection, kind: Act, target_id: str, scope: Sequence[str] | None,
                        rooms_by_variant: dict[str, set[str]], now: datetime) -> None:  # fmt: skip
    """Every derived number as the sanctions in force (this action's included) make them (`DERIVED_AGAIN`)."""
    touched = Touched(kind, target_id, scope, rooms_by_variant, await sanctions_in_force(connection), now)
    for derive in DERIVED_AGAIN:
        await derive(connection, touched)
