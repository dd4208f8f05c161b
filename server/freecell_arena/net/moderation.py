"""Moderation over the websocket: players' reports, the moderators' console, and every process following the mod log.

- `ModerationRequests` answers the requests of `MODERATION_TYPES`. A moderator's request is checked against the stored
  role when it is made (one primary-key read), so a revoked moderator is refused from their next request on, on
  every process, without anything to tell the processes. Actions go through the store's one call
  (`ModerationPort.act`), which checks them again inside its transaction. The database away answers
  `storage_failed` (`guarded`), never `internal_error`.
- `LogFollower` reads the mod log every `FOLLOW_INTERVAL_S` on every process (the command line's actions too): a
  ban closes the player's connection here and takes them out of live play; a rename shows the new name here; the
  consoles open here are told (`Consoles`: `mod_logged`), so they refresh without a reload.
- `WinScreen` sits in front of the record writer: a human's ranked win that passed the fair-play floor is looked
  at again in the background, and one as regular as a program's raises the server's own report. On a move it
  costs a type check per record.
- Evidence is worked out when a moderator asks, off the event loop where it solves (the par service's worker)
  and compares lines (a thread).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, cast

from freecell_arena.core.clock import Clock
from freecell_arena.core.effects import Refusal
from freecell_arena.core.moderation.evidence import (
    MEANINGS,
    auto_report_reason,
    read_agreement,
    read_regularity,
    regularity,
    signals,
    solver_agreement,
    summary,
    think_times,
    unusual,
)
from freecell_arena.core.moderation.ports import ModerationPort, StoredReport
from freecell_arena.core.moderation.rules import Person, ReportReason, check_moderator, check_reason, neutral_name
from freecell_arena.core.moderation.sanctions import Act, InForce, LoggedAction
from freecell_arena.core.ports.records import ResultRecord
from freecell_arena.core.records.fair_play import MIN_MS_PER_MOVE, is_human_board
from freecell_arena.core.records.race_ratings import RatingReads, rating_view
from freecell_arena.core.records.ratings import Ladder
from freecell_arena.engine import VARIANTS
from freecell_arena.net.background import BackgroundTasks, cancel_quietly, every
from freecell_arena.net.par_service import ParService
from freecell_arena.net.throttled_log import ThrottledLog, one_line
from freecell_arena.protocol.errors import ErrorCode
from freecell_arena.protocol.moderation import (
    ChooseNameRequest,
    ModActionMessage,
    ModActionRequest,
    ModEvidenceMessage,
    ModEvidenceRequest,
    ModGame,
    ModLogEntry,
    ModLoggedMessage,
    ModLogMessage,
    ModLogRequest,
    ModMeaning,
    ModPlayer,
    ModQueueEntry,
    ModQueueMessage,
    ModQueueRequest,
    ModRating,
    ModReport,
    ModSanction,
    ModSearchMessage,
    ModSearchRequest,
    ModToken,
    MyReport,
    MyReportsMessage,
    MyReportsRequest,
    NameChosenMessage,
    ReportReceivedMessage,
    ReportRequest,
)
from freecell_arena.protocol.profiles import RatingPoint
from freecell_arena.protocol.session import CloseCode
from freecell_arena.protocol.wire import Message

log = logging.getLogger(__name__)

MODERATOR_TYPES = frozenset({ModQueueRequest, ModEvidenceRequest, ModActionRequest, ModLogRequest, ModSearchRequest})
"""The requests only a moderator may make."""
MODERATION_TYPES = frozenset({ReportRequest, MyReportsRequest, ChooseNameRequest, *MODERATOR_TYPES})
EVIDENCE_GAMES = 10
"""Recent ranked games a moderator sees, each with its moves' think times."""
HISTORY_POINTS = 30
FOLLOW_INTERVAL_S = 0.25
"""How often every process reads the mod log's new actions: a ban closes the player's connection within this
(and a database round trip), on every process, whoever banned them and from where."""
FOLLOW_WINDOW = 64
"""Actions read again below the last one seen: on PostgreSQL an action numbered earlier may commit later."""
CLOSE_BANNED = CloseCode.banned
"""A moderator banned this player (the reason says why; `CLOSE_CODES` in the protocol)."""
STORAGE_FAILED = "the server cannot reach its database right now, nothing changed: try again in a moment"
"""What a moderation request is told when the database fails under it (`storage_failed`)."""

Port = TypeVar("Port")


class Caller(Protocol):
    """Who asks: the connection."""

    @property
    def player_id(self) -> str | None: ...

    @property
    def address(self) -> str: ...

    def send(self, message: Message) -> None:
        """A frame to this connection (queued: never waits)."""
        ...


@dataclass(frozen=True)
class Enforcer:
    """What a sanction does to this process's live state (net/app.py hands these, not itself)."""

    banned: Callable[[str, str], None]
    """Given the player and the public reason: close the player's connection here, take them out of live play."""
    renamed: Callable[[str, str], None]
    """Given the player and the name: show the player's new name here."""


class _StoreGuard:
    """A store port whose failures are refusals: the database away answers `storage_failed` (nothing changed: an
    action is one transaction; try again; one log line a kind of failure), not `internal_error` with a traceback,
    which stays for this module's own bugs. A refusal the store raises on purpose (`Refusal`: a rule said no) passes
    as it is."""

    def __init__(self, port: object, failures: ThrottledLog) -> None:
        self._port = port
        self._failures = failures

    def __getattr__(self, name: str) -> Callable[..., Awaitable[Any]]:
        method = getattr(self._port, name)

        async def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                return await method(*args, **kwargs)
            except Refusal:
                raise
            except Exception as error:
                self._failures.warning(type(error).__name__, f"a moderation request could not reach the store "
                                                             f"({name}): {one_line(error)}")  # fmt: skip
                raise Refusal(ErrorCode.storage_failed, STORAGE_FAILED) from error

        return guarded


def guarded(port: Port, failures: ThrottledLog) -> Port:
    """`port`, each of its calls answering a database failure with `Refusal(storage_failed)` (`_StoreGuard`)."""
    return cast(Port, _StoreGuard(port, failures))


def player_view(person: Person) -> ModPlayer:
    return ModPlayer(player_id=person.player_id, name=person.name, bot=person.bot, saved=person.saved,
                     moderator=person.moderator, created_at=person.created_at)  # fmt: skip


def report_view(report: StoredReport) -> ModReport:
    return ModReport.model_validate({
        "report_id": report.report_id, "reporter_id": report.reporter_id, "source": report.source,
        "reporter_role": "server" if report.reporter_id is None else "opponent" if report.opponent else "player",
        "reason": report.reason, "text": report.text, "game_id": report.game_id, "at": report.created_at,
        "status": report.status})  # fmt: skip


def sanction_view(held: InForce) -> ModSanction:
    return ModSanction.model_validate({"action_id": held.action_id, "kind": held.kind.value, "game_id": held.game_id,
                                       "reason": held.reason, "public_reason": held.public_reason,
                                       "at": held.at})  # fmt: skip


def ban_message(held: InForce) -> str:
    return f"you are banned from this server: {held.public_reason or 'no reason was given'}"


MY_STATUS = {"open": "received", "acted": "acted_on", "dismissed": "closed"}


class Consoles:
    """The moderators' consoles open on this process (connections that asked for the queue), told each action the
    mod log gains (`mod_logged`) so a queue and a log refresh after an action taken anywhere: another console, another
    process, the command line. A closed connection is forgotten as it ends (`forget`: a plain set, since the compiled
    connection takes no weak reference); a moderator whose role was revoked is told nothing more and dropped."""

    def __init__(self, store: ModerationPort,
                 views: Callable[[Sequence[LoggedAction]], Awaitable[list[ModLogEntry]]]) -> None:  # fmt: skip
        self.store = store
        self.views = views
        self._open: set[Caller] = set()

    def watch(self, console: Caller) -> None:
        self._open.add(console)

    def forget(self, console: Caller) -> None:
        """The connection ended."""
        self._open.discard(console)

    async def logged(self, entries: Sequence[LoggedAction]) -> None:
        """Tell every console open here (the follower calls this with the actions it has not seen before)."""
        if not self._open:
            return
        views = await self.views(entries)
        for console in list(self._open):
            player_id = console.player_id
            if player_id is None or not await self.store.is_moderator(player_id):
                self._open.discard(console)
                continue
            for view in views:
                console.send(ModLoggedMessage(entry=view))


class ModerationRequests:
    def __init__(self, store: ModerationPort, ratings: RatingReads, pars: ParService, clock: Clock,
                 enforcer: Enforcer) -> None:  # fmt: skip
        self.failures = ThrottledLog(log)
        self.store = guarded(store, self.failures)
        self.ratings = guarded(ratings, self.failures)
        self.pars = pars
        self.clock = clock
        self.enforcer = enforcer
        self._handlers: dict[type, Callable[[Any, str, Caller], Awaitable[Message]]] = {
            ReportRequest: self._report, MyReportsRequest: self._my_reports, ChooseNameRequest: self._choose_name,
            ModQueueRequest: self._queue, ModEvidenceRequest: self._evidence, ModActionRequest: self._act,
            ModLogRequest: self._log, ModSearchRequest: self._search,
        }  # fmt: skip
        self.consoles = Consoles(self.store, self._log_views)

    async def answer(self, request: Message, caller: Caller) -> Message:
        """The reply; a refusal raises `Refusal` (nothing changed)."""
        player_id = caller.player_id
        assert player_id is not None
        if type(request) in MODERATOR_TYPES and not await self.store.is_moderator(player_id):
            log.warning("moderator request %s refused for %s (%s): not a moderator", getattr(request, "type", "?"),
                        player_id, caller.address)  # fmt: skip
            check_moderator(None)
        return await self._handlers[type(request)](request, player_id, caller)

    async def on_hello(self, player_id: str) -> tuple[InForce | None, str | None]:
        """A returning player's ban in force, if any, and the neutral name a moderator gave them if they have not
        chosen another yet (one indexed read, and a second only for a renamed player)."""
        held = await self.store.in_force(player_id)
        ban = next((sanction for sanction in held if sanction.kind is Act.BAN), None)
        if ban is not None or not any(sanction.kind is Act.RENAME for sanction in held):
            return ban, None
        person = await self.store.person(player_id)
        return None, (person.name if person is not None and person.name == neutral_name(player_id) else None)

    # ------------------------------------------------------------------ players

    async def _report(self, request: ReportRequest, player_id: str, caller: Caller) -> Message:
        reporter = await self.store.person(player_id)
        assert reporter is not None
        report_id = await self.store.file_report(reporter, request.player_id, ReportReason(request.reason),
                                                 " ".join(request.text.split()), request.game_id, caller.address,
                                                 self.clock.now())  # fmt: skip
        return ReportReceivedMessage(id=request.id, report_id=report_id)

    async def _my_reports(self, request: MyReportsRequest, player_id: str, _caller: Caller) -> Message:
        mine = await self.store.reports_by(player_id)
        names = await self.store.names_of([report.target_id for report in mine])
        return MyReportsMessage(id=request.id, reports=[MyReport.model_validate({
            "report_id": report.report_id, "player_id": report.target_id, "name": names.get(report.target_id, ""),
            "reason": report.reason, "at": report.created_at, "status": MY_STATUS[report.status]})
            for report in mine])  # fmt: skip

    async def _choose_name(self, request: ChooseNameRequest, player_id: str, _caller: Caller) -> Message:
        await self.store.choose_name(player_id, request.name, self.clock.now())
        self.enforcer.renamed(player_id, request.name)
        return NameChosenMessage(id=request.id, name=request.name)

    # ------------------------------------------------------------------ moderators

    async def _queue(self, request: ModQueueRequest, _player_id: str, caller: Caller) -> Message:
        """The open reports by player; the console asking is told of each action logged from now on."""
        self.consoles.watch(caller)
        entries = []
        for person, reports in await self.store.queue():
            held = await self.store.in_force(person.player_id)
            entries.append(ModQueueEntry(player=player_view(person), reports=[report_view(r) for r in reports],
                                         in_force=[sanction_view(h) for h in held]))  # fmt: skip
        return ModQueueMessage(id=request.id, players=entries)

    async def _search(self, request: ModSearchRequest, _player_id: str, _caller: Caller) -> Message:
        return ModSearchMessage(id=request.id, players=[player_view(p) for p in await self.store.find(request.query)])

    async def _log(self, request: ModLogRequest, _player_id: str, _caller: Caller) -> Message:
        entries = await self.store.log(request.limit, request.before, request.player_id)
        return ModLogMessage(id=request.id, entries=await self._log_views(entries))

    async def _log_views(self, entries: Sequence[LoggedAction]) -> list[ModLogEntry]:
        names = await self.store.names_of([entry.target_id for entry in entries] +
                                          [entry.moderator_id for entry in entries if entry.moderator_id])  # fmt: skip
        return [ModLogEntry.model_validate({
            "action_id": entry.action_id, "at": entry.at, "moderator_id": entry.moderator_id,
            "moderator": names.get(entry.moderator_id, "") if entry.moderator_id else "operator",
            "action": entry.act.value, "player_id": entry.target_id,
            "name": entry.name_then() or names.get(entry.target_id, ""),
            "game_id": entry.game_id, "lifts": entry.lifts, "reason": entry.reason,
            "public_reason": entry.public_reason}) for entry in entries]  # fmt: skip

    async def _act(self, request: ModActionRequest, player_id: str, _caller: Caller) -> Message:
        act = Act(request.action)
        if act is Act.BAN and not request.public_reason.strip():
            raise Refusal(ErrorCode.invalid_message, "a ban needs a public reason: the player is told it")
        acted = await self.store.act(act, request.player_id, player_id, check_reason(request.reason),
                                     self.clock.now(), public_reason=request.public_reason.strip(),
                                     game_id=request.game_id, lifts=request.lifts)  # fmt: skip
        log.info("moderation: #%d %s of %s by %s", acted.entry.action_id, act, request.player_id, player_id)
        apply_here(acted.entry, self.enforcer)
        (view,) = await self._log_views([acted.entry])
        return ModActionMessage(id=request.id, entry=view)

    async def _evidence(self, request: ModEvidenceRequest, _player_id: str, _caller: Caller) -> Message:
        person = await self.store.person(request.player_id)
        if person is None:
            raise Refusal(ErrorCode.unknown_player, "there is no such player")
        games = []
        regularities, agreements = [], []
        for game in await self.store.ranked_games(person.player_id, EVIDENCE_GAMES):
            times = think_times(game.started_at, [move.at for move in game.moves])
            par = await self.pars.par_of(game.variant, game.seed)  # the solver's worker, never this loop
            agreement = await asyncio.to_thread(solver_agreement, [move.notation for move in game.moves], par.line)
            regular = regularity(times)
            regularities.append(regular)
            agreements.append(agreement)
            games.append(ModGame.model_validate({
                "game_id": game.game_id, "variant": game.variant, "daily_day": game.daily_day,
                "outcome": game.outcome, "moves": game.player_moves, "time_ms": game.time_ms, "board": game.board,
                "flagged": game.flagged, "think_ms": times,
                "ms_per_move": game.time_ms // max(1, game.player_moves), "floor_ms_per_move": MIN_MS_PER_MOVE,
                "regularity": regular, "solver_agreement": agreement, "par": par.moves,
                "regularity_words": read_regularity(regular), "solver_words": read_agreement(agreement),
                "unusual": unusual(regular, agreement)}))  # fmt: skip
        tokens = [ModToken.model_validate({"kind": token.kind, "created_at": token.created_at,
                                           "last_used_at": token.last_used_at, "revoked": token.revoked})
                  for token in await self.store.token_ages(person.player_id)]  # fmt: skip
        return ModEvidenceMessage(
            id=request.id, player=player_view(person), saved_at=await self.store.saved_at(person.player_id),
            tokens=tokens, games=games, summary=summary(regularities, agreements),
            suspicion=signals(regularities, agreements),
            meanings=[ModMeaning(signal=signal, meaning=meaning) for signal, meaning in MEANINGS.items()],
            ratings=await self._ratings(person.player_id),
            reports=[report_view(report) for report in await self.store.reports_on(person.player_id)],
            in_force=[sanction_view(held) for held in await self.store.in_force(person.player_id)],
        )  # fmt: skip

    async def _ratings(self, player_id: str) -> list[ModRating]:
        rated = []
        for ladder in Ladder:
            for variant, rating in sorted((await self.ratings.ratings_of(player_id, ladder, list(VARIANTS))).items()):
                history = await self.ratings.history(player_id, variant, ladder, HISTORY_POINTS)
                rated.append(ModRating(variant=variant, ladder=ladder.value, rating=rating_view(rating).rating,
                                       races=rating.races, history=[
                                           RatingPoint(at=point.at, rating=point.after.display, code=point.code,
                                                       delta=point.after.display - point.before.display)
                                           for point in history]))  # fmt: skip
        return rated


def apply_here(entry: LoggedAction, enforcer: Enforcer) -> None:
    """What an action does to this process's live state (the follower does the same on every process)."""
    if entry.act is Act.BAN:
        enforcer.banned(entry.target_id, entry.public_reason)
    elif entry.act is Act.RENAME:
        enforcer.renamed(entry.target_id, str(entry.detail.get("placeholder", "")))
    elif entry.act is Act.LIFT and "restored" in entry.detail:
        enforcer.renamed(entry.target_id, str(entry.detail["restored"]))


class LogFollower:
    """Every process reads the mod log's new actions, applies them to its live state (`apply_here`) and tells the
    consoles open here (`Consoles.logged`), whoever acted and from where (the command line too)."""

    def __init__(self, store: ModerationPort, enforcer: Enforcer, consoles: Consoles | None = None,
                 interval_s: float = FOLLOW_INTERVAL_S) -> None:  # fmt: skip
        self.store = store
        self.enforcer = enforcer
        self.consoles = consoles
        self.interval_s = interval_s
        self.failures = ThrottledLog(log)
        self._seen: set[int] = set()
        self._last = 0
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """From the log's head on: what was done before this process started is in the store already (tokens
        revoked, names replaced); a hello reads the bans. The actions just below the head are seen already (the
        window read again for late commits must not bring them back as new)."""
        self._last = await self.store.head()
        self._seen = {entry.action_id for entry in await self.store.since(max(0, self._last - FOLLOW_WINDOW))}
        self._task = asyncio.create_task(every(self.interval_s, self.follow_once, self.failures,
                                               "following the mod log"), name="mod-log-follower")

    async def follow_once(self) -> list[LoggedAction]:
        new = [entry for entry in await self.store.since(max(0, self._last - FOLLOW_WINDOW))
               if entry.action_id not in self._seen]  # fmt: skip
        for entry in new:
            self._seen.add(entry.action_id)
            self._last = max(self._last, entry.action_id)
            apply_here(entry, self.enforcer)
        if len(self._seen) > 4 * FOLLOW_WINDOW:
            self._seen = {action_id for action_id in self._seen if action_id > self._last - FOLLOW_WINDOW}
        if new and self.consoles is not None:
            await self.consoles.logged(new)
        return new

    async def close(self) -> None:
        await cancel_quietly(self._task)


class WinScreen:
    """A second look at humans' ranked wins that passed the fair-play floor, once stored: one as regular as a
    program's raises the server's own report (never a sanction: a moderator reads it). Told of every stored result
    (net/effects.py's `after_stored`), never of a move."""

    def __init__(self, store: ModerationPort, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self.failures = ThrottledLog(log)
        self._checks = BackgroundTasks()

    def result_stored(self, record: ResultRecord) -> None:
        """A human's ranked win that passed the floor is looked at again, in the background."""
        claim = record.claim
        if claim is not None and record.flag is None and is_human_board(claim.board):
            self._checks.spawn(self._screen(record.game_id, claim.player_id))

    async def _screen(self, game_id: str, player_id: str) -> None:
        try:
            game = await self.store.game_moves(game_id)
            if game is None:
                return
            reason = auto_report_reason(think_times(game.started_at, [move.at for move in game.moves]))
            if reason is not None and await self.store.auto_report(player_id, game_id, reason, self.clock.now()):
                log.info("moderation: the server reported %s for game %s: %s", player_id, game_id, reason)
        except Exception as error:  # a report not raised is no harm to the game; the next win is screened again
            self.failures.warning(type(error).__name__, f"screening a win failed: {one_line(error)}")

    async def close(self) -> None:
        """The checks under way are dropped (a report not raised is no harm), and have ended when this returns:
        the store they read closes next. The writer is its owner's to close."""
        await self._checks.stop()
