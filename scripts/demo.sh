#!/usr/bin/env bash
# THE main job: set everything up (idempotent), then replay the bundled scene (scene generator, seed 7)
# through perception_node and memory_node, ask the memory questions over its ROS services, print the
# answers with the observations they cite, and render the map (out/demo/map.png).
# Extra arguments go to the demo, e.g. `bash scripts/demo.sh --seed 3 --label-encoder none`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/setup.sh

export ROS_DOMAIN_ID="${ROS_DOMAIN_ID:-$((100 + $$ % 100))}"
# shellcheck disable=SC1091
source "$ROOT/.tempomem_env.sh"
export ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST   # DDS never leaves this machine's loopback
echo "==> demo: ROS_DOMAIN_ID=$ROS_DOMAIN_ID ROS_AUTOMATIC_DISCOVERY_RANGE=$ROS_AUTOMATIC_DISCOVERY_RANGE"
python -m tempomem_ros.tools.demo --out "$ROOT/out/demo" "$@"
