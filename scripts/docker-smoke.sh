#!/usr/bin/env bash
# Builds the bot's image on a base made from Debian's packages, then checks it end to end
# (tests/container): the container, on the host's network, plays a game against the local Discord
# emulator, reports healthy, and stops cleanly on SIGTERM.
#
# Needs a running Docker engine and, unless the base image or its cached tarball exists, root (or
# sudo) to run debootstrap, installed from apt when missing. No registry is asked: the base comes from the Debian mirror apt uses here, and
# the image installs its Python packages from wheelhouse/, built on this host.
#
#   scripts/docker-smoke.sh            environment: PYTHON (default .venv/bin/python),
#                                      DEBIAN_MIRROR, BASE_IMAGE, IMAGE
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-.venv/bin/python}
BASE_IMAGE=${BASE_IMAGE:-ttt-base:bookworm}
IMAGE=${IMAGE:-ttt-bot:smoke}
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/ttt-bot
BASE_TARBALL="$CACHE/base-bookworm.tar"

apt_mirror() {
  # The first Debian archive apt is configured with (deb822 sources or the one-line list).
  local found=""
  if compgen -G "/etc/apt/sources.list.d/*.sources" >/dev/null; then
    found=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/*.sources)
  fi
  if [ -z "$found" ] && [ -f /etc/apt/sources.list ]; then
    found=$(awk '/^deb / && $0 !~ /security/ {print $2; exit}' /etc/apt/sources.list)
  fi
  echo "${found:-http://deb.debian.org/debian}"
}

# debootstrap and the tarball of what it made need root: sudo when this is not root.
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo -n"

if ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  if [ ! -s "$BASE_TARBALL" ]; then
    if ! command -v debootstrap >/dev/null 2>&1; then
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq debootstrap >/dev/null
    fi
    mirror=${DEBIAN_MIRROR:-$(apt_mirror)}
    root=$(mktemp -d)
    echo "docker-smoke: making the base image from Debian bookworm ($mirror)"
    $SUDO debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates bookworm "$root" \
      "$mirror" >/dev/null
    mkdir -p "$CACHE"
    $SUDO tar -C "$root" -c . >"$BASE_TARBALL.part" && mv "$BASE_TARBALL.part" "$BASE_TARBALL"
    $SUDO rm -rf "$root"
  fi
  docker import "$BASE_TARBALL" "$BASE_IMAGE" >/dev/null
fi

compose_check() {
  # compose.yaml must be valid for Compose (v2 plugin or v1); nothing is started.
  local dir
  dir=$(mktemp -d)
  cp compose.yaml "$dir/" && cp .env.example "$dir/.env"
  if docker compose version >/dev/null 2>&1; then
    (cd "$dir" && docker compose config --quiet)
  elif command -v docker-compose >/dev/null 2>&1; then
    (cd "$dir" && docker-compose config --quiet)
  else
    echo "docker-smoke: no Docker Compose here; compose.yaml not checked"
  fi
  rm -rf "$dir"
}
compose_check

echo "docker-smoke: wheels for the image (wheelhouse/)"
"$PYTHON" -m pip wheel --quiet -c constraints.txt -w wheelhouse '.[postgres]' 'setuptools>=77' Babel wheel

echo "docker-smoke: building $IMAGE on $BASE_IMAGE"
docker build --quiet --network host --build-arg "BASE_IMAGE=$BASE_IMAGE" -t "$IMAGE" . >/dev/null

echo "docker-smoke: playing a game against the image"
TTT_IMAGE="$IMAGE" "$PYTHON" -m pytest tests/container -q -p no:cacheprovider
