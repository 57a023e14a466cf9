"""A request of several commands of which one writes or acts: refused as a whole.

Why (seventeenth round, from the sixteenth round's review): "last seen --label mug; forget --label mug" was answered as
when the mug was last seen, the second command's words shown as ignored ("ignoring 'label mug forget label'"). An agent
that sends a batch reads an answer as the batch's result: answering the read alone tells it nothing of the write it
asked for, and it may go on as if the mug were forgotten. /tempomem/query is read-only, so the request is refused as a
whole and the refusal names the word that writes or acts; the agent can send the read alone. A batch of reads only is
left to the readers (two questions are refused as two there, one call per request in envelope.py and loose.py).
Commands are parted by the separators of shells and scripts (";", "&&", "||", a line break); a command writes or acts
when its first word (a tool name's first part: "forget_object", "deleteObject") is one of loose.py's words that write
or act, or of the action verbs that always ask for one.
"""

from __future__ import annotations

import re

from .envelope import _snake
from .loose import ACTS
from .operators import ACTION_ALWAYS

# review of the seventeenth round: a shell's "&" (the command before it run in the background) parts commands too
_SEPARATORS = re.compile(r";|&&|\|\||\n|(?<=\s)&(?=\s)")
# what may stand before a command's first word: a prompt, a slash command, a flag's dashes, a call's module
# ("$ ", "> ", "/forget", "tempomem forget", "mem.forget(")
# review of the seventeenth round: and a script's path, sudo and a word of politeness or sequence ("./forget.sh mug",
# "sudo forget --label mug", "please pick it up", "then forget it"): each batch was answered as its read alone
_HEAD = re.compile(r"^[\s$>#/\-*`'\"(.]*(?:(?:sudo|please|kindly|then|and|also|now)\s+)*"
                   r"(?:(?:tempomem|memory|mem|robot|tm)\b[\s.:/]*)?([A-Za-z][A-Za-z_-]*)")
_WRITES = ACTS | frozenset(ACTION_ALWAYS)


def acting_command(text: str) -> str | None:
    """The word that writes or acts at the head of one of two or more commands of ``text``, or None."""
    if not isinstance(text, str):
        return None
    parts = [p for p in _SEPARATORS.split(text) if p.strip()]
    if len(parts) < 2:
        return None
    for part in parts:
        m = _HEAD.match(part)
        if m is None:
            continue
        word = _snake(m.group(1).replace("-", "_")).split("_")[0]
        if word in _WRITES:
            return word
    return None
