#!/usr/bin/env bash
# Set up (or verify) the development environment of THIS checkout, from nothing if need be:
#   Debian packages -> .venv (Python 3.11) -> pinned pip install -> CMake build of msg/ srv/ into .venv
#   -> .pth that puts the checkout on sys.path -> .tempomem_env.sh (source it to use the environment).
#
# Idempotent and cheap to re-run: every stage records the hash of its inputs under .venv/.tempomem/ and is
# skipped when the hash matches AND a quick check of its result passes (a stamp alone is not trusted: a
# half-finished install or a hand-edited venv must be repaired, not skipped).
#
# Everything is relative to the repository this script lives in; nothing depends on where it is checked out.
# Environment knobs: TEMPOMEM_PYTHON (interpreter to create .venv with), TEMPOMEM_BUILD_JOBS (default 2).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
BUILD="$ROOT/build"
STAMPS="$VENV/.tempomem"
ENV_FILE="$ROOT/.tempomem_env.sh"
PY_MINOR="3.11"   # the ROS 2 Kilted wheels on PyPI are cp311
JOBS="${TEMPOMEM_BUILD_JOBS:-2}"
# Bump when the CMake invocation below changes, so that existing checkouts rebuild.
BUILD_RECIPE="cmake-v1 install-python-sources=OFF build-testing=OFF"

cd "$ROOT"

# Two test runs started together in one checkout would otherwise pip-install into one venv at once.
exec 9<"$ROOT/scripts/setup.sh"
if command -v flock >/dev/null 2>&1; then
  flock 9
fi

SETUP_T0=$EPOCHREALTIME
SUMMARY=()
stage_begin() {
  STAGE="$1"
  STAGE_T0=$EPOCHREALTIME
  echo "==> setup: $STAGE"
}
stage_end() {  # $1: what happened (done | skipped | ...)
  local dt
  dt=$(awk -v a="$STAGE_T0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  echo "    $STAGE: $1 (${dt} s)"
  SUMMARY+=("$(printf '  %-10s %-34s %7s s' "$STAGE" "$1" "$dt")")
}
die() {
  echo "setup.sh: ERROR: $*" >&2
  exit 1
}
hash_of() {  # sha256 of stdin
  sha256sum | cut -c1-64
}
stamp_is() {  # $1 stage, $2 expected hash
  [ -f "$STAMPS/$1" ] && [ "$(cat "$STAMPS/$1")" = "$2" ]
}
write_stamp() {
  mkdir -p "$STAMPS"
  echo "$2" >"$STAMPS/$1"
}

find_python() {
  local c
  for c in "${TEMPOMEM_PYTHON:-}" "python$PY_MINOR" python3; do
    [ -n "$c" ] || continue
    command -v "$c" >/dev/null 2>&1 || continue
    if "$c" -c "import sys; sys.exit(sys.version_info[:2] != tuple(map(int, '$PY_MINOR'.split('.'))))" \
        2>/dev/null; then
      echo "$c"
      return 0
    fi
  done
  return 1
}

# ---------------------------------------------------------------------------------------------------------
stage_begin "apt"
missing=()
if ! { ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | grep -q 'libusb-1\.0\.so\.0'; then
  missing+=(libusb-1.0-0)   # open3d: "libusb-1.0.so.0: cannot open shared object file" without it
fi
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v make >/dev/null 2>&1 || missing+=(make)
command -v git >/dev/null 2>&1 || missing+=(git)   # the colcon test copies `git ls-files`
PYTHON="$(find_python || true)"
if [ -z "$PYTHON" ]; then
  missing+=("python$PY_MINOR" "python$PY_MINOR-venv")
elif ! "$PYTHON" -c 'import ensurepip, venv' 2>/dev/null; then
  missing+=("python$PY_MINOR-venv")   # Debian splits ensurepip out of the interpreter package
fi
# PostgreSQL 15 + PostGIS 3: the fleet backend (Memory.open("postgresql://...")) and its tests, which start a
# throwaway cluster of their own (test/pg_cluster.py); the server binaries are all they need from Debian.
PG_BIN="/usr/lib/postgresql/15/bin"
PG_EXT="/usr/share/postgresql/15/extension"
NEW_POSTGRES=0
if [ ! -x "$PG_BIN/initdb" ] || [ ! -x "$PG_BIN/pg_ctl" ]; then
  missing+=(postgresql-15)
  NEW_POSTGRES=1
fi
[ -f "$PG_EXT/postgis.control" ] || missing+=(postgresql-15-postgis-3)
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "need root or sudo to install: ${missing[*]}"
    SUDO="sudo"
  fi
  echo "    installing Debian packages: ${missing[*]}"
  if [ "$NEW_POSTGRES" -eq 1 ] && [ ! -e /etc/postgresql-common/createcluster.d/tempomem.conf ]; then
    # Debian's postgresql-15 would create (and, outside containers, start) a "main" cluster listening on
    # localhost:5432. Nothing here uses it, and nothing may listen on a network interface: do not create it.
    $SUDO mkdir -p /etc/postgresql-common/createcluster.d
    echo "create_main_cluster = false  # tempomem_ros scripts/setup.sh" |
      $SUDO tee /etc/postgresql-common/createcluster.d/tempomem.conf >/dev/null
  fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  PYTHON="$(find_python)" || die "no Python $PY_MINOR interpreter after installing ${missing[*]}"
  stage_end "installed ${missing[*]}"
else
  stage_end "skipped (all present)"
fi

# ---------------------------------------------------------------------------------------------------------
stage_begin "venv"
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c \
    "import sys; sys.exit(sys.version_info[:2] != tuple(map(int, '$PY_MINOR'.split('.'))))" 2>/dev/null; then
  stage_end "skipped (exists)"
else
  if [ -e "$VENV" ]; then
    echo "    $VENV is not a working Python $PY_MINOR venv: recreating it"
    rm -rf "$VENV"
  fi
  "$PYTHON" -m venv "$VENV"
  stage_end "created with $("$VENV/bin/python" -V 2>&1)"
fi
VPY="$VENV/bin/python"
export PATH="$VENV/bin:$PATH"

# True when every pin of constraints.txt is what is installed. Cheap (metadata only, no imports of the
# packages) and exact, unlike a stamp: it catches a package upgraded or removed by hand.
venv_matches_pins() {
  "$VPY" - "$ROOT/constraints.txt" <<'EOF'
import importlib.metadata
import re
import sys


def canon(name):
    return re.sub(r"[-_.]+", "-", name).lower()


installed = {canon(d.metadata["Name"]): d.version for d in importlib.metadata.distributions()}
wrong = []
for line in open(sys.argv[1]):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    name, _, version = line.partition("==")
    have = installed.get(canon(name))
    if have != version.strip():
        wrong.append(f"{name.strip()}: want {version.strip()}, have {have}")
if wrong:
    print(f"    {len(wrong)} package(s) differ from constraints.txt, e.g.: " + "; ".join(wrong[:5]))
sys.exit(1 if wrong else 0)
EOF
}

need_free_gib() {  # $1 a directory, $2 GiB that must be free on its filesystem
  local avail
  avail=$(df -Pk "$1" | awk 'NR == 2 { print int($4 / 1048576) }')
  [ "$avail" -ge "$2" ] || die "only $avail GiB free on the filesystem of $1; the pip stage needs about $2 GiB there" \
    "(TEMPOMEM_PIP_FREE_GIB overrides the venv's figure). Free space and rerun: the stages done so far are kept."
}

# pip warns once per package about the machine's local index directories it has no entry for (hundreds
# of lines that hide real messages); everything else passes through. pipefail keeps pip's exit status.
quiet_pip() {
  grep -v "^WARNING: Location 'file://.*' is ignored: it is neither a file nor a directory" || true
}

# ---------------------------------------------------------------------------------------------------------
stage_begin "pip"
PIP_HASH="$( { cat requirements.txt constraints.txt; "$VPY" -VV; } | hash_of)"
if stamp_is pip "$PIP_HASH" && venv_matches_pins; then
  stage_end "skipped (requirements unchanged)"
else
  # The pinned torch wheel brings its CUDA libraries: the installed .venv measures 6.8 GB (du -sh, 2026-12-07),
  # and pip unpacks every wheel under TMPDIR first. A disk that fills mid-install ends in an OSError deep in
  # pip's output and a half-installed venv (stop 54's CI); refuse before starting, with the figures.
  need_free_gib "$VENV" "${TEMPOMEM_PIP_FREE_GIB:-8}"
  need_free_gib "${TMPDIR:-/tmp}" 1
  # -c constraints.txt also pins pip and setuptools themselves (colcon-core needs setuptools<80).
  "$VPY" -m pip install --quiet --upgrade -c constraints.txt pip setuptools 2>&1 | quiet_pip
  "$VPY" -m pip install --quiet -r requirements.txt -c constraints.txt 2>&1 | quiet_pip
  venv_matches_pins || die "the venv does not match constraints.txt after pip install"
  # The ROS wheels' CMake exports name /opt/python/... include dirs that exist only where they were built.
  "$VPY" scripts/fix_ros_wheel_cmake.py "$VENV"
  write_stamp pip "$PIP_HASH"
  stage_end "installed requirements.txt"
fi

# ---------------------------------------------------------------------------------------------------------
stage_begin "pth"
# The build installs only tempomem_ros/__init__.py (which extends __path__) next to the generated msg/srv;
# the modules themselves are imported from this checkout, so an edit is what runs, never a stale copy.
SITE="$VENV/lib/python$PY_MINOR/site-packages"
PTH="$SITE/tempomem_ros_source.pth"
if [ -f "$PTH" ] && [ "$(cat "$PTH")" = "$ROOT" ]; then
  stage_end "skipped (points at $ROOT)"
else
  echo "$ROOT" >"$PTH"
  stage_end "wrote $(basename "$PTH")"
fi

# ---------------------------------------------------------------------------------------------------------
# True when every msg/ and srv/ file is importable from the generated package, its C type support loads
# (serialize_message), and tempomem_ros resolves to this checkout's sources.
interfaces_work() {
  "$VPY" - "$ROOT" <<'EOF' >/dev/null 2>&1
import pathlib
import sys

root = pathlib.Path(sys.argv[1])
import tempomem_ros
import tempomem_ros.msg as msg
import tempomem_ros.srv as srv
from rclpy.serialization import serialize_message

assert str(root / "tempomem_ros") in [str(pathlib.Path(p)) for p in tempomem_ros.__path__]
for path in sorted(root.glob("msg/*.msg")):
    serialize_message(getattr(msg, path.stem)())
for path in sorted(root.glob("srv/*.srv")):
    serialize_message(getattr(srv, path.stem).Request())
    serialize_message(getattr(srv, path.stem).Response())
EOF
}

stage_begin "build"
BUILD_HASH="$( {
  echo "$PIP_HASH $BUILD_RECIPE $ROOT"
  for dir in msg srv bin launch config rviz; do
    if [ -d "$dir" ]; then find "$dir" -type f; fi
  done | LC_ALL=C sort | xargs -r sha256sum
  sha256sum CMakeLists.txt package.xml tempomem_ros/__init__.py
} | hash_of)"
if stamp_is build "$BUILD_HASH" && interfaces_work; then
  stage_end "skipped (interfaces unchanged)"
else
  # A build directory configured for another checkout or prefix (a copied tree) cannot be reused.
  if [ -f "$BUILD/CMakeCache.txt" ] && ! {
      grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$ROOT" "$BUILD/CMakeCache.txt" &&
      grep -qxF "CMAKE_INSTALL_PREFIX:PATH=$VENV" "$BUILD/CMakeCache.txt"; }; then
    echo "    $BUILD was configured elsewhere: removing it"
    rm -rf "$BUILD"
  fi
  mkdir -p "$BUILD"
  LOG="$BUILD/tempomem_setup_build.log"
  export AMENT_PREFIX_PATH="$VENV"   # else: "No 'rosidl_typesupport_c' found"
  # The fix is idempotent; it is repeated here because a venv repaired by hand may have lost it.
  "$VPY" scripts/fix_ros_wheel_cmake.py "$VENV" >/dev/null
  if ! {
      cmake -S "$ROOT" -B "$BUILD" \
        -DCMAKE_PREFIX_PATH="$VENV" \
        -DPython3_EXECUTABLE="$VPY" \
        -DCMAKE_INSTALL_PREFIX="$VENV" \
        -DTEMPOMEM_INSTALL_PYTHON_SOURCES=OFF \
        -DBUILD_TESTING=OFF &&
      cmake --build "$BUILD" -j "$JOBS" &&
      cmake --install "$BUILD"
    } >"$LOG" 2>&1; then
    tail -n 60 "$LOG" >&2
    die "interface build failed (full log: $LOG)"
  fi
  interfaces_work || die "interfaces built but do not import (try: $VPY -c 'import tempomem_ros.msg')"
  write_stamp build "$BUILD_HASH"
  stage_end "built and installed into .venv"
fi

# ---------------------------------------------------------------------------------------------------------
stage_begin "env"
NEW_ENV="$(cat <<EOF
# Generated by scripts/setup.sh: do not edit (it is rewritten on every setup). Use: source .tempomem_env.sh
# Activates this checkout's venv and the ROS 2 settings every tempomem run needs.
export TEMPOMEM_ROOT="$ROOT"
# shellcheck disable=SC1091
. "$VENV/bin/activate"
# Keep DDS discovery on this machine: by default Fast DDS multicasts on every interface.
export ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST
export RMW_IMPLEMENTATION=rmw_fastrtps_cpp
# The interfaces and ROS packages live in the venv prefix (no /opt/ros).
export AMENT_PREFIX_PATH="$VENV"
# A fixed default so that two shells of this checkout see each other; set your own to isolate runs.
export ROS_DOMAIN_ID="\${ROS_DOMAIN_ID:-42}"
case ":\$PATH:" in
  *":$ROOT/bin:"*) ;;
  *) export PATH="$ROOT/bin:\$PATH" ;;
esac
# Models load from local files only: nothing may be downloaded.
export HF_HUB_OFFLINE=1
export TRANSFORMERS_OFFLINE=1
EOF
)"
if [ -f "$ENV_FILE" ] && [ "$(cat "$ENV_FILE")" = "$NEW_ENV" ]; then
  stage_end "skipped (unchanged)"
else
  echo "$NEW_ENV" >"$ENV_FILE"
  stage_end "wrote $(basename "$ENV_FILE")"
fi

TOTAL=$(awk -v a="$SETUP_T0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
echo "==> setup: finished in $TOTAL s"
printf '%s\n' "${SUMMARY[@]}"
echo "    use it: source $ENV_FILE"
