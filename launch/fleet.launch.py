"""Several robots on one shared memory: a perception node and a memory node per robot, all writing into one
PostgreSQL store (docs/FLEET.md).

    ros2 launch tempomem_ros fleet.launch.py robots:=robot_a,robot_b store_path:=service=fleet [config:=FILE]
                                             [fuser:=first|ROBOT|none]

Each robot's nodes run in the namespace of its id, with ``robot_id`` set to it (the source of every frame
it stores) and every tempomem topic and service under ``/<robot>`` (``/robot_a/camera/instances``,
``/robot_a/tempomem/observations``, ``/robot_a/tempomem/query``, ...): the nodes use absolute names (topics.py),
so they are remapped one by one. /diagnostics stays shared (each memory node reports under its own name).
Every robot reports in the one ``map`` frame (a memory node with a robot_id refuses any other world_frame).
One memory node fuses (``fuser:=``, default the first robot; ``none`` when `tempomem fuse` runs beside the fleet):
the others only stage (``fuse_staged`` false) and publish what it fused.

Why the store must be given: robots sharing a memory need a database server; the default SQLite file of one
robot cannot be shared by several machines.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare

from tempomem_ros.fleet_names import fusing_robot, robot_names, robot_remappings

PACKAGE = "tempomem_ros"


def _nodes(context, *args, **kwargs):
    config = LaunchConfiguration("config").perform(context)
    store_path = LaunchConfiguration("store_path").perform(context).strip()
    if not store_path:
        raise RuntimeError("store_path:= is required: the PostgreSQL store the robots share (postgresql://... or "
                           "service=NAME)")
    nodes = []
    robots = robot_names(LaunchConfiguration("robots").perform(context))
    fuser = fusing_robot(robots, LaunchConfiguration("fuser").perform(context))
    for robot in robots:
        remaps = robot_remappings(robot)
        nodes.append(Node(package=PACKAGE, executable="perception_node", name="perception_node", namespace=robot,
                          output="screen", parameters=[config], remappings=remaps))
        nodes.append(Node(package=PACKAGE, executable="memory_node", name="memory_node", namespace=robot,
                          output="screen", remappings=remaps,
                          parameters=[config, {"store_path": store_path, "robot_id": robot, "world_frame": "map",
                                               "fuse_staged": robot == fuser}]))
    return nodes


def generate_launch_description():
    share = FindPackageShare(PACKAGE)
    return LaunchDescription([
        DeclareLaunchArgument("robots", default_value="robot_a,robot_b",
                              description="Robot ids, separated by commas (each one's namespace and robot_id)."),
        DeclareLaunchArgument("store_path", default_value="",
                              description="The shared PostgreSQL store (postgresql://... or service=NAME)."),
        DeclareLaunchArgument("config", default_value=PathJoinSubstitution([share, "config", "tempomem.yaml"]),
                              description="Parameter file for every perception and memory node."),
        DeclareLaunchArgument("fuser", default_value="first",
                              description="The robot whose memory node fuses (first, a robot's id, or none when "
                                          "`tempomem fuse` runs beside the fleet); the others only stage."),
        OpaqueFunction(function=_nodes),
    ])
