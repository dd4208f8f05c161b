"""Tournaments: arenas (continuous pairing for a fixed time) and cups (rounds at fixed times, everyone on the same
deal): the desk that owns their state, pairing, heats, schedule and audit (docs/tournaments.md). Their rules,
scoring and stored state are records (`core.records.tournaments`), which the store reads without loading these."""
