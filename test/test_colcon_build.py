"""`colcon build` of this repository works the way it will in a robot's workspace.

The development setup (scripts/setup.sh) builds only the interfaces and imports the Python code from the
checkout; a robot gets the full install instead (TEMPOMEM_INSTALL_PYTHON_SOURCES=ON: our modules copied
next to the generated msg/srv). Only this test exercises that layout, so it builds a copy of the sources
as colcon would and checks the installed tree, then imports from that tree alone.
"""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PY_DIR = f"python{sys.version_info.major}.{sys.version_info.minor}"
NOT_SOURCES = {".git", ".venv", "build", "install", "log", "__pycache__", ".pytest_cache", ".ruff_cache"}

pytestmark = pytest.mark.slow


def _source_files():
    """Files a clone would have: tracked plus untracked-but-not-ignored (work not yet committed)."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, check=True,
        ).stdout.decode()
        files = [pathlib.Path(f) for f in out.split("\0") if f]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (e.g. an exported tarball)
        files = [
            p.relative_to(ROOT) for p in ROOT.rglob("*")
            if p.is_file() and not NOT_SOURCES.intersection(p.relative_to(ROOT).parts)
        ]
    return [f for f in files if (ROOT / f).is_file()]  # deleted but still tracked files drop out


def test_colcon_build_installs_the_full_package(tmp_path):
    package_dir = tmp_path / "src" / "tempomem_ros"
    for rel in _source_files():
        (package_dir / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, package_dir / rel)

    venv = pathlib.Path(sys.prefix)
    env = dict(os.environ, AMENT_PREFIX_PATH=str(venv), MAKEFLAGS="-j2")
    install = tmp_path / "install"
    command = [
        str(venv / "bin" / "colcon"), "--log-base", str(tmp_path / "log"),
        "build", "--merge-install", "--parallel-workers", "1",
        "--base-paths", str(tmp_path / "src"),
        "--build-base", str(tmp_path / "build"), "--install-base", str(install),
        "--cmake-args", f"-DPython3_EXECUTABLE={venv / 'bin' / 'python'}", f"-DCMAKE_PREFIX_PATH={venv}",
        "-DBUILD_TESTING=OFF",
    ]
    proc = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    build_logs = sorted(tmp_path.glob("log/latest_build/*/stdout_stderr.log"))
    logs = "\n".join(p.read_text(errors="replace")[-3000:] for p in build_logs)
    assert proc.returncode == 0, f"{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}\n{logs}"

    site = install / "lib" / PY_DIR / "site-packages" / "tempomem_ros"
    assert os.access(install / "lib" / "tempomem_ros" / "memory_node", os.X_OK)
    assert (install / "share" / "tempomem_ros" / "package.xml").is_file()
    assert (site / "msg" / "__init__.py").is_file()
    assert (site / "srv" / "__init__.py").is_file()
    assert (site / "core" / "__init__.py").is_file()
    # Ours, not the generated (empty) one: it is what lets a source tree and an install import together.
    assert (site / "__init__.py").read_text() == (ROOT / "tempomem_ros" / "__init__.py").read_text()

    # The installed tree on its own: its modules and its type support win over the venv's copies.
    run_env = dict(
        env,
        PYTHONPATH=str(site.parent),
        LD_LIBRARY_PATH=os.pathsep.join(filter(None, [str(install / "lib"), env.get("LD_LIBRARY_PATH")])),
    )
    check = (
        "import tempomem_ros.core, tempomem_ros.msg\n"
        "from rclpy.serialization import deserialize_message, serialize_message\n"
        "m = tempomem_ros.msg.Placement(object_id=7)\n"
        "assert deserialize_message(serialize_message(m), type(m)) == m\n"
        "print(tempomem_ros.core.__file__)\n"
        "print(tempomem_ros.msg.__file__)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", check], cwd=tmp_path, env=run_env, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.split() == [str(site / "core" / "__init__.py"), str(site / "msg" / "__init__.py")]
