"""The ROS-free layers stay ROS-free: importing them must not pull in rclpy (nor torch, for core).

Why it matters: core, perception and semantics are used by offline tools, benchmarks and tests that must
run without a ROS context (and core without the heavy torch import). Every module of each package is
imported, not just its __init__, so a single stray `import rclpy` anywhere inside is caught. Each check runs
in a fresh interpreter: this pytest process has long since imported rclpy for other tests.
"""

import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]

IMPORT_ALL_AND_LIST_MODULES = r"""
import importlib, json, pkgutil, sys

def fail(name):
    raise ImportError(f"cannot import {name}")

package = importlib.import_module(sys.argv[1])
for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".", onerror=fail):
    importlib.import_module(info.name)
print(json.dumps(sorted(sys.modules)))
"""

ROS = ("rclpy", "tempomem_ros.msg", "tempomem_ros.srv")
TORCH = ("torch",)


def _forbidden(modules, roots):
    return sorted(m for m in modules if any(m == r or m.startswith(r + ".") for r in roots))


@pytest.mark.parametrize(
    "package, forbidden",
    [
        ("tempomem_ros.core", ROS + TORCH),
        ("tempomem_ros.perception", ROS),
        ("tempomem_ros.semantics", ROS),
    ],
)
def test_importing_package_does_not_import(package, forbidden, tmp_path):
    if not (ROOT / package.replace(".", "/") / "__init__.py").is_file():
        pytest.skip(f"{package} does not exist yet")
    # cwd outside the checkout: the package must resolve the way it does for any user (through the venv).
    proc = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL_AND_LIST_MODULES, package],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    modules = json.loads(proc.stdout.strip().splitlines()[-1])
    assert package in modules
    assert _forbidden(modules, forbidden) == []
