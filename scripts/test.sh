#!/usr/bin/env bash
# THE test command: set up (idempotent, fast when nothing changed), lint, then run every test under test/.
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -k interfaces -x`.
# Fails on a lint error, on any failing test, and when no test ran at all (a broken collection must not
# look like success).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/setup.sh

# A domain of our own, so that a test run never sees the nodes of another run on this machine.
export ROS_DOMAIN_ID="${ROS_DOMAIN_ID:-$((100 + $$ % 100))}"
# shellcheck disable=SC1091
source "$ROOT/.tempomem_env.sh"
export ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST
echo "==> test: ROS_DOMAIN_ID=$ROS_DOMAIN_ID ROS_AUTOMATIC_DISCOVERY_RANGE=$ROS_AUTOMATIC_DISCOVERY_RANGE"

lint_paths=()
for path in tempomem_ros test bench scripts; do
  if [ -d "$path" ]; then lint_paths+=("$path"); fi
done
echo "==> test: ruff check ${lint_paths[*]}"
ruff check "${lint_paths[@]}"

REPORT="$(mktemp "${TMPDIR:-/tmp}/tempomem_junit.XXXXXX.xml")"
trap 'rm -f "$REPORT"' EXIT
echo "==> test: pytest"
set +e
python -m pytest -p no:cacheprovider -ra --junitxml="$REPORT" "$@"   # paths: testpaths in pyproject.toml
rc=$?
set -e

if [ "$rc" -eq 5 ]; then
  echo "test.sh: FAILED: pytest collected no tests" >&2
  exit 1
fi
# Counts from the JUnit report rather than pytest's summary line, whose wording is not an interface.
read -r passed failed skipped < <(python - "$REPORT" <<'EOF'
import sys
import xml.etree.ElementTree as ET

root = ET.parse(sys.argv[1]).getroot()
suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
total = sum(int(s.get("tests", 0)) for s in suites)
failed = sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)
skipped = sum(int(s.get("skipped", 0)) for s in suites)
print(total - failed - skipped, failed, skipped)
EOF
) || { passed=0; failed="?"; skipped="?"; }
if [ "$rc" -ne 0 ]; then
  echo "test.sh: FAILED (pytest exit $rc): passed $passed, failed/errors $failed, skipped $skipped" >&2
  exit "$rc"
fi
if [ "$passed" -eq 0 ]; then
  echo "test.sh: FAILED: no test passed (skipped: $skipped)" >&2
  exit 1
fi
echo "tests passed: $passed (skipped: $skipped)"
