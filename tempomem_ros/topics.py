"""Default topic and frame names shared by the nodes, the bag writers and the replay tool.

Why one place: a bag written by the scene generator must replay into the nodes without remapping, and
the evaluation must subscribe to what the memory publishes; a name changed in one file only would
silently disconnect them.
"""

WORLD_FRAME = "map"

COLOR = "/camera/color/image_raw"          # sensor_msgs/Image, rgb8
DEPTH = "/camera/depth/image_raw"          # sensor_msgs/Image, 16UC1 mm (0 = invalid) or 32FC1 m
CAMERA_INFO = "/camera/camera_info"        # sensor_msgs/CameraInfo
INSTANCES = "/camera/instances"            # tempomem_ros/InstanceMasks
POSE = "/camera/pose"                      # geometry_msgs/PoseStamped, camera optical frame in map

OBSERVATIONS = "/tempomem/observations"    # tempomem_ros/ObservationArray
SCENE_GRAPH = "/tempomem/scene_graph"      # tempomem_ros/SceneGraph
MARKERS = "/tempomem/markers"              # visualization_msgs/MarkerArray
CHANGES = "/tempomem/changes"              # tempomem_ros/ChangeEvent
PERCEPTION_DIAGNOSTICS = "/diagnostics"    # diagnostic_msgs/DiagnosticArray

SERVICE_NAMESPACE = "/tempomem"
