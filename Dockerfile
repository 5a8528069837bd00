# The bot's image: `docker build -t ttt-bot .`, then `docker run --env-file .env ttt-bot`.
#
# BASE_IMAGE is any Debian-based image with python3 (3.11 or newer) and its venv module: the
# official slim Python image by default, or one made from Debian's packages with debootstrap
# (scripts/docker-smoke shows how). Nothing here is specific to amd64 or arm64.
#
# Dependencies are pinned by constraints.txt. In a closed network, put wheels in wheelhouse/
# first (`pip wheel -c constraints.txt -w wheelhouse '.[postgres]' 'setuptools>=77' Babel`): the
# build then installs from them alone and asks no package index.
ARG BASE_IMAGE=python:3.11-slim-bookworm

FROM ${BASE_IMAGE} AS build
WORKDIR /src
# constraints.txt makes the pattern match even without a wheelhouse/ (its wheels land beside it).
COPY constraints.txt wheelhouse* /wheelhouse/
COPY pyproject.toml setup.py README.md ./
COPY bot/ bot/
COPY migrations/ migrations/
RUN python3 -m venv /opt/venv \
 && if ls /wheelhouse/*.whl >/dev/null 2>&1; then set -- --no-index --find-links /wheelhouse; fi \
 && /opt/venv/bin/pip install --no-cache-dir --quiet "$@" -c /wheelhouse/constraints.txt \
        'setuptools>=77' Babel wheel \
 && /opt/venv/bin/pip wheel --no-cache-dir --quiet --no-deps --no-build-isolation -w /dist . \
 && /opt/venv/bin/pip install --no-cache-dir --quiet "$@" -c /wheelhouse/constraints.txt \
        "$(ls /dist/ttt_bot-*.whl)[postgres]" \
 && /opt/venv/bin/pip uninstall --quiet --yes setuptools wheel pip

FROM ${BASE_IMAGE}
RUN useradd --system --create-home --home-dir /data --shell /usr/sbin/nologin ttt
COPY --from=build /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    HEALTH_PORT=8080 \
    HEALTH_HOST=0.0.0.0
USER ttt
# The default SQLite database (ttt.sqlite3) lands here; mount a volume to keep it.
WORKDIR /data
VOLUME /data
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ['HEALTH_PORT'], timeout=4)"]
ENTRYPOINT ["python", "-m", "bot"]
CMD ["run"]
