"""SDK tests: a package, so its conftest and helpers never shadow the `conftest` other test folders import."""
