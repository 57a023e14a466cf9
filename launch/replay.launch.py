"""Replay a bag into the nodes on simulated time.

    ros2 launch tempomem_ros replay.launch.py bag:=/path/to/bag [rate:=1.0] [store_path:=FILE] [rviz:=true]

Includes tempomem.launch.py with use_sim_time true and runs ``tempomem_replay <bag> --clock``, which
publishes /clock from the bag's time so that the nodes' clocks follow the recording. The player waits
(up to ``wait_subscribers`` seconds) for subscribers on the bag's topics, so the first frames are not
published before the perception node listens.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, ExecuteProcess, IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.substitutions import FindPackagePrefix, FindPackageShare

PACKAGE = "tempomem_ros"


def generate_launch_description():
    share = FindPackageShare(PACKAGE)
    replay = PathJoinSubstitution([FindPackagePrefix(PACKAGE), "lib", PACKAGE, "tempomem_replay"])
    return LaunchDescription(
        [
            DeclareLaunchArgument("bag", description="rosbag2 directory to replay (sqlite3 or mcap)."),
            DeclareLaunchArgument("rate", default_value="1.0", description="Replay speed factor."),
            DeclareLaunchArgument(
                "wait_subscribers",
                default_value="10.0",
                description="Seconds to wait for subscribers before playing.",
            ),
            DeclareLaunchArgument(
                "config",
                default_value=PathJoinSubstitution([share, "config", "tempomem.yaml"]),
                description="Parameter file for perception_node and memory_node.",
            ),
            DeclareLaunchArgument(
                "store_path", default_value="", description="Memory store; empty = the config's."
            ),
            DeclareLaunchArgument("rviz", default_value="false", description="Also start RViz."),
            IncludeLaunchDescription(
                PythonLaunchDescriptionSource(PathJoinSubstitution([share, "launch", "tempomem.launch.py"])),
                launch_arguments={
                    "use_sim_time": "true",
                    "config": LaunchConfiguration("config"),
                    "store_path": LaunchConfiguration("store_path"),
                    "rviz": LaunchConfiguration("rviz"),
                }.items(),
            ),
            ExecuteProcess(
                name="tempomem_replay",
                output="screen",
                cmd=[
                    replay,
                    LaunchConfiguration("bag"),
                    "--clock",
                    "--rate",
                    LaunchConfiguration("rate"),
                    "--wait-subscribers",
                    LaunchConfiguration("wait_subscribers"),
                    "--no-progress",
                ],
            ),
        ]
    )
