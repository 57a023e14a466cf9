"""scripts/setup.sh refuses the pip stage, with the figures, when the disk cannot hold the venv.

Stop 54's CI ran out of space inside `pip install` (torch's CUDA wheels: the venv is ~7 GB) and printed only
pip's OSError after a half-installed venv. The check runs before pip touches anything, so this test asks for
more space than any disk has and looks at what the script says and what it left.
"""

import os
import pathlib
import shutil
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_pip_stage_refuses_when_the_disk_is_too_small(tmp_path):
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup.sh", tmp_path / "scripts" / "setup.sh")
    for name in ("requirements.txt", "constraints.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHONPATH"))}
    env["TEMPOMEM_PIP_FREE_GIB"] = "10000000"
    done = subprocess.run(["bash", "scripts/setup.sh"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 1
    assert "setup.sh: ERROR: only " in done.stderr
    assert "the pip stage needs about 10000000 GiB there" in done.stderr
    assert "==> setup: pip" in done.stdout
    assert "OSError" not in done.stdout + done.stderr
    site = next((tmp_path / ".venv" / "lib").glob("python3.*")) / "site-packages"
    assert site.is_dir()
    assert not (site / "torch").exists()          # pip never ran
    assert not (site / "rclpy").exists()
    assert not (tmp_path / ".venv" / ".tempomem" / "pip").exists()   # no stamp: the next run installs
