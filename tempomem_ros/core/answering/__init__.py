"""Questions as people and agents ask them -> the memory's operators (ROS-free, deterministic).

normalise.py (text), timeexpr.py (times), slots.py (things, against the memory's labels; plurals.py their
singular and plural), operators.py (THE operator table), understand.py (the matching), cues.py (the second
reader; its words by class in lexicon.py), events.py (clauses of events and reasons: a time or talk), answers.py
(running an understood question on a Memory).
"""

from .operators import BY_NAME, TABLE, OperatorSpec, Param, describe
from .slots import Names
from .understand import Refusal, Understanding, understand

__all__ = ["BY_NAME", "Names", "OperatorSpec", "Param", "Refusal", "TABLE", "Understanding", "describe",
           "understand"]
