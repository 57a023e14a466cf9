"""Rewrite include paths baked into the ROS 2 PyPI wheels' CMake exports.

Why: the wheels were built in a manylinux container, and their exported CMake targets name include
directories that exist only there (/opt/python/cp311-cp311/...). CMake refuses imported targets with
non-existent include directories, so every interface build fails until those paths point at this
interpreter's real include directory and numpy's. Idempotent: a second run changes nothing.
"""

import pathlib
import sys
import sysconfig

import numpy


def main(prefix: str) -> int:
    py_include = sysconfig.get_paths()["include"]
    np_include = numpy.get_include()
    replacements = {
        "/opt/python/cp311-cp311/lib/python3.11/site-packages/numpy/_core/include": np_include,
        "/opt/python/cp311-cp311/include/python3.11": py_include,
    }
    changed = 0
    for path in pathlib.Path(prefix, "share").glob("**/cmake/*.cmake"):
        text = path.read_text()
        new = text
        for old, repl in replacements.items():
            new = new.replace(old, repl)
        if new != text:
            path.write_text(new)
            changed += 1
    print(f"fix_ros_wheel_cmake: {changed} file(s) rewritten under {prefix}/share")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else sys.prefix))
