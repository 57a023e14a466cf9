"""Several robots on one shared memory: a perception node and a memory node per robot, all writing into one
PostgreSQL store (docs/FLEET.md).

    ros2 launch tempomem_ros fleet.launch.py robots:=robot_a,robot_b store_path:=service=fleet [config:=FILE]

Each robot's nodes run in the namespace of its id, with ``robot_id`` set to it (the source of every frame
it stores) and every tempomem topic and service under ``/<robot>`` (``/robot_a/camera/instances``,
``/robot_a/tempomem/observations``, ``/robot_a/tempomem/query``, ...): the nodes use absolute names (topics.py),
so they are remapped one by one. /diagnostics stays shared (each memory node reports under its own name).
Every robot reports in the one ``map`` frame (a memory node with a robot_id refuses any other world_frame).

Why the store must be given: robots sharing a memory need a database server; the default SQLite file of one
robot cannot be shared by several machines.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare

from tempomem_ros.fleet_names import robot_names, robot_remappings

PACKAGE = "tempomem_ros"


def _nodes(context, *args, **kwargs):
    config = LaunchConfiguration("config").perform(context)
    store_path = LaunchConfiguration("store_path").perform(context).strip()
    if not store_path:
        raise RuntimeError("store_path:= is required: the PostgreSQL store the robots share (postgresql://... or "
                           "service=NAME)")
    nodes = []
    for robot in robot_names(LaunchConfiguration("robots").perform(context)):
        remaps = robot_remappings(robot)
        nodes.append(Node(package=PACKAGE, executable="perception_node", name="perception_node", namespace=robot,
                          output="screen", parameters=[config], remappings=remaps))
        nodes.append(Node(package=PACKAGE, executable="memory_node", name="memory_node", namespace=robot,
                          output="screen", remappings=remaps,
                          parameters=[config, {"store_path": store_path, "robot_id": robot, "world_frame": "map"}]))
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
        OpaqueFunction(function=_nodes),
    ])
