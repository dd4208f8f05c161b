"""docker-compose.yml (Docker does not run here) read as data: the services a cluster needs, health checks, the
order of start (migration once, before any replica), and only real CLI commands with real settings.
What the balancer does with deploy/haproxy/haproxy.cfg is tested live in test_load_balancer.py."""

from __future__ import annotations

import ipaddress
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from freecell_arena.cli import build_parser
from freecell_arena.commands.serve import cluster_problem
from freecell_arena.settings import Settings

REPO = Path(__file__).resolve().parents[2]
REPLICAS = ["server-1", "server-2", "server-3"]


@pytest.fixture(scope="module")
def services() -> dict[str, Any]:
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    return dict(compose["services"])


def parsed_command(service: dict[str, Any]) -> Any:
    """The service's command parsed by the real CLI parser (it exits on anything the CLI does not know)."""
    command = service["command"]
    assert isinstance(command, list) and command[0] == "freecell-arena", command
    return build_parser(command[1:]).parse_args(command[1:])


def settings_of(service: dict[str, Any]) -> Settings:
    fields = set(Settings.setting_names())
    values = {}
    for variable, value in service["environment"].items():
        assert variable.startswith("FREECELL_ARENA_"), variable
        name = variable.removeprefix("FREECELL_ARENA_").lower()
        assert name in fields, variable
        values[name] = value
    return Settings(**values)


def test_the_cluster_has_a_database_redis_a_migration_three_replicas_a_balancer_and_monitoring(
    services: dict[str, Any],
) -> None:
    assert set(services) == {"db", "redis", "migrate", *REPLICAS, "lb", "prometheus", "grafana"}
    assert services["db"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    assert services["lb"]["image"].startswith("haproxy:")
    assert services["prometheus"]["image"].startswith("prom/prometheus:")
    assert services["grafana"]["image"].startswith("grafana/grafana:")
    for name in ("db", "redis", *REPLICAS):
        assert services[name]["healthcheck"]["test"], name


def test_the_migration_runs_once_before_any_replica(services: dict[str, Any]) -> None:
    migrate = services["migrate"]
    assert parsed_command(migrate).command == "migrate"
    assert migrate["depends_on"]["db"]["condition"] == "service_healthy"
    assert migrate["restart"] == "no"
    assert settings_of(migrate).store.database_url.startswith("postgresql+asyncpg://")
    for name in REPLICAS:
        assert services[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert services[name]["depends_on"]["redis"]["condition"] == "service_healthy"


def test_every_replica_serves_the_same_database_and_redis_as_a_cluster(services: dict[str, Any]) -> None:
    databases, redises = set(), set()
    for name in REPLICAS:
        replica = services[name]
        args = parsed_command(replica)
        assert args.command == "serve" and args.host == "0.0.0.0" and args.port == 8765
        settings = settings_of(replica)
        two_workers = Settings.from_names({**dict(settings.named_values()), "workers": 2})
        assert settings.cluster.redis_url is not None and cluster_problem(two_workers) is None
        databases.add(settings.store.database_url)
        redises.add(settings.cluster.redis_url)
        assert "/readyz" in " ".join(replica["healthcheck"]["test"]), "the health check is readiness"
        assert replica.get("ports") is None, "players come in through the balancer only"
        assert replica["image"] == services["migrate"]["image"], "the replicas run what was migrated with"
    assert databases == {settings_of(services["migrate"]).store.database_url} and len(redises) == 1
    assert re.match(r"redis://redis:6379/\d+$", redises.pop())


def test_the_balancer_uses_the_repository_config_in_front_of_every_replica(services: dict[str, Any]) -> None:
    balancer = services["lb"]
    mount = next(volume for volume in balancer["volumes"] if "haproxy.cfg" in volume)
    source, target, *_ = mount.split(":")
    assert (REPO / source).resolve() == REPO / "deploy" / "haproxy" / "haproxy.cfg"
    assert target == "/usr/local/etc/haproxy/haproxy.cfg"  # where the official image reads it
    assert balancer["ports"] == ["8765:8765"]
    config = (REPO / source).read_text()
    for number, replica in enumerate(REPLICAS, start=1):
        assert f'"${{ARENA_REPLICA_{number}-{replica}:8765}}"' in config
    assert re.search(r"^\s*timeout tunnel \d+[smh]$", config, re.M), "websockets outlive plain HTTP timeouts"
    assert re.search(r"^\s*http-check send meth GET uri /readyz", config, re.M)
    assert not re.search(r"^\s*(cookie|stick|balance source)", config, re.M), "no stickiness: any replica will do"


def test_the_image_installs_the_package_and_serves_by_default() -> None:
    text = (REPO / "Dockerfile").read_text()
    build, image = [[line.strip() for line in stage.splitlines()] for stage in text.split("\nFROM ")[1:]]
    assert build[0] == "python:3.11-slim AS build" and image[0] == "python:3.11-slim"
    assert "RUN pip install --no-cache-dir -r requirements/build.lock" in build, "the build stage installs its lock"
    wheels = "RUN FREECELL_ARENA_COMPILE=1 pip wheel --no-cache-dir --no-deps --no-build-isolation -w /wheels ."
    assert f"{wheels} ./clients/python" in build, (
        "and compiles the server's wheel, or stops (asked for, the compiled build never falls back), beside the "
        "SDK's, which the server requires"
    )
    installs = [line for line in image if line.startswith("RUN pip install")]
    assert installs[0] == "RUN pip install --no-cache-dir -r requirements/server.lock", "the image installs the lock"
    assert installs[1].startswith("RUN pip install --no-cache-dir --no-deps /wheels/*.whl"), (
        "then the compiled wheel, resolving nothing more than the lock pinned"
    )
    assert "COPY --from=build /wheels /wheels" in image and not any(line.startswith("COPY . ") for line in image)
    assert any(line.startswith("USER ") and line != "USER root" for line in image), "the server does not run as root"
    lines = image
    command = json.loads(next(line for line in lines if line.startswith("CMD ")).removeprefix("CMD "))
    args = parsed_command({"command": command})
    assert args.command == "serve" and args.host == "0.0.0.0" and args.port == 8765
    ignored = (REPO / ".dockerignore").read_text().split()
    assert {".git", ".venv"} <= set(ignored), "the build context leaves the repository's history and venv out"
    assert not any(pattern.startswith("requirements") for pattern in ignored), "the lock is in the build context"


def mounts(service: dict[str, Any]) -> dict[str, Path]:
    """A service's bind mounts of the repository: target in the container -> source in the checkout."""
    found = {}
    for volume in service["volumes"]:
        source, target, *_ = volume.split(":")
        if source.startswith("./"):
            found[target] = (REPO / source).resolve()
    return found


def test_prometheus_scrapes_every_replica_directly_with_the_repository_rules(services: dict[str, Any]) -> None:
    prometheus = services["prometheus"]
    config_dir = mounts(prometheus)["/etc/prometheus"]
    assert config_dir == REPO / "deploy" / "prometheus"
    assert "--config.file=/etc/prometheus/prometheus.yml" in prometheus["command"]
    config = yaml.safe_load((config_dir / "prometheus.yml").read_text())
    (job,) = config["scrape_configs"]
    assert job["job_name"] == "freecell-arena" and job["metrics_path"] == "/metrics"
    targets = [target for static in job["static_configs"] for target in static["targets"]]
    assert targets == [f"{replica}:8765" for replica in REPLICAS], "every replica, never the balancer"
    for rule_file in config["rule_files"]:
        assert (config_dir / rule_file).is_file(), rule_file  # relative to the config, as Prometheus reads it
    assert all(port.startswith("127.0.0.1:") for port in prometheus["ports"]), "for the operator on the host only"


def test_grafana_is_provisioned_with_prometheus_and_the_dashboard(services: dict[str, Any]) -> None:
    grafana = services["grafana"]
    mounted = mounts(grafana)
    assert mounted["/etc/grafana/provisioning"] == REPO / "deploy" / "grafana" / "provisioning"
    (datasource,) = yaml.safe_load((mounted["/etc/grafana/provisioning"] / "datasources" / "prometheus.yml")
                                   .read_text())["datasources"]  # fmt: skip
    assert datasource["type"] == "prometheus" and datasource["url"] == "http://prometheus:9090"
    assert "prometheus" in grafana["depends_on"]
    (provider,) = yaml.safe_load((mounted["/etc/grafana/provisioning"] / "dashboards" / "freecell-arena.yml")
                                 .read_text())["providers"]  # fmt: skip
    dashboards = mounted[provider["options"]["path"]]
    assert dashboards == REPO / "deploy" / "grafana" / "dashboards" and list(dashboards.glob("*.json"))
    home = grafana["environment"]["GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"]
    assert (dashboards / Path(home).relative_to(provider["options"]["path"])).is_file()
    assert all(port.startswith("127.0.0.1:") for port in grafana["ports"]), "for the operator on the host only"


def test_the_replicas_trust_the_balancers_fixed_address_only_and_keep_the_default_limits(
    services: dict[str, Any],
) -> None:
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    (subnet,) = [ipaddress.ip_network(pool["subnet"]) for pool in compose["networks"]["default"]["ipam"]["config"]]
    balancer = ipaddress.ip_address(services["lb"]["networks"]["default"]["ipv4_address"])
    assert balancer in subnet
    defaults = Settings()
    for name in REPLICAS:
        settings = settings_of(services[name])
        assert settings.process.trusted_proxy_networks == (ipaddress.ip_network(balancer),), "the balancer, nobody else"
        assert settings.connection == defaults.connection
    config = (REPO / "deploy" / "haproxy" / "haproxy.cfg").read_text()
    assert re.search(r"^\s*default-server .*\bsend-proxy-v2\b", config, re.M), "every replica gets the header"
