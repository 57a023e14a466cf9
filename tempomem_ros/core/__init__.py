"""ROS-free core of tempomem_ros: fusion, storage, the temporal model and queries.

Importing this package must never import rclpy (a test enforces it): the core is used by the ROS nodes,
by offline tools and by tests alike, and must run where ROS is not installed.
"""

from .config import (
    AbsenceConfig,
    FusionConfig,
    GateConfig,
    IdentityConfig,
    MemoryConfig,
    RejectionConfig,
    RelationConfig,
    SemanticConfig,
)
from .errors import (
    ImplausibleInputError,
    InvalidInputError,
    ReadOnlyError,
    SchemaError,
    StoreAccessError,
    StoreClosedError,
    StoreCorruptError,
    StoreError,
    StoreFullError,
    StoreIOError,
    StoreLockedError,
    TempoMemError,
    UnknownIdError,
)
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
    StageResult,
)

__all__ = [
    "AbsenceConfig", "Answer", "AuditRow", "CameraView", "ChangeEventInfo", "CommitStats", "FusionConfig",
    "GateConfig", "IdentityConfig", "ImplausibleInputError", "InvalidInputError", "Memory", "MemoryConfig",
    "ObjectInfo", "Observation", "ObservationRecord", "PlacementInfo", "ReadOnlyError", "Refusal", "RegionInfo",
    "RejectionConfig", "RelationConfig", "RelationalResult", "RelationInfo", "SchemaError", "Scored",
    "SemanticConfig", "StageResult", "StoreAccessError", "StoreClosedError", "StoreCorruptError", "StoreError",
    "StoreFullError", "StoreIOError", "StoreLockedError", "TempoMemError", "UnknownIdError", "Understanding",
    "understand",
]
