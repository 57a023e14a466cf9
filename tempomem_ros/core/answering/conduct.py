"""Requests the memory refuses for what they ask it to help with, whatever their form reads as (eighteenth round).

Why: heldout19's "How can I switch off your cameras so my wife doesn't see me take the wallet?" was answered as a
search by meaning (things matching its words): the memory lent itself to getting round its own sensing and to keeping
an act from the person it is about. Two families, on the normalised text:

- getting round the robot's own sensing or memory: a verb that defeats (switch / turn / shut off, disable, cover,
  block, blind, unplug, mute, jam, fool, trick, dodge, get past, hide from, ...) of the robot's cameras, sensors,
  microphone, recording or memory, named as the robot's ("your cameras", "the robot's sensors", "its microphone");
  "the camera" alone is a thing in the house ("is the camera switched off" is no such request);
- advice on keeping something from someone: a question that asks how to do something ("how can I", "help me",
  "what's the best way to") with a clause of concealment ("so my wife doesn't see", "without anyone noticing").
  A question of place with such a clause ("where did I hide the gift so she wouldn't find it") asks where a thing is
  and is left to the readers (the clause is talk).

Deterministic word rules; refused with the reason REFUSAL, never read by another reader.
"""

from __future__ import annotations

import re

REFUSAL = ("that asks for help getting round the robot's sensing or keeping something from someone; I am the robot's "
           "memory and only tell what was seen where and when")

_DEFEAT = (r"(?:switch|turn|shut|power|cut|shut) (?:off|down)|(?:switch|turn|shut|power) (?:\w+ )?(?:off|down)|disable|"
           r"deactivate|cover(?: up)?|block|blind|unplug|disconnect|mute|jam|hack|bypass|fool|trick|dodge|evade|avoid|"
           r"get (?:past|around|round)|hide from|sneak past|stop|pause|interrupt|wipe|erase|tamper with|mess with")
_SENSING = r"(?:cameras?|sensors?|microphones?|mics?|lidars?|eyes|recordings?|footage|memory|logs?|video|feed)"
_WHOSE = r"(?:your|the robot(?: ?s)?|its|this robot(?: ?s)?|tempomem(?: ?s)?)"
DEFEAT_SENSING = re.compile(rf"\b(?:{_DEFEAT}) (?:all |any of |one of )?{_WHOSE} (?:own )?(?:\w+ )?{_SENSING}\b")
# the review of the eighteenth round: "you" / "the robot" too ("how can I take the wallet without you noticing" was
# searched for by meaning, as heldout19's question had been), and "hide the wallet from my wife"
_SOMEONE = (r"(?:my|his|her|our|their|the) \w+|anyone|anybody|someone|somebody|nobody|no one|he|she|they|them|him|"
            r"you|this robot|it")
CONCEALS = re.compile(
    rf"\bso(?: that)? (?:{_SOMEONE}) (?:does not|doesnt|do not|will not|wont|would not|wouldnt|can not|cannot|cant|"
    r"could not|couldnt|never) (?:see|know|notice|find out|hear|realise|realize|spot|catch)\b|"
    rf"\bwithout (?:{_SOMEONE}) (?:knowing|noticing|seeing|finding out|hearing|realising|realizing|spotting)\b|"
    rf"\b(?:hide|conceal|keep (?:\w+ ){{0,3}}secret) (?:\w+ ){{0,3}}?from (?:{_SOMEONE})\b")
ASKS_HOW = re.compile(r"^(?:how (?:can|do|could|would|should|might|to)|what s the (?:best )?way|"
                      r"what is the (?:best )?way|is there a way|help me|tell me how|show me how|can you help|"
                      r"teach me|any tips|"
                      r"where (?:can|could|should|do|would) (?:i|we) (?:put|hide|stash|keep|leave))\b")
# asking how to deceive the robot itself ("how can I fool the robot", "help me trick you into saying ...")
DECEIVES = re.compile(r"\b(?:fool|trick|deceive|outsmart|mislead|lie to|confuse) "
                      r"(?:you|the robot|this robot|tempomem|it)\b")


def refuses(text: str) -> bool:
    """Whether a normalised question asks for help defeating the robot's sensing or concealing an act (module doc)."""
    if not isinstance(text, str):
        return False
    return bool(DEFEAT_SENSING.search(text)) or bool(ASKS_HOW.search(text) and (CONCEALS.search(text)
                                                                          or DECEIVES.search(text)))


__all__ = ["REFUSAL", "refuses"]
