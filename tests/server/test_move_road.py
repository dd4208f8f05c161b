"""A move's road (bench/move_road.py, issue 50): the modules one move frame runs code in, from its bytes arriving to
its reply written, and how often it goes back into a module it had already left. Counts, not timings: the same code
gives the same figures anywhere, so they are held here as ceilings.

Net's part is at its aim: the connection's task is the connection's own (no frame of net/app.py around it), the
replies go from the effect runner to the outbox and the socket (not back through the connection), and nothing of
moderation runs for a move, of the metrics only the group commit's report of its transaction (what waits for a kind
of record runs once one is stored). The whole road is not at issue 50's aim yet (at most 20 modules and 15
re-entries): what is left is core's (the player's game, the shared state and the engine call each other several
times a move: 22 of the 32 re-entries) and the store's group commit (a task of its own, woken and timed)."""

from __future__ import annotations

import re

from bench_runs import run_bench

NET_MODULES, NET_REENTRIES = 7, 4
"""Net's share of the road: the socket, the inbox, the connection, the rate limit, the effect runner, the outbox, and
the metrics the group commit reports its transaction to; back into the socket, the inbox, the connection and the
runner once each (the reader's wait for the frame, and for the commit)."""
MODULES, REENTRIES = 22, 32
"""The whole road as this code runs it (64114e8's: 25 modules, 39 re-entries). The store's part: 5 modules, 6
re-entries (the group commit's task woken, its wait for company timed out, the SQLite thread's answer, and the
statements' table read twice); a submitter awaits the commit's own future, with no frame of the group commit, the
SQL store or the SQLite writer on its awaiting chain."""


def test_a_move_takes_the_straight_road_through_net() -> None:
    output = run_bench("move_road.py", "--road")
    figures = {layer: (int(modules), int(reentries))
               for layer, modules, reentries in re.findall(r"^(\w+): (\d+) modules, (\d+) re-entries$", output, re.M)}
    total = re.search(r"^modules: (\d+)  re-entries: (\d+)$", output, re.M)
    assert total is not None and figures, output
    net_modules, net_reentries = figures["net"]
    assert net_modules <= NET_MODULES and net_reentries <= NET_REENTRIES, output
    assert int(total[1]) <= MODULES and int(total[2]) <= REENTRIES, output
    road = re.findall(r"^\s+\d+ (\S+)$", output, re.M)
    assert road[0] == "net.game_socket", "the road begins where the bytes arrive"
    assert "net.app" not in road and "net.moderation" not in road, output
