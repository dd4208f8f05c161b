# The FreeCell Arena server image (docker-compose.yml builds it once for `migrate` and every replica): the compiled
# build (mypyc: the engine, the solver and core's part of a move as C extensions; docs/performance.md), made in a
# build stage that has a C compiler, installed in a slim image that has none.
# .ci/install_check.py runs this file's `pip` commands in fresh venvs on every CI run (/wheels: a temporary folder).

FROM python:3.11-slim AS build
# gcc and libc's headers for mypyc's C; the official image's own Python brings Python.h (/usr/local/include)
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# requirements/build.lock: the server's locked dependencies (mypyc type-checks what it compiles against them), the
# build backend and mypy, at the versions CI tested, with hashes
COPY requirements/build.lock requirements/build.lock
RUN pip install --no-cache-dir -r requirements/build.lock
COPY . .
# asked for, the compiled build either builds or stops the image's build with the reason (setup.py); beside it the
# SDK's wheel (clients/python: the engine's and the protocol's sources, the house bots), which the server requires
RUN FREECELL_ARENA_COMPILE=1 pip wheel --no-cache-dir --no-deps --no-build-isolation -w /wheels . ./clients/python

FROM python:3.11-slim
WORKDIR /srv/freecell-arena
# The locked dependencies first (requirements/server.lock: the versions CI tested, with hashes), in a layer of
# their own that a change of the code does not rebuild; then the compiled wheel and the SDK's, with nothing more to
# resolve.
COPY requirements/server.lock requirements/server.lock
RUN pip install --no-cache-dir -r requirements/server.lock
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-deps /wheels/*.whl \
    && rm -rf /wheels \
    && useradd --system --no-create-home arena
USER arena
EXPOSE 8765
# every setting is a FREECELL_ARENA_* variable (docs/server.md); a container listens on all its interfaces
CMD ["freecell-arena", "serve", "--host", "0.0.0.0", "--port", "8765"]
