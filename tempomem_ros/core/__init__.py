"""ROS-free core of tempomem_ros: fusion, storage, the temporal model and queries.

Importing this package must never import rclpy (a test enforces it): the core is used by the ROS nodes,
by offline tools and by tests alike, and must run where ROS is not installed.
"""

from .config import (
    AbsenceConfig,
    FusionConfig,
    IdentityConfig,
    MemoryConfig,
    RejectionConfig,
    RelationConfig,
    SemanticConfig,
)
from .errors import InvalidInputError, ReadOnlyError, SchemaError, StoreError, TempoMemError, UnknownIdError
from .memory import Memory
from .answering import Refusal, Understanding, understand
from .types import (
    Answer,
    AuditRow,
    CameraView,
    ChangeEventInfo,
    CommitStats,
    ObjectInfo,
    Observation,
    ObservationRecord,
    PlacementInfo,
    RegionInfo,
    RelationalResult,
    RelationInfo,
    Scored,
)

__all__ = [
    "AbsenceConfig", "Answer", "AuditRow", "CameraView", "ChangeEventInfo", "CommitStats", "FusionConfig",
    "IdentityConfig", "InvalidInputError", "Memory", "MemoryConfig", "ObjectInfo", "Observation",
    "ObservationRecord", "PlacementInfo", "ReadOnlyError", "RegionInfo", "RejectionConfig", "RelationConfig",
    "RelationalResult", "RelationInfo", "Refusal", "SchemaError", "Scored", "SemanticConfig", "StoreError",
    "TempoMemError", "UnknownIdError", "Understanding", "understand",
]
