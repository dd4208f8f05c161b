# The FreeCell Arena server image (docker-compose.yml builds it once for `migrate` and every replica).
FROM python:3.11-slim
WORKDIR /srv/freecell-arena
COPY . .
RUN pip install --no-cache-dir . \
    && useradd --system --no-create-home arena
USER arena
EXPOSE 8765
# every setting is a FREECELL_ARENA_* variable (docs/server.md); a container listens on all its interfaces
CMD ["freecell-arena", "serve", "--host", "0.0.0.0", "--port", "8765"]
