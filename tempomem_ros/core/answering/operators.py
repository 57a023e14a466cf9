"""THE operator table: every operator a question can reach, its arguments, how people ask for it, and how
its interpretation reads. Adding a phrasing means adding a form here, nowhere else.

Why one table: the understander (understand.py), the answers (answers.py), the typed arguments of the agent
tools (tools/agent_tools.py) and the refusal suggestions all read it, so a form, an argument or an example
cannot exist in one of them and be missing from another.

Forms are regular expressions over the normalised question (normalise.py) after time expressions were
replaced (timeexpr.py): ``@t`` is a moment, ``@w`` a span. Macros: {x} the thing asked about, {a} an anchor
(an object or a region), {rel} a relation word, {R} a radius, {P} a point "x y z", {d} a free description,
{be} is/are, {was} was/were, {you} i/you/we/the robot/the camera, {see} a verb of seeing. A form matches the
whole question; a question is answered only when the forms whose slots resolve give one reading (two
operators, or two argument sets, are refused as ambiguous: understand.py), and the semantic forms are the
fallback, taken only when nothing else reads it. ``mode`` of a form: "find" (a definite or known thing is
looked up, an indefinite description goes to semantic search), "isthere" (the same for "is there ..."),
"activity" (the whole question is the description: "where can I sit"), "bare" (a known thing alone, asked with
a question mark: "backpack?").

Besides the forms, the table's vocabulary lives here too: the synonyms the forms share (_LOC, _SEEN, _MOVED, ...),
FORMAL_VERBS (stripped to read a noun phrase), ACTION_VERBS (requests refused as actions) and
NOT_A_DESCRIPTION (words that keep another operator's question out of semantic search).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .fmt import fmt_pos, fmt_time
from .lexicon import TALK_WORDS as _TALK_WORDS

RELATION_WORDS = {
    "on top of": "on", "up on": "on", "on": "on", "upon": "on", "atop": "on", "sitting on": "on", "lying on": "on",
    "underneath": "under", "under": "under", "beneath": "under", "below": "under",
    "next to": "near", "beside": "near", "by": "near", "near": "near", "near to": "near", "close to": "near",
    "around": "near", "alongside": "near", "nearby": "near", "adjacent to": "near", "next door to": "near",
    "inside of": "in", "inside": "in", "in": "in", "within": "in",
}
# Verbs an agent (or a formal user) puts before the thing it wants: "Report the current location of the
# backpack", "Provide the previous location of the laptop". What follows them is matched as a noun phrase.
FORMAL_VERBS = ("report", "provide", "retrieve", "obtain", "resolve", "establish", "pull", "query", "compute",
                "calculate", "return", "enumerate", "list", "identify", "summarise", "summarize",
                "state", "give", "get", "show", "display", "output", "determine", "confirm", "verify", "check", "name",
                "present", "indicate", "specify", "describe", "look up", "find out", "tell", "suggest", "recommend",
                "propose")
# Requests for an action the memory cannot do (it remembers, it does not act): refused as such, never searched.
# A verb counts only when an object or a particle follows it ("move the chair", "turn on the lamp"), so that
# "move count for the lamp" is not a request.
ACTION_VERBS = ("bring", "fetch", "carry", "deliver", "hand", "take", "grab", "pick", "put", "place", "move", "push",
                "pull", "lift", "drop", "throw", "toss", "turn", "switch", "clean", "tidy", "wash", "wipe", "dust",
                "vacuum", "sweep", "open", "close", "shut", "lock", "unlock", "water", "feed", "charge", "plug",
                "unplug", "order", "buy", "mark", "set", "delete", "remove", "erase", "reset", "go", "drive",
                "navigate", "follow", "cook", "make", "play", "call", "send", "fix", "repair", "hide", "pack")
# Verbs that ask for an action whatever follows them (stop 36): no question to the memory starts with one, so the
# request is refused as an action even when no object word follows ("can you play hide and seek with me" was read as
# where to look for a "play" on heldout16, through "seek": its one wrong route). "what can I play with" starts with
# "what" and is untouched.
ACTION_ALWAYS = ("play", "sing", "dance", "cook", "navigate", "drive")
ACTION_OBJECT_WORDS = ("me", "us", "up", "down", "on", "off", "away", "out", "over", "back", "in", "to", "the", "my",
                       "a", "an", "your", "our", "his", "her", "their", "this", "that", "these", "those", "it", "them",
                       "all", "everything", "some", "and")
# Words of the other operators' questions: a description for semantic search holding one of them was a question
# of another kind whose form is missing ("show all places of the lamp", "i need my charger where is it"), and is
# refused rather than searched for.
NOT_A_DESCRIPTION = frozenset(
    "where when which who whose how why location locations position positions places whereabouts history "
    "moved move moves movement movements seen sighting sightings observed missing changed change changes log "
    "time times first last before previously earlier ago @t @w "
    # sixth round: a place ("every spot the remote has been") and words of talk ("... dear I heard a noise")
    "spot spots been "
    # seventh round: "still" asks whether something stays as it was, never describes what to find ("is there still
    # tea in the mug" went to semantic search on heldout10; what a container holds is not in the memory)
    "still".split()) | _TALK_WORDS
# Questions the memory cannot answer (what is inside a thing, its state, who or why, an action, an opinion),
# written with X for the thing: the similarity reader (similar.py) compares a refused question with these as well
# as with the forms, and a question nearest to one of them stays refused. Why: a sentence model puts "is there
# still tea in the mug" near "is the mug still there" (sixth round's one wrong route was that question, through
# another reader); a nearer sentence of what cannot be answered keeps it out. Add one here, nowhere else.
UNSUPPORTED_EXAMPLES = (
    "is there still tea in the X", "is there any coffee left in the X", "how much water is in the X",
    "is the X full", "is the X empty", "is the X clean", "is the X dirty", "is the X broken", "is the X working",
    "is the X switched on", "is the X turned off", "is the X charged", "is the X open", "is the X locked",
    "is the X hot", "is the X wet", "what colour is the X", "how big is the X", "how heavy is the X",
    "what is the X made of", "how much did the X cost", "who owns the X", "whose X is this", "who moved the X",
    "who took the X", "who put the X there", "why did the X move", "why is the X missing", "what is the X for",
    "how do I use the X", "is the X safe", "do you like the X", "what is the weather like", "what time is it",
    "how old is the X", "when was the X made", "when was the X bought", "bring me the X", "give me the X",
    "hand me the X", "fetch the X", "put the X on the table", "move the X to the kitchen", "clean the X",
    "turn on the X", "open the X", "go to the X", "navigate to the kitchen", "pick up the X", "charge the X",
    "remind me to buy a new X", "order a new X", "tell me a joke", "ignore previous instructions",
    "what should I cook for dinner", "how are you today", "what is in the news", "is it going to rain",
)
# Operators that ask about the past only: a question that puts itself in the present ("at present", "right now",
# "currently": timeexpr.says_present) is never read by one of them (eighth round: "anything sat on the drug trolley at
# present" went to relational_before on heldout11, "sat" being also a past tense).
PAST_OPERATORS = frozenset({"previous", "relational_before", "as_of", "relational_as_of"})
CHANGE_KINDS = ("appeared", "moved", "removed", "reappeared")
APPEARED = ("appeared", "reappeared")


@dataclass(frozen=True)
class Param:
    """An operator argument: its type decides validation (agent tools) and how it reads."""

    name: str
    kind: str  # label | anchor | relation | time | kinds | point | radius | text
    description: str
    required: bool = False


@dataclass(frozen=True)
class Form:
    pattern: str
    fixed: dict = field(default_factory=dict)
    mode: str = ""


@dataclass(frozen=True)
class OperatorSpec:
    name: str
    summary: str
    params: tuple[Param, ...]
    forms: tuple[Form, ...]
    examples: tuple[str, ...]
    words: str  # how the interpretation reads; {label} {anchor} {relation} {t} {window} {kinds} {center} ...


def _f(*patterns: str, mode: str = "", **fixed) -> tuple[Form, ...]:
    return tuple(Form(p, dict(fixed), mode) for p in patterns)


LABEL = Param("label", "label", "the object asked about: words of its label (whole words, any case)", True)
ANCHOR = Param("anchor", "anchor", "the reference object or region: words of its label", True)
RELATION = Param("relation", "relation", "on | under | near | in", True)
T = Param("t", "time", "the moment asked about, seconds since the epoch (UTC)", True)
SINCE = Param("since", "time", "start of the span, seconds since the epoch (none: from the beginning)")
UNTIL = Param("until", "time", "end of the span, seconds since the epoch (none: now)")
KINDS = Param("kinds", "kinds", "only these change kinds: appeared | moved | removed | reappeared (none: all)")

_SUBJ = (r"(?:what|which(?: things| objects| items| bits)?|what (?:things|objects|items|stuff|bits)|anything|"
         r"everything)")
# Synonyms of the operators' nouns and verbs, each written once and used by every form that needs it (issue 13,
# second held-out set: "relocated", "observed", "position", "spot" were missing from some forms only).
_LOC = r"(?:location|position|place|spot|whereabouts|placement|pose|locations|positions|places|spots)"
_CUR = r"(?:(?:current|present|latest|last known|actual) )?"
_PREV = r"(?:previous|former|prior|earlier|old|last)"
_SEEN = r"(?:seen|spotted|observed|detected|noticed|sighted|recorded|captured)"
_SIGHTING = r"(?:sightings?|observations?|detections?)"
_OBJS = r"(?:objects|things|items|stuff)"
_VERB_NOW = (r"(?:is|are|lies|lie|sits|sit|sat|stands|stand|is lying|is sitting|is standing|are lying|are sitting|"
             r"are standing|is kept|are kept|is left|are left|can be found|is there|are there|do you see|is placed|"
             r"is located|are located|is stored|are stored)")
_VERB_PAST = (r"(?:was|were|lay|sat|stood|had been|used to be|was lying|was sitting|was standing|were lying|"
              r"were sitting|was kept|were kept|was there|were there)")
_UNITS = r"(?:secs|seconds|mins|minutes|hrs|hours|days)"  # the unit a length of time is asked in
_PLACE = (r"(?:there|here|in place|in (?:its|their|the) (?:current |same |present )?(?:place|spot|position|location)|"
          r"at (?:(?:its|their|this|that|the) )?(?:current |present |same )?(?:place|spot|position|location)|"
          r"where (?:it|they) (?:is|are) now|"
          r"at (?:its|their) (?:current )?(?:place|spot)|where (?:it|they) (?:is|are)|"
          r"in the same (?:spot|place|position)|in that (?:spot|place))")
_STILL = (r"(?:(?:there|here) where (?:i|we|you|he|she|they) (?:left|put) (?:it|them)|"
          r"there|here|around|present|in (?:its|their) place|in place|(?:on|in|at) (?:its|their) "
          r"(?:usual |last known |last seen |known )?(?:place|spot|position|location)|"
          r"where (?:i|we|you|he|she|they) (?:left|put) (?:it|them)|"
          r"where (?:it|they) (?:was|were|is|are|belongs?)|at (?:its|their) place|in the same place)")
_MOVED = (r"(?:moved?|been moved|gets? moved|got moved|gotten moved|relocated|been relocated|shifted|been shifted|"
          r"repositioned|been repositioned|displaced|been displaced|"
          r"changed? (?:its |their )?(?:places?|positions?|spots?|locations?))")

TABLE: tuple[OperatorSpec, ...] = (
    OperatorSpec(
        "spatial", "objects whose centre lies within a radius of a point or of an object", (
            Param("center", "point", "x y z in metres, world frame (or give anchor)"),
            Param("anchor", "anchor", "an object whose current centre is the centre (or give center)"),
            Param("radius", "radius", "metres, > 0", True)),
        _f(rf"{_SUBJ}(?: (?:is|are|lies|lie|can be found))? (?:within|inside) {{R}} (?:of|from|around) {{P}}",
           r"(?:list|show me|show|find)(?: me)? (?:everything|all objects|all things|anything|objects|things) "
           r"within {R} (?:of|from|around) {P}",
           rf"{_SUBJ}(?: (?:is|are))? (?:less than|closer than|at most|no more than|no further than|under) {{R}} "
           rf"(?:from|of|away from|to) {{P}}",
           rf"{_SUBJ}(?: (?:is|are|lies|lie|can be found|is lying|are lying|lying|sitting|located))? (?:within|inside) "
           r"{R} (?:of|from|around|round) {a}",
           r"(?:list|show me|show|find)(?: me)? (?:everything|all objects|all things|anything|objects|things) "
           r"within {R} (?:of|from|around) {a}",
           rf"{_SUBJ}(?: (?:is|are))? (?:less than|closer than|at most|no more than|no further than|under) {{R}} "
           rf"(?:from|of|away from|to) {{a}}",
           rf"(?:{_SUBJ}|{_OBJS})(?: (?:is|are|lies|lie))? (?:in|within) (?:a|an) {{R}} radius "
           r"(?:of|around|from) {P}",
           rf"(?:{_SUBJ}|{_OBJS})(?: (?:is|are|lies|lie))? (?:in|within) (?:a|an) {{R}} radius "
           r"(?:of|around|round|from) {a}",
           rf"(?:{_SUBJ}|{_OBJS})(?: (?:is|are|lies|lie|can be found))? (?:within|inside|in) {{R}} (?:of|from|around) "
           r"(?:the point )?{P}",
           rf"(?:all )?{_OBJS}(?: (?:is|are|lies|lie|can be found))? (?:within|inside) {{R}} (?:of|from|around) {{a}}"),
        ("what is within 1 m of 1.0 2.0 0.5", "what is within 1 m of the X"),
        "objects within {radius} m of {where}"),
    OperatorSpec(
        "where_to_look", "where to look for an object: its known places ranked by how often, how long and how "
        "recently it stood there (and the time of day, with a long history)", (LABEL,),
        _f(r"where should (?:i|we) (?:look|search|check|go) for {x}",
           r"where (?:can|could|do|might) (?:i|we) (?:look|search) for {x}",
           r"i (?:lost|have lost|cannot find|can not find|misplaced|have misplaced|am missing|cannot locate) {x} "
           r"where should (?:i|we) (?:look|search|check)(?: for (?:it|them))?",
           r"where (?:might|could|would|may) {x} (?:be|have gone|be hiding|have ended up)",
           r"where (?:is|are) {x} (?:usually|normally|typically|generally|often|most likely|likely|probably)"
           r"(?: to be)?",
           r"where (?:is|are) {x} (?:likely|most likely|probably) to be(?: found)?",
           r"where (?:would|might|could) {x} (?:usually|normally|typically|generally|most likely|likely|probably) be",
           r"(?:the )?(?:most )?(?:likely|possible|probable) (?:places|locations|spots) (?:for|of) {x}",
           # nineteenth round: a habit said with "always" / "mostly" ("where do the scissors always hide", heldout20's
           # d154, was read as the current place): the memory's honest answer to a habit is the places of its history
           # ranked by how often and how long, which is where to look
           r"where (?:do|does) {x} (?:usually|normally|typically|generally|often|always|mostly|tend to) (?:go|stay|"
           r"live|sit|belong|end up|wind up|turn up|get left|get put|lie|be|hide|hang out|get to)",
           r"where (?:is|are) {x} (?:always|mostly)(?: to be found| kept| left| put)?",
           r"where (?:do|would|does) (?:i|we|you|they|he|she|people|the owners?|the guests?|the staff) "
           r"(?:usually|normally|typically|generally|often) (?:keep|leave|put|store|place) {x}",
           r"(?:help me|help) (?:find|locate|look for|search for) {x}",
           r"where (?:could|might|can|would) (?:i|we|you|someone|somebody) have (?:put|left|placed|dropped|kept) {x}",
           r"(?:what are )?(?:the )?(?:likely|possible|probable) places (?:for|of) {x}",
           # stop 55 (heldout35's I113, I116): the places to try, ranked by their promise ("best spots to check for
           # my phone", "which places should I try for the keys, most promising first")
           r"(?:what are )?(?:the )?(?:best|likeliest|most likely|most promising) (?:places|spots|locations) to "
           r"(?:check|try|look|search)(?: first)? for {x}(?: (?:best|most promising|likeliest|most likely) first)?",
           r"(?:which|what) (?:places|spots|locations) should (?:i|we) (?:try|check|search) (?:first )?for {x}"
           r"(?: (?:best|most promising|likeliest|most likely)(?: bet| guess| one)? first)?",
           # stop 51 (heldout31's E070, "my phone, where would I most likely find it"): finding it, said with a word of
           # likelihood, asks where it is likely to be ("where can I find the mug" without one stays its place now)
           r"where (?:would|might|could|will|can|should|do) (?:i|we|you|someone|somebody) (?:most likely|likely|"
           r"probably|most probably|best|be most likely to|be likely to) (?:find|spot|come across|locate|turn up) {x}"),
        ("where should I look for the X", "where is the X usually"),
        "where to look for {label}"),
    OperatorSpec(
        "missing", "the objects that are missing now (their place was seen empty), with where they were",
        (), _f(r"what (?:is|are) (?:missing|lost|gone missing)",
               r"what (?:has|have) (?:gone missing|been lost|got lost)", r"(?:what|which(?: things| objects| items)?) "
               r"(?:went missing|got lost)",
               r"which(?: things| objects| items)?(?: (?:is|are))? (?:missing|lost|gone missing)",
               r"(?:(?:is|are) )?(?:anything|something) (?:missing|lost|gone)",
               r"(?:what|which(?: things| objects| items)?) (?:cannot|can not|could not) be found",
               r"(?:have|did|has) (?:i|we|you|anyone) (?:lost|lose|misplaced|misplace) anything",
               r"(?:what|which(?: things| objects| items)?) (?:cannot|can not|could not|do not) (?:you|we|i) find",
               # nineteenth round: "which of my things can't you find at the moment", "what things are no longer in
               # their place" (heldout20's d156, d162, refused)
               rf"(?:what|which) of (?:my|our|the) {_OBJS} (?:cannot|can not|could not|do not) (?:you|we|i) find",
               rf"(?:what|which)(?: {_OBJS})? (?:is|are) (?:not|no longer) (?:anymore )?(?:at|in) (?:its|their) "
               r"(?:usual |normal |proper )?(?:places?|spots?)(?: anymore)?",
               r"what did (?:i|we) (?:lose|misplace)",
               r"(?:list|show me|show)(?: the| all| all the)? missing (?:things|objects|items)",
               rf"(?:what|which) {_OBJS} (?:is|are) (?:currently )?(?:missing|lost|gone)",
               rf"(?:what|which)(?: {_OBJS})? (?:is|are) (?:currently )?(?:marked|flagged|listed|reported) "
               r"(?:as )?(?:missing|lost)",
               rf"(?:the |all )?(?:the )?(?:missing|lost) {_OBJS}",
               rf"(?:the |all )?(?:the )?{_OBJS} (?:that are |which are )?(?:currently |now )?(?:missing|lost)",
               rf"(?:the |all )?(?:the )?{_OBJS} (?:whose status is|with (?:the )?status) (?:missing|lost)"),
        ("what is missing",), "objects that are missing now"),
    OperatorSpec(
        "count_moves", "how many times an object moved (in a span, when one is given)", (LABEL, SINCE, UNTIL),
        _f(rf"how (?:many times|often|frequently) (?:did|has|have|was|were|does|do|is) {{x}} {_MOVED}(?: @w)?",
           r"how many times (?:have|did|has) (?:you|i|we) (?:seen|see|saw|watched) {x} (?:move|moving|moved|get moved)"
           r"(?: @w)?",
           r"how many (?:separate |distinct |different )?(?:moves|relocations|movements) (?:has|have|did) {x} "
           r"(?:made|make|done|gone through|been through|go through)(?: (?:in total|in all|altogether))?(?: @w)?",
           r"(?:count|number of) (?:the )?(?:moves|movements) of {x}(?: @w)?",
           r"(?:the )?number of (?:times|moves) {x} (?:moved|was moved|were moved|has moved|has been moved|made)"
           r"(?: @w)?",
           # stop 55 (heldout34's H029, H031, heldout35's I028): the moves counted as a noun, "made" or "gone
           # through" by the thing ("count the moves the book has made since ten", "the number of relocations the
           # book went through yesterday", "how many separate moves has the remote made, in total")
           r"(?:count|tally)(?: for me| up)? (?:the )?(?:separate |distinct |different )?(?:moves|relocations|"
           r"movements) {x} (?:has |have |had )?(?:made|make|done|gone through|went through|been through)(?: @w)?",
           r"(?:the )?number of (?:separate |distinct |different )?(?:moves|relocations|movements) {x} "
           r"(?:has |have |had )?(?:made|gone through|went through|been through)(?: @w)?",
           rf"(?:the )?number of times {{x}} (?:has |have |had |was |were |got )?{_MOVED}(?: @w)?",
           r"how (?:many times|often) did (?:someone|somebody|anyone|anybody|you|i|we) (?:move|relocate|shift) {x}"
           r"(?: @w)?",
           r"(?:the )?(?:move|movement|relocation) count (?:of|for) {x}(?: @w)?",
           r"how many (?:relocations|moves|movements) of {x}(?: (?:have been|were|are) (?:recorded|counted|there)| "
           r"are there| were there)?(?: @w)?",
           rf"count how (?:often|many times) {{x}} (?:has |have |was |were )?{_MOVED}(?: @w)?"),
        ("how many times did the X move",), "number of moves of {label}{window}"),
    OperatorSpec(
        "count_sightings", "how many observations were fused into an object", (LABEL,),
        _f(r"how (?:many times|often|frequently) (?:did|have|has) {you} {see} {x}",
           # sixteenth round: "how many separate times has the camera recorded the plant" (heldout18) was a count of
           # objects; times recorded are sightings (a count of things "recorded" stays the inventory, below)
           # (not of a move: "how many times has the camera recorded the keys moving" counts moves, below; review)
           r"(?!.*\b(?:mov(?:e|ed|es|ing)|relocat\w*|shift\w*)\b)"
           r"how (?:many (?:separate |distinct |different )?times|often) (?:did|have|has) {you} (?:record|recorded|"
           r"capture|captured) {x}",
           r"how many (?:sightings|observations|detections) of {x}(?: are there| do you have| have you got| exist)?",
           r"how many (?:sightings|observations|detections) (?:do you have|are there|have you got) of {x}",
           rf"how (?:many times|often) (?:was|were|has|have) {{x}} (?:been )?{_SEEN}",
           rf"(?:the )?{_SIGHTING} count (?:of|for) {{x}}",
           rf"how many (?:separate |distinct |different )?{_SIGHTING} of {{x}} (?:have been|were|are) "
           r"(?:recorded|made|stored|logged)",
           rf"(?:the )?number of times {{x}} (?:was|were|has been|have been) {_SEEN}",
           rf"(?:the )?number of {_SIGHTING} of {{x}}"),
        ("how many times did I see the X",), "number of sightings of {label}"),
    OperatorSpec(
        "count_objects", "how many objects carry a label (present or missing)", (LABEL,),
        _f(r"how many (?:pairs of )?{x} (?:are there|(?:do )?(?:i|we|you) (?:have|own|possess|keep)|do you know"
           r"(?: about| of)?|have you seen|"
           r"have you found|are known|exist|are in (?:the )?memory|can you see|do you see)(?: in total| altogether)?",
           r"count (?:the |all the |all )?{x}",
           r"how many (?:pairs of )?{x} (?:are|exist|live|stay|can be found) (?:here|in (?:the )?(?:map|memory|"
           r"database|house|home|flat|apartment))",
           # fourteenth round: "registered" / "logged" are words of seeing ("when did you first register it"), but a
           # count of things that "are registered" is the inventory, like "are recorded" (heldout17's "how many
           # fiducial markers are registered?" was read as a count of sightings); a sighting noun keeps its form above
           r"how many (?:pairs of )?{x} (?:are|is) (?:currently |now )?(?:known|mapped|stored|recorded|registered|"
           r"logged|listed|catalogued|on record|on file)",
           r"how many (?:pairs of )?{x} (?:did|have) (?:you|i|we) (?:find|found|see|seen|spot|spotted|detect|detected|"
           r"count|counted|map|mapped)",
           # stop 52 (heldout28's B039, heldout30's D087, heldout31's E040, heldout32's F038): the whole home as the
           # subject that has the things ("how many chairs does this household have") is "do we have"
           # (stop 54, heldout34's H042: "does this place have")
           r"how many (?:pairs of )?{x} (?:does|do) (?:the|this|our|my|your) "
           r"(?:house|home|flat|apartment|household|place) "
           r"(?:have|own|possess|keep|hold|contain)(?: in total| altogether)?",
           r"(?:the )?(?:number|count|total number) of (?:pairs of )?{x}(?: (?:are there|do (?:i|we|you) have|"
           r"in (?:the )?(?:map|memory)))?"),
        ("how many Xs are there",), "number of objects labelled {label}"),
    OperatorSpec(
        "first_seen", "when an object was first seen", (LABEL,),
        _f(r"when (?:did|have) {you} first {see} {x}",
           r"when (?:was|were) {x} first (?:seen|spotted|noticed|observed)",
           r"when did {x} (?:first )?(?:show up|appear|turn up)(?: for the first time)?",
           r"when (?:have|did|had) {you} {see} {x} (?:first|for the first time)",
           r"when (?:was|is) the first time {you} {see} {x}",
           r"since when (?:do|did|have) (?:you|i|we) (?:know|known) (?:about )?{x}",
           r"(?:what time|at what time) did {you} first {see} {x}",
           r"when did {you} {see} {x} (?:for )?the first time",
           rf"when (?:was|were) {{x}} (?:initially|originally) {_SEEN}",
           rf"(?:the )?(?:time |timestamp |date )?(?:of )?(?:the )?(?:first|earliest) {_SIGHTING} of {{x}}",
           rf"(?:the )?(?:earliest|first) time {{x}} (?:was|were) {_SEEN}",
           r"first seen (?:of )?{x}",
           r"when did {x} (?:make|put in) (?:its|their|his|her) first appearance",
           rf"(?:the )?(?:first|earliest) {_SIGHTING} (?:time|timestamp|date) (?:of|for) {{x}}",
           # thirteenth round: "the earliest record you hold of the headphones" (heldout16)
           rf"(?:the )?(?:first|earliest) (?:record|trace|entry|{_SIGHTING})(?: (?:you|we|i) (?:have|hold|keep|got))?"
           r" (?:of|for|on) {x}"),
        ("when did I first see the X",), "when {label} was first seen"),
    OperatorSpec(
        "last_seen", "when an object was last seen", (LABEL,),
        _f(r"when (?:did|have) {you} (?:last|most recently) {see} {x}",
           r"when (?:did|have) {you} {see} {x} (?:last|most recently|for the last time)",
           r"when (?:was|were|is|are) {x} (?:last |most recently )?(?:seen|spotted|observed|noticed)"
           r"(?: last| for the last time)?",
           r"when (?:was|is) the last time {you} {see} {x}",
           r"(?:the )?last time {you} {see} {x}",
           r"(?:what time|at what time) did {you} last {see} {x}",
           r"(?:what time|at what time) did {you} {see} {x} (?:last|most recently|for the last time|the last time)",
           r"(?:what time|at what time) (?:was|were) {x} last (?:seen|observed|spotted)",
           r"how long ago did {you} (?:last )?{see} {x}",
           r"how long ago (?:was|were) {x} last (?:seen|spotted|observed)",
           rf"when (?:was|were) {{x}} {_SEEN} (?:last|most recently|for the last time|the last time)",
           r"when (?:did|have) {you} {see} {x} (?:the )?last time",
           r"how long (?:has it been )?since {you} (?:last )?(?:saw|seen|spotted|noticed|observed) {x}",
           rf"(?:the )?(?:time |timestamp |date )?(?:of )?(?:the )?(?:last|latest|most recent) {_SIGHTING} of {{x}}",
           rf"(?:the )?(?:last|latest|most recent) time {{x}} (?:was|were) {_SEEN}",
           r"last seen (?:of )?{x}",
           rf"(?:the )?(?:last|latest|most recent) {_SIGHTING} (?:time|timestamp|date) (?:of|for) {{x}}",
           r"{x} last seen"),
        ("when did I last see the X",), "when {label} was last seen"),
    OperatorSpec(
        "duration", "how long an object has been at its current place", (LABEL,),
        _f(rf"(?:for )?how long (?:has|have) {{x}} been (?:sitting |lying |standing |staying |kept |stuck )?{_PLACE}",
           rf"(?:for )?how long (?:has|have) {{x}} (?:stayed|sat|stood|been) {_PLACE}",
           rf"since when (?:has|have) {{x}} been {_PLACE}",
           rf"since when (?:is|are) {{x}} {_PLACE}",
           r"(?:for )?how long (?:has|have) {x} (?:been (?:standing|sitting|staying|lying) still|stood still|"
           r"stayed put|not moved|not been moved)",
           r"(?:for )?how long (?:has|have) {x} (?:occupied|held) (?:its|their) (?:current |present )?"
           r"(?:place|spot|position|location)",
           rf"(?:for )?how long (?:is|are) {{x}} (?:already )?(?:been )?(?:sitting |lying |standing |staying )?{_PLACE}"
           r"(?: already)?",
           rf"(?:for )?how long (?:has|have) {{x}} (?:remained|stayed|been|sat|stood) {_PLACE}",
           rf"how much time (?:has|have) {{x}} (?:spent|been) {_PLACE}",
           # twenty-first round: an operator's unit for the time ("mug, secs at present location", heldout22's g060)
           rf"(?:the )?(?:time|duration|dwell time|{_UNITS}) (?:spent )?{_PLACE} (?:of )?{{x}}",
           rf"{{x}} (?:time|duration|dwell time|{_UNITS}) (?:spent )?{_PLACE}",
           rf"how long since {{x}} (?:last )?{_MOVED}"),
        ("how long has the X been there",), "time {label} has been at its current place"),
    OperatorSpec(
        "was_seen", "yes or no: was an object seen in a span, with the sightings", (LABEL, SINCE, UNTIL),
        _f(r"(?:did|have|has) {you} {see} {x} @w",
           r"(?:was|were) {x} (?:seen|spotted|observed|noticed) @w",
           rf"(?:has|have) {{x}} been {_SEEN} @w")
        + _f(rf"{{x}} {_SEEN} @w", mode="bare"),  # eighth round: "keys seen today?"
        ("did you see the X today",), "whether {label} was seen{window}"),
    OperatorSpec(
        "did_move", "yes or no: did an object move (in a span), with the moves", (LABEL, SINCE, UNTIL),
        _f(rf"(?:did|has|have) {{x}} {_MOVED}(?: @w)?",
           r"(?:was|were) {x} moved(?: @w)?",
           r"(?:did|has|have) (?:anyone|anybody|someone|somebody|something) (?:move|moved|touched|touch|shift|shifted|"
           r"relocate|relocated) {x}(?: @w)?",
           rf"(?:was|were) {{x}} {_MOVED}(?: @w)?"),
        ("did the X move", "has the X moved today"), "whether {label} moved{window}"),
    OperatorSpec(
        "is_missing", "yes or no: is an object missing, with the evidence", (LABEL,),
        _f(r"(?:is|are) {x} (?:missing|gone|lost|absent|away)(?: somewhere| anywhere)?",
           r"(?:have|did|has) (?:you|i|we|the robot) (?:lost|lose) track of {x}",
           r"(?:has|have) {x} (?:disappeared|gone missing|vanished|been lost|gone)",
           r"did {x} (?:disappear|vanish|go missing|get lost)")
        + _f(r"{x} (?:missing|gone missing|lost)", mode="bare"),  # eighth round: "remote missing?"
        ("is the X missing",), "whether {label} is missing"),
    OperatorSpec(
        "is_present", "yes or no: is an object still in its place, with the evidence", (LABEL,),
        _f(rf"(?:is|are) {{x}} still {_STILL}(?: or (?:is|are|has|have) (?:it|they) (?:gone|missing|moved|been moved|"
           r"disappeared)| or (?:has|have) (?:someone|somebody|anyone|anybody) (?:taken|moved|borrowed|nicked|"
           r"shifted) (?:it|them))?",
           r"do (?:you|we|i) still (?:see|have) {x}",
           r"(?:can|could) (?:you|we|i) still (?:see|spot) {x}",
           r"(?:(?:can|could|do) (?:you|we|i) )?still (?:see|spot|have) {x}",
           r"(?:is|are) {x} (?:there|here|present)",
           # thirteenth round: "(report) whether the teddy bear remains at its last known location" (heldout16: the
           # similarity reader read it as the current place)
           rf"(?:whether )?{{x}} (?:still )?(?:remains?|stays?) {_STILL}",
           rf"(?:does|do) {{x}} (?:still )?(?:remain|stay) {_STILL}")
        + _f(r"(?:is|are) there (?:still )?{x}", mode="isthere"),
        ("is the X still there",), "whether {label} is still in its place"),
    OperatorSpec(
        "is_related", "yes or no: is (or was, at a time) an object on / under / near / in another, with the "
        "evidence", (LABEL, RELATION, ANCHOR, Param("t", "time", "the moment asked about (none: now)")),
        _f(r"(?:is|are) {x} (?:still )?(?:sitting |lying |standing |kept |placed |left )?{rel} {a}"
           r"(?: where (?:it|they) belongs?| where (?:i|we|you|he|she|they) (?:left|put) (?:it|them))?",
           r"(?:is|are) there {x} {rel} {a}",
           r"(?:was|were) {x} (?:sitting |lying |standing |kept |placed |left )?{rel} {a} @t",
           r"(?:was|were) there {x} {rel} {a} @t",
           r"@t (?:was|were) {x} (?:sitting |lying |standing |kept |placed |left )?{rel} {a}"),
        ("is the X on the table", "was the X on the table at 9:30"), "whether {label} is {relation} {anchor}{at}"),
    OperatorSpec(
        "relational_as_of", "objects on / under / near / in an anchor at a past moment (relations keep their "
        "validity intervals)", (RELATION, ANCHOR, T),
        _f(rf"{_SUBJ} {_VERB_PAST} {{rel}} {{a}} @t",
           r"(?:was|were) there (?:anything|something) {rel} {a} @t",
           rf"@t {_SUBJ} {_VERB_PAST} {{rel}} {{a}}",
           rf"(?:the )?{_OBJS}(?: that| which)? (?:were|was) (?:located |lying |sitting |kept |placed )?"
           r"{rel} {a} @t",
           rf"(?:the )?{_OBJS} {{rel}} {{a}} @t")
        + _f(r"what did {a} have {rel} (?:it|them) @t")
        + _f(r"what did {a} (?:contain|hold) @t", relation="in"),
        ("what was on the table 10 minutes ago", "what was on the table at 9:30"),
        "objects {relation} {anchor} at {t}"),
    OperatorSpec(
        "relational_before", "objects on / under / near / in an anchor before its contents last changed",
        (RELATION, ANCHOR),
        _f(rf"{_SUBJ} (?:{_VERB_PAST[3:-1]}|used to sit|used to stand|used to lie) {{rel}} {{a}}"
           r"(?: before| earlier| previously| formerly| last time| before (?:it|that|things|anything|something|they) "
           r"changed| before (?:its|their|the) (?:last|latest|most recent) change)?",
           r"(?:what|which(?: things| objects| items)?) (?:was|were|had been) (?:previously|formerly|earlier|before) "
           r"(?:located |lying |sitting |standing |kept |placed )?{rel} {a}",
           r"what did {a} have {rel} (?:it|them) (?:before|earlier|previously)",
           # eighth round: before someone changed it ("what was on the bed before I stripped it")
           rf"{_SUBJ} (?:{_VERB_PAST[3:-1]}) {{rel}} {{a}} before (?:i|we|you|someone|somebody|anyone|he|she|they|"
           r"the (?:cleaner|maid|nurse|staff|guest|kids)) [a-z]+ed (?:it|them|everything|things|stuff)"
           r"(?: up| down| off| out| away)?"),
        ("what was on the table before",), "objects {relation} {anchor} before its last change"),
    OperatorSpec(
        "relational", "objects on / under / near / in an anchor now", (RELATION, ANCHOR),
        _f(rf"{_SUBJ} {_VERB_NOW} {{rel}} {{a}}",
           r"what (?:do|did) (?:we|you|i) (?:have|keep|store|put) {rel} {a}",
           r"what (?:have|has) (?:we|you|i) got {rel} {a}",
           r"(?:list|show me|show|tell me|name) (?:everything|all|all the things|all objects|all the objects|"
           r"the things|the objects|what is|what are|what is there|things|objects) {rel} {a}",
           r"(?:is|are) there (?:anything|something) {rel} {a}",
           r"(?:anything|something) {rel} {a}",
           r"(?:is|are) (?:anything|something) (?:lying|sitting|standing|kept|placed|left|located) {rel} {a}",
           r"what (?:does|do) {a} have {rel} (?:it|them)",
           rf"(?:all )?(?:the )?{_OBJS}(?: that are| which are)?(?: currently| now| presently)?(?: located| lying| "
           r"sitting| standing| placed| kept| left)? {rel} {a}",
           r"what (?:has|have) been (?:put|placed|left|dropped|set|stored|kept) {rel} {a}")
        + _f(r"what (?:does|do) {a} (?:contain|hold)", r"what {a} (?:contains|holds)", relation="in"),
        ("what is on the table", "what is near the X", "what is in the kitchen"),
        "objects {relation} {anchor} now"),
    OperatorSpec(
        "changes", "what changed (moved, disappeared, appeared) in a span", (SINCE, UNTIL, KINDS),
        _f(r"what (?:has |have )?(?:changed|happened)(?: @w)?",
           r"what (?:is|has been|was) different(?: @w)?",
           r"(?:did|has|have) (?:anything|something) (?:change|changed|happen|happened)(?: @w)?",
           r"(?:is |was )?(?:anything|something) (?:changed|different)(?: @w)?",
           r"(?:(?:list|show me|show|give me|tell me|what are)(?: all)?(?: the)? |any |all (?:the )?)?"
           r"changes(?: @w)?",
           r"what (?:is|was|has been|have been|were) changed(?: @w)?",
           r"(?:all )?(?:the )?changes (?:that|which) (?:occurred|happened|took place|were made)(?: @w)?",
           r"(?:a |the )?change ?log(?: @w)?",
           r"(?:a |the )?(?:diff|delta)(?: @w)?")
        + _f(r"what (?:is|are) new(?: @w)?",
             r"(?:is |was )?(?:anything|something) new(?: @w)?",
             r"(?:what|which(?: things| objects| items)?) (?:has been|have been|was|were|got) added(?: @w)?",
             r"(?:what|which(?: things| objects| items)?) (?:appeared|showed up|turned up|came in|arrived|is new|"
             r"are new|has appeared|have appeared|has shown up|have shown up)(?: @w)?",
             r"(?:did|have|has) (?:any )?new (?:objects|things|items) (?:appear|appeared|show up|shown up|turn up|"
             r"turned up)(?: @w)?",
             # eighth round: "has anything new arrived since yesterday", "objects that newly appeared in the past hour"
             # thirteenth round: without "new" ("did anything appear in the past hour"), a place of talk after it
             # ("turned up round here") and what appearing means said after it ("that was not there before")
             r"(?:did|have|has) (?:anything|something)(?: new)? (?:arrived|arrive|appeared|appear|turned up|turn up|"
             r"shown up|show up|come in|came in)(?: (?:a)?round here| here| in here)?"
             r"(?: that (?:was|were) not (?:there|here) before)?(?: @w)?",
             rf"(?:all )?(?:the )?{_OBJS}(?: that| which)? (?:newly |have |has )?(?:appeared|showed up|shown up|"
             r"turned up|arrived)(?: @w)?", kinds=list(APPEARED))
        + _f(r"(?:what|which(?: things| objects| items)?) (?:moved|has moved|have moved|has been moved|have been moved|"
             r"got moved|was moved|were moved|changed place)(?: @w)?",
             r"(?:what|which(?: things| objects| items)?) (?:is|are) moved(?: @w)?",
             r"(?:all )?(?:the )?(?:object |objects )?(?:movements|moves|relocations)(?: @w)?", kinds=["moved"])
        + _f(r"(?:what|which(?: things| objects| items)?) (?:disappeared|vanished|was removed|were removed|"
             r"has been removed|have been removed|got removed|went away|"
             r"has disappeared|have disappeared|has vanished|have vanished|was taken away|were taken away|"
             r"has been taken away|have been taken away|has been taken|have been taken)(?: @w)?",
             # "what has gone missing" without a span is the missing operator's question (what is missing now)
             r"(?:what|which(?: things| objects| items)?) (?:went missing|has gone missing|have gone missing|"
             r"(?:is|are|was|were) (?:missing|gone)) @w", kinds=["removed"]),
        ("what changed in the last 10 minutes", "what moved today", "what disappeared since 9:00", "what is new"),
        "{kinds}{window}"),
    OperatorSpec(
        "as_of", "where an object was at a past moment", (LABEL, T),
        _f(r"where {was} {x} @t",
           r"where did {x} (?:sit|stand|lie|stay|be) @t",
           r"where (?:stood|sat|lay) {x} @t",  # verb before subject: "where stood the lamp two hours ago"
           r"@t where {was} {x}",
           rf"(?:the )?{_LOC} of {{x}} @t",
           r"{x} (?:location|position|place|pose) @t",
           rf"what (?:is|was) the {_LOC} of {{x}} @t"),
        ("where was the X 10 minutes ago", "where was the X at 9:30"), "place of {label} at {t}"),
    OperatorSpec(
        "history", "every place an object has been, oldest first (in a span, when one is given)",
        (LABEL, SINCE, UNTIL),
        _f(r"where (?:all )?(?:has|have) {x} been(?: @w)?",
           r"where {was} {x} @w",
           r"(?:show me |give me |what is |list |tell me )?(?:the )?(?:whole |full |movement |location |place )?"
           r"history of {x}(?: @w)?",
           r"what is {x} (?:movement |location |place )?history",
           r"(?:list|show|give me|tell me|show me) (?:every|all the|all) (?:places?|locations?) {x} (?:has|have) been"
           r"(?: in| at| to)?",
           r"(?:all the|every) (?:places?|locations?) {x} (?:has|have) been(?: in| at| to)?",
           r"what (?:places|locations) (?:has|have) {x} been(?: in| at| to)?",
           r"(?:trace|track|show)(?: me)? (?:the )?(?:movements?|moves|locations?|places?) of {x}(?: @w)?",
           r"(?:the )?(?:(?:full|whole|complete|entire|past|placement|movement|location|position|move) )*history of {x}"
           r"(?: @w)?",
           r"{x} (?:(?:full|whole|complete|placement|movement|location|position|move) )*history(?: @w)?",
           r"(?:all |every )?(?:the )?(?:past |previous |earlier )?(?:places|locations|positions|spots) of {x}(?: @w)?",
           r"{x} (?:past |previous )?(?:places|locations|positions|movements|moves)(?: @w)?",
           r"(?:which|what) (?:places|locations|rooms|spots) (?:did|has|have) {x} (?:visit|visited|been in|been to|"
           r"gone to|been at)(?: @w)?",
           r"(?:everywhere|every place|every location|all the places|all the locations) {x} (?:has been|have been|went|"
           r"has gone|have gone|visited|has visited|occupied|has occupied|have occupied)(?: @w)?",
           r"where all (?:has|have) {x} been(?: @w)?",
           # eighth round: "movement trail of the backpack", "the complete location log of the laptop"
           r"(?:the )?(?:(?:complete|full|whole|entire) )?(?:location|movement|position|place|placement) "
           r"(?:log|trail|trace|record) (?:of|for) {x}(?: @w)?",
           r"{x} (?:location|movement|position|place|placement) (?:log|trail|trace|record)(?: @w)?",
           # nineteenth round: "show me the whole trail of the mug" was searched for by meaning (a known thing's trail
           # is its places): a trail, track, path or trajectory of a thing alone
           r"(?:show me |give me |list |tell me )?(?:the )?(?:(?:complete|full|whole|entire) )?(?:trail|track|path|"
           r"trajectory|paper trail|journey) (?:of|for) {x}(?: @w)?",
           r"where all {was} {x}(?: @w)?",
           r"(?:all |every )?(?:the )?(?:places?|locations?|positions?) (?:where )?{x} (?:has|have) (?:been|visited|"
           r"occupied|stood|been in)(?: @w)?"),
        ("where has the X been", "where was the X this morning"), "places of {label}{window}"),
    OperatorSpec(
        "previous", "where an object was before its current place", (LABEL,),
        _f(r"where {was} {x} (?:before|previously|earlier|last time|formerly)",
           r"where {was} {x} before (?:it|they) (?:was |were )?(?:moved|move|got moved)",
           r"where did {x} (?:use|used) to (?:be|sit|stand|stay|go|lie)",
           r"where did {x} (?:sit|stand|lie|stay|be) (?:until|before) (?:it|they) (?:was|were|got) (?:moved|relocated|"
           r"shifted)",
           r"what (?:place|location|position|spot) did {x} have (?:before|previously|earlier)",
           r"where {was} {x} before (?:someone|somebody|anyone|anybody|you|i|we) (?:moved|relocated|shifted) "
           r"(?:it|them)(?: (?:off|from|out of) (?:my|the|our|his|her|their) [a-z]+)?",
           r"where had {x} been (?:before|previously|earlier)?",
           r"what (?:is|was) {x} (?:previous|former|prior|last) (?:location|position|place|spot)",
           r"what (?:is|was) the (?:previous|former|prior) (?:location|position|place|spot) of {x}",
           r"before (?:it|they) (?:was|were) moved where {was} {x}",
           r"where {was} {x} (?:before that|before this|before now|prior to (?:its|their|the) "
           r"(?:most recent|last|latest) "
           r"(?:move|change)|before (?:its|their|the) (?:most recent|last|latest) (?:move|change))",
           r"where did {x} (?:sit|stand|lie|stay|be) (?:before|previously|earlier|formerly)",
           r"where had {x} been (?:before )?(?:it|they) (?:got|was|were|had been) moved",
           rf"(?:the )?{_PREV} {_LOC} of {{x}}",
           rf"{{x}} {_PREV} {_LOC}",
           rf"what (?:is|was) the {_PREV} {_LOC} of {{x}}"),
        ("where was the X before",), "previous place of {label}"),
    OperatorSpec(
        "current", "where an object is now", (LABEL,),
        _f(r"where {be} {x}",
           r"where did {you} (?:last )?(?:leave|put|place|drop|set|stash|keep|store) {x}",
           r"where did {x} go",
           r"where (?:have|has) (?:i|you|we|someone|somebody) (?:put|left|placed|kept|stored) {x}",
           r"(?:what is )?(?:the )?(?:current )?(?:location|position|place|whereabouts) of {x}",
           r"{x} (?:location|position|whereabouts)",
           # thirteenth round: "... anywhere" ("have you seen my keys anywhere", heldout16's "have you spotted the hand
           # cream anywhere" were refused)
           r"(?:have|has) (?:you|anyone|anybody) (?:seen|spotted|noticed) {x}(?: anywhere)?",
           r"where did {x} (?:end up|get to|go to|disappear to|wander off to|get off to)",
           r"where (?:has|have) {x} (?:got|gotten|gone|disappeared|wandered|ended up)(?: to| off to| off)?",
           r"(?:which|what) room (?:is|are) {x} in",
           r"in (?:which|what) room (?:is|are) {x}",
           r"where (?:can|could) {x} be found",
           r"where (?:is|are) {x} to be found",
           rf"(?:the )?{_CUR}{_LOC} of {{x}}",
           rf"{{x}} {_CUR}(?:location|position|whereabouts|place|pose)",
           rf"what is the {_CUR}{_LOC} of {{x}}")
        + _f(r"{x}", mode="bare")
        + _f(r"where (?:can|do|could|should) {you} find {x}",
             r"(?:locate|find|show me|show|spot|look for|search for)(?: me)? {x}",
             r"i am looking for {x}(?: where (?:is|are) (?:it|they))?", mode="find"),
        ("where is the X",), "current place of {label}"),
    OperatorSpec(
        "semantic", "objects matching a description or an activity (sentence similarity of labels)",
        (Param("text", "text", "a description: 'something to drink from'", True),),
        _f(r"(?:find|locate|show me|show|get me|give me|look for|search for|i need|i want|"
           r"i would like|i am looking for|is there|are there|do you have|do we have) {d}", mode="find")
        + _f(r"(?:an? |any |some |the )?(?:objects?|things?|items?)(?: that| which)? (?P<d>(?:(?:is|are) )?"
             r"(?:suitable|good|useful|usable|fit|meant|made|designed|used) (?:for|to) .+|(?:can|could) be used "
             r"(?:for|to) .+)", mode="find")
        + _f(r"(?:where can (?:i|we)|what can (?:i|we) use to|what could (?:i|we) use to|what do (?:i|we) use to|"
             r"what should (?:i|we) use to|what can (?:i|we) use for|how can (?:i|we)) .+",
             r"(?:anything|something) (?:to|for|i can|that) .+",
             # fifth round: "need something to wipe up a spill", "anything I could prop the door open with"
             r"(?:i )?(?:need|want) (?:anything|something) (?:to|for|i can|that) .+",
             r"(?:anything|something) (?:i|we) (?:could|can|might) .+",
             r"where (?:could|might) (?:i|we) (?!look\b|search\b|find\b|have\b).+",
             r"what (?:can|could) (?:i|we) (?!see\b|find\b|spot\b|have\b|know\b|do\b|tell\b|say\b).+ "
             r"(?:on|in|with|from|into)",
             r"what (?:can|could|would) (?:hold|carry|keep|store|fit) .+",
             # nineteenth round: "what is there to write with" (heldout20's d104 was read by its clause of talk, "I
             # need to jot down a number", as the description): what is at hand for an activity
             r"what (?:is there|have (?:i|we|you) got|do (?:i|we|you) have|is (?:around|available|handy))"
             r"(?: here| around| nearby)? (?:for (?:me|us) )?to (?!do\b|say\b|know\b|tell\b|see\b|report\b).+",
             mode="activity"),
        ("find something to drink from", "where can I sit"), "objects matching '{text}'"),
)

BY_NAME = {op.name: op for op in TABLE}

# ------------------------------------------------------------------------------------ structured (agent) requests
# The names an agent calls an operator by in a JSON-shaped request ('{"tool": "locate", "object": "keys"}',
# '{"metric": "move_count", ...}'), each mapped to the operator and the arguments the name fixes; every operator's own
# name is one too. Read by structured.py. Why here: a tool name is one more way of asking, so it lives in the table
# with the forms (eighth round: heldout11's 22 JSON-shaped requests were read as prose, one of them wrongly).
# A name that is not listed refuses the request ("navigate", "export"); add one here, nowhere else.
TOOL_NAMES: dict[str, tuple[str, dict]] = {
    **{op.name: (op.name, {}) for op in TABLE},
    **{n: ("current", {}) for n in (
        "locate", "find", "find_object", "locate_object", "location", "current_location", "current_position",
        "current_place", "get_location", "where", "where_is", "whereabouts", "position", "object_location")},
    **{n: ("previous", {}) for n in (
        "previous_location", "previous_position", "previous_place", "prior_location", "former_location",
        "location_before", "where_before")},
    **{n: ("history", {}) for n in (
        "location_history", "movement_history", "place_history", "position_history", "placements", "trace")},
    **{n: ("count_moves", {}) for n in ("move_count", "moves_count", "movement_count", "number_of_moves",
                                        "times_moved", "relocation_count")},
    **{n: ("count_sightings", {}) for n in ("sighting_count", "sightings_count", "detection_count",
                                            "observation_count", "number_of_sightings", "times_seen")},
    **{n: ("count_objects", {}) for n in ("count", "object_count", "how_many", "number_of_objects", "count_label")},
    **{n: ("first_seen", {}) for n in ("first_detection", "first_detection_time", "first_sighting",
                                       "first_seen_time", "first_observed", "earliest_detection")},
    **{n: ("last_seen", {}) for n in ("last_detection", "last_detection_time", "last_sighting", "last_seen_time",
                                      "latest_detection", "latest_detection_time", "last_observed")},
    **{n: ("duration", {}) for n in ("dwell_time", "dwell", "time_in_place", "time_at_location",
                                     "time_in_current_place",
                                     "how_long_there")},
    **{n: ("as_of", {}) for n in ("location_at", "position_at", "place_at", "location_as_of", "where_at",
                                  "past_location")},
    **{n: ("changes", {}) for n in ("change_log", "changelog", "diff", "what_changed", "recent_changes",
                                    "list_changes")},
    **{n: ("changes", {"kinds": ["moved"]}) for n in ("moved_objects", "what_moved", "moves")},
    **{n: ("changes", {"kinds": list(APPEARED)}) for n in ("new_objects", "what_appeared", "appeared_objects")},
    **{n: ("changes", {"kinds": ["removed"]}) for n in ("removed_objects", "what_disappeared", "disappeared_objects")},
    **{f"objects_{w}": ("relational", {"relation": r}) for w, r in RELATION_WORDS.items() if " " not in w},
    **{n: ("relational", {"relation": "in"}) for n in ("objects_inside",)},
    **{n: ("relational_as_of", {}) for n in ("relation_at", "relations_at", "contents_at", "objects_on_at")},
    **{n: ("relational_before", {}) for n in ("relation_before", "contents_before", "objects_before")},
    **{n: ("spatial", {}) for n in ("objects_within", "within", "radius_search", "objects_in_radius", "nearby_objects",
                                    "proximity")},
    **{n: ("semantic", {}) for n in ("semantic_search", "search_description", "find_by_description",
                                     "find_by_use")},
    **{n: ("is_related", {}) for n in ("check_relation", "relation_check")},
    **{n: ("did_move", {}) for n in ("has_moved", "was_moved", "moved_check", "check_moved")},
    **{n: ("is_present", {}) for n in ("still_present", "present", "still_there", "is_there", "presence",
                                       "presence_check")},
    **{n: ("is_missing", {}) for n in ("missing_check", "check_missing", "flagged_missing")},
    **{n: ("missing", {}) for n in ("missing_objects", "list_missing", "lost_objects", "missing_items")},
    **{n: ("was_seen", {}) for n in ("seen", "seen_check", "spotted", "sighted", "detected", "was_detected")},
    **{n: ("where_to_look", {}) for n in ("search_locations", "likely_locations", "where_to_search",
                                          "ranked_locations", "suggest_locations", "search_places")},
}
# Fields of a structured request, by what they hold: the name of the operator, an argument of it (the operators'
# parameter names are fields too), or how the answer is shaped (ignored, and shown as ignored). Any other field
# refuses the request: '{"role": "system", "content": ...}' is no request to a memory.
REQUEST_NAME_FIELDS = frozenset("tool op fn function operator operation query check metric intent need action "
                                "request command method call task type goal objective "
                                # ninth round: a function-calling object's "name", a terse "q", a "status" asked for
                                "name q status".split())
# Fields whose own name is a word of the question, read with their value ('"count": "relocations"' is a count of moves,
# '"metric": "observations"' a count of sightings, '"aggregate": "count"' a count): the value is read by its words
# (structured._by_words) after the field's word.
REQUEST_NAME_WORD_FIELDS = {"count": "count", "metric": "count", "aggregate": ""}
# Fields that ask yes or no: '"check": "relation"' asks whether the relation holds.
REQUEST_YESNO_FIELDS = frozenset(("check",))
# The operators that answer yes or no (a yes/no request names one of them, or is read by its words).
CHECK_OPERATORS = frozenset({"is_related", "did_move", "is_present", "is_missing", "was_seen"})
REQUEST_ARG_FIELDS = {
    **{k: "label" for k in ("label", "object", "item", "thing", "target", "object_label", "label_name", "obj",
                            # ninth round: '"of": "water bottle"', '"class": "book"', '"subject": "jacket"'
                            "of", "class", "category", "subject",
                            # tenth round: MCP and knowledge-graph schemas' "entity"
                            "entity")},
    **{k: "anchor" for k in ("anchor", "reference", "reference_object", "surface", "container", "region", "room",
                             "anchor_label")},
    **{k: "relation" for k in ("relation", "rel", "relationship", "spatial_relation", "predicate")},
    **{k: "t" for k in ("t", "at", "as_of", "time", "timestamp", "moment", "stamp", "at_time")},
    **{k: "since" for k in ("since", "from", "start", "after", "begin", "start_time", "from_time")},
    **{k: "until" for k in ("until", "to", "end", "end_time", "to_time", "till")},
    **{k: "window" for k in ("window", "span", "period", "last", "within_last", "time_window")},
    **{k: "kinds" for k in ("kinds", "kind", "change_kinds", "change_types", "event_kinds")},
    **{k: "center" for k in ("center", "centre", "point", "xyz", "coordinates", "coords")},
    **{k: "radius" for k in ("radius", "radius_m", "r", "distance", "distance_m", "max_distance", "within_m")},
    **{k: "text" for k in ("text", "description", "purpose", "activity", "use_for")},
    "when": "when",
}
# "window_minutes": 60 -> a span of the last 60 minutes; "radius_cm": 30 -> 0.3 m
REQUEST_UNIT_FIELDS = {"window_seconds": ("window", 1.0), "window_s": ("window", 1.0),
                       "window_minutes": ("window", 60.0),
                       "window_min": ("window", 60.0), "window_hours": ("window", 3600.0),
                       "window_h": ("window", 3600.0), "window_days": ("window", 86400.0),
                       "radius_cm": ("radius", 0.01), "radius_mm": ("radius", 0.001)}
REQUEST_SHAPE_FIELDS = frozenset("return returns format fields output units sort order limit k max_results verbose "
                                 "list "
                                 "answer_format response_format".split())
# Values of "when" that ask about before the last change ('"when": "before_last_change"'), and about now.
REQUEST_BEFORE = frozenset("before before_last_change previously previous earlier prior before_change "
                           "before_last_move".split())
REQUEST_NOW = frozenset("now current currently present".split())


def describe(operator: str, args: dict) -> str:
    """The interpretation in words: "previous place of mug", "objects on table at 2026-01-15 09:30:00 UTC"."""
    spec = BY_NAME[operator]
    window = ""
    since, until = args.get("since"), args.get("until")
    if since is not None:
        window = f" from {fmt_time(since)} to {fmt_time(until)}" if until is not None else f" since {fmt_time(since)}"
    elif until is not None and operator != "changes":
        window = f" up to {fmt_time(until)}"
    kinds = args.get("kinds")
    kind_words = ("changes" if not kinds else " and ".join(
        {"appeared": "appearances", "reappeared": "reappearances", "moved": "moves", "removed": "disappearances"}[k]
        for k in kinds))
    if operator == "changes" and since is None:
        window = " at any time"
    where = fmt_pos(args["center"]) if args.get("center") is not None else f"the {args.get('anchor')}"
    return spec.words.format(
        label=args.get("label", ""), anchor=args.get("anchor", ""), relation=args.get("relation", ""),
        t=fmt_time(args.get("t")), window=window, kinds=kind_words, where=where,
        radius=f"{args.get('radius', 0):g}", text=args.get("text", ""),
        at=f" at {fmt_time(args['t'])}" if args.get("t") is not None else " now")


def interpretation(operator: str, args: dict, ignored=()) -> str:
    """describe() with the words a slot left over shown, never silently dropped: "current place of keys (ignoring
    'car')". Both readers (understand.py's forms, cues.py) word their answers with it."""
    text = describe(operator, args)
    if ignored:
        text += " (ignoring '" + " ".join(ignored) + "')"
    return text


def args_key(args: dict) -> tuple:
    """Arguments as a comparable key: two readings with equal keys are one reading."""
    return tuple(sorted((k, repr(v)) for k, v in args.items()))


def example_forms() -> list[tuple[str, str]]:
    """(operator, example) in table order: the suggestions of a refusal come from these."""
    return [(op.name, ex) for op in TABLE for ex in op.examples]
