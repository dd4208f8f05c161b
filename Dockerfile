# The FreeCell Arena server image (docker-compose.yml builds it once for `migrate` and every replica).
FROM python:3.11-slim
WORKDIR /srv/freecell-arena
# The locked dependencies first (requirements/server.lock: the versions CI tested, with hashes), in a layer of
# their own that a change of the code does not rebuild; then the project itself, with nothing more to resolve.
# .ci/install_check.py runs these same pip commands in a fresh venv on every CI run.
COPY requirements/server.lock requirements/server.lock
RUN pip install --no-cache-dir -r requirements/server.lock
COPY . .
RUN pip install --no-cache-dir --no-deps --no-build-isolation . \
    && useradd --system --no-create-home arena
USER arena
EXPOSE 8765
# every setting is a FREECELL_ARENA_* variable (docs/server.md); a container listens on all its interfaces
CMD ["freecell-arena", "serve", "--host", "0.0.0.0", "--port", "8765"]
