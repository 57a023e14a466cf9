"""The names of one robot's nodes in a fleet launch (launch/fleet.launch.py): every absolute tempomem topic and
service name moved under /<robot>.

Why here and not in the launch file: the nodes use absolute names (topics.py), so a namespace alone moves
nothing; the remapping list must follow topics.py and the service table, and a test checks it without the
ROS launch packages.
"""

from __future__ import annotations


def robot_remappings(robot: str) -> list[tuple[str, str]]:
    """Every absolute topic and service name of the nodes, moved under /<robot> (/diagnostics stays shared)."""
    from tempomem_ros import topics
    from tempomem_ros.nodes.services import SERVICES

    names = [topics.COLOR, topics.DEPTH, topics.CAMERA_INFO, topics.INSTANCES, topics.POSE, topics.OBSERVATIONS,
             topics.SCENE_GRAPH, topics.MARKERS, topics.CHANGES]
    names += [f"{topics.SERVICE_NAMESPACE.rstrip('/')}/{name}" for name, _, _ in SERVICES]
    return [(name, f"/{robot}{name}") for name in names]


def robot_names(text: str) -> list[str]:
    """The robots:= argument as a list of ids (each also a valid robot_id: core/config.py SOURCE_PATTERN)."""
    from tempomem_ros.core.config import SOURCE_PATTERN

    robots = [r.strip() for r in text.split(",") if r.strip()]
    if not robots:
        raise RuntimeError("robots:= names no robot (give ids separated by commas, e.g. robots:=robot_a,robot_b)")
    if len(set(robots)) != len(robots):
        raise RuntimeError(f"robots:= names a robot twice: {text}")
    bad = [r for r in robots if SOURCE_PATTERN.fullmatch(r) is None or "/" in r or "." in r or "-" in r]
    if bad:
        raise RuntimeError(f"robot id {bad[0]!r} cannot be a ROS namespace and a robot_id: use letters, digits, '_'")
    return robots


def fusing_robot(robots: list[str], fuser: str) -> str | None:
    """The robot whose memory node fuses (fuse_staged true) under the fuser:= argument: ``first`` (the default) the
    first robot, a robot's id that robot, ``none`` no node (`tempomem fuse` runs beside the fleet). Why one: on a
    PostgreSQL store the robots stage beside one fuser (docs/FLEET.md); every node fusing on its timer made every
    robot take the fusion lock in turn."""
    choice = fuser.strip()
    if choice == "none":
        return None
    if choice in ("", "first"):
        return robots[0]
    if choice not in robots:
        raise RuntimeError(f"fuser:= names no robot of robots:= ({choice!r}; give one of them, first or none)")
    return choice
