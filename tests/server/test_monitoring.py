"""deploy/prometheus/ and deploy/grafana/ against what a live server exports: `promtool check metrics` passes on a
real server's /metrics, every metric the rules read is one that server exports (a renamed metric would leave an
alert silent forever), and the dashboard plots recording rules only, so `promtool check rules` checks its
queries. `promtool check config`, `check rules` and `test rules` (the alerts' unit tests) run in .ci/run."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml
from serverprocess import running_server, server_env
from services import service_missing

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "deploy" / "prometheus" / "rules.yml"
DASHBOARDS = REPO / "deploy" / "grafana" / "dashboards"
DATASOURCES = REPO / "deploy" / "grafana" / "provisioning" / "datasources"
PROMETHEUS_OWN = {"up"}  # series Prometheus writes itself for every target
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
IDENTIFIER = re.compile(r"[A-Za-z_:][A-Za-z0-9_:]*")
SUFFIXES = {"counter": ("",), "gauge": ("",), "histogram": ("_bucket", "_sum", "_count")}


def names_in(expr: str) -> set[str]:
    """The metric names (and function names, keywords, label names) a PromQL expression mentions, quoted strings
    (label values, `$instance`) left out."""
    return set(IDENTIFIER.findall(STRING.sub('""', expr)))


def rules() -> list[dict[str, Any]]:
    return [rule for group in yaml.safe_load(RULES.read_text())["groups"] for rule in group["rules"]]


def recorded() -> set[str]:
    return {rule["record"] for rule in rules() if "record" in rule}


def raw_metrics(expr: str) -> set[str]:
    return {name for name in names_in(expr) if ":" not in name and name.startswith("freecell_arena_")}


def exported(exposition: str) -> set[str]:
    """The series names a text exposition holds, from its TYPE lines (a family with no sample yet included)."""
    names = set()
    for name, kind in re.findall(r"^# TYPE (\S+) (\S+)$", exposition, re.M):
        names.update(name + suffix for suffix in SUFFIXES[kind])
    return names


def dashboard_queries() -> list[str]:
    queries = []
    for path in DASHBOARDS.glob("*.json"):
        dashboard = json.loads(path.read_text())
        queries += [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
        for variable in dashboard["templating"]["list"]:
            assert variable["query"] == variable["definition"], variable["name"]
            queries.append(variable["query"])
    return queries


@pytest.fixture(scope="module")
def promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        service_missing("promtool is not installed (Debian package prometheus)")
    return found


async def test_a_live_servers_metrics_pass_promtool_and_hold_every_metric_the_rules_read(
    tmp_path: Path, promtool: str
) -> None:
    async with running_server(tmp_path, env=server_env()) as server:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/metrics", timeout=10) as response:
            exposition = response.read().decode()
    lint = subprocess.run([promtool, "check", "metrics"], input=exposition, capture_output=True, text=True, timeout=60)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    available = exported(exposition)
    assert "freecell_arena_move_round_trip_seconds_bucket" in available, "the exposition was read"
    used = set().union(*(raw_metrics(rule["expr"]) for rule in rules()))
    assert used, "the rules read the server's metrics"
    assert used <= available, f"the rules read metrics no server exports: {sorted(used - available)}"
    prometheus_own = {name for rule in rules() for name in names_in(rule["expr"]) & PROMETHEUS_OWN}
    assert prometheus_own == {"up"}, "a replica that does not answer at all is caught by `up`"


def test_every_alert_reads_recording_rules_defined_before_it() -> None:
    defined: set[str] = set()
    for rule in rules():
        referenced = {name for name in names_in(rule["expr"]) if ":" in name}
        assert referenced <= defined, f"{rule.get('alert') or rule['record']} reads {referenced - defined}"
        if "record" in rule:
            defined.add(rule["record"])
        else:
            assert not raw_metrics(rule["expr"]), f"{rule['alert']} should read a recording rule"
            assert rule["labels"]["severity"] in ("critical", "warning") and rule["annotations"]["summary"]


def test_the_dashboard_plots_recording_rules_only_from_the_provisioned_prometheus() -> None:
    queries = dashboard_queries()
    assert len(queries) >= 10
    for query in queries:
        assert not raw_metrics(query), f"not through a recording rule: {query}"
        series = {name for name in names_in(query) if ":" in name}
        assert series and series <= recorded(), f"{query}: {series - recorded()} is no recording rule"
    plotted = set().union(*(names_in(query) for query in queries))
    for wanted in ("moves_accepted", "move_round_trip_seconds", "commit_seconds", "connections", "rooms", "errors"):
        assert any(f"freecell_arena_{wanted}:" in name for name in plotted), wanted
    (datasource,) = yaml.safe_load((DATASOURCES / "prometheus.yml").read_text())["datasources"]
    for path in DASHBOARDS.glob("*.json"):
        for panel in json.loads(path.read_text())["panels"]:
            assert panel["datasource"]["uid"] == datasource["uid"], panel["title"]
