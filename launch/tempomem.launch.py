"""Start the perception node and the memory node (and optionally RViz) with one parameter file.

    ros2 launch tempomem_ros tempomem.launch.py [config:=FILE] [store_path:=FILE] [rviz:=true]
        [use_sim_time:=true]

Why an OpaqueFunction for the nodes: ``store_path`` overrides the file only when it is given; passing an
empty string as a parameter would silently replace the store path set in the YAML file.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.conditions import IfCondition
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare

PACKAGE = "tempomem_ros"
TRUE_WORDS = ("true", "1", "yes", "on")


def _nodes(context, *args, **kwargs):
    config = LaunchConfiguration("config").perform(context)
    store_path = LaunchConfiguration("store_path").perform(context).strip()
    use_sim_time = LaunchConfiguration("use_sim_time").perform(context).strip().lower() in TRUE_WORDS
    common = {"use_sim_time": use_sim_time}
    memory_parameters = [config, common] + ([{"store_path": store_path}] if store_path else [])
    return [
        Node(
            package=PACKAGE,
            executable="perception_node",
            name="perception_node",
            output="screen",
            parameters=[config, common],
        ),
        Node(
            package=PACKAGE,
            executable="memory_node",
            name="memory_node",
            output="screen",
            parameters=memory_parameters,
        ),
    ]


def generate_launch_description():
    share = FindPackageShare(PACKAGE)
    return LaunchDescription(
        [
            DeclareLaunchArgument(
                "config",
                default_value=PathJoinSubstitution([share, "config", "tempomem.yaml"]),
                description="Parameter file for perception_node and memory_node.",
            ),
            DeclareLaunchArgument(
                "store_path",
                default_value="",
                description="Memory store (SQLite); empty = the value in the config file.",
            ),
            DeclareLaunchArgument(
                "rviz", default_value="false", description="Also start RViz with rviz/tempomem.rviz."
            ),
            DeclareLaunchArgument(
                "use_sim_time",
                default_value="false",
                description="Follow /clock (true when replaying a bag with --clock).",
            ),
            OpaqueFunction(function=_nodes),
            Node(
                package="rviz2",
                executable="rviz2",
                name="rviz2",
                output="screen",
                arguments=["-d", PathJoinSubstitution([share, "rviz", "tempomem.rviz"])],
                parameters=[{"use_sim_time": LaunchConfiguration("use_sim_time")}],
                condition=IfCondition(LaunchConfiguration("rviz")),
            ),
        ]
    )
