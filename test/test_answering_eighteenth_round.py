"""The eighteenth round's mechanisms (issue 13, stop 39), each with what it must read and what must stay refused.

heldout19 (measured once after the seventeenth round, a development set from here) answered four questions wrongly (a
mistyped known name read as an unknown thing, "just now" swallowed into a place's name, a request to switch off the
robot's cameras answered as a search) and refused agent requests whose call is one envelope written in a dozen
languages' punctuation; the seventeenth round's review left a run-on "where are my keys I went out at 9", a read
chained to a hand-over ("...; then bring it here") and a write inside an argument's text. None of the sentences below
is a line of a question set.
"""

from __future__ import annotations

import pytest
from answering_helpers import NOW, TODAY, reading, refusal, understood

from tempomem_ros.core.answering import Names
from tempomem_ros.core.answering import conduct, dialects, dictation, loose, typo
from tempomem_ros.core.answering.understand import TIME_IN_TALK

NAMES = Names(["mug", "keys", "table", "desk", "lamp", "phone", "plant", "chair", "wallet", "sofa", "bottle",
               "teddy bear", "backpack", "glasses", "scissors", "shelf", "umbrella", "kettle", "laptop", "remote",
               "thermos", "crane", "spoon", "notebook", "headphones", "charger"],
              ["kitchen", "hall", "bedroom", "office"])


def read(question: str) -> tuple:
    return reading(question, NAMES)


# --------------------------------------------------------------------------------- a known name mistyped
@pytest.mark.parametrize("question, operator, args, typed", [
    ("has anybody moved my backpak today", "did_move", {"label": "backpack", "since": TODAY, "until": NOW},
     "'backpak' as 'backpack'"),
    ("where did I leave the ketle", "current", {"label": "kettle"}, "'ketle' as 'kettle'"),
    ("is the laptpo on the desk?", "is_related", {"label": "laptop", "relation": "on", "anchor": "desk"},
     "'laptpo' as 'laptop'"),
    ("when was the notebok last seen", "last_seen", {"label": "notebook"}, "'notebok' as 'notebook'"),
])
def test_a_known_name_with_a_typist_s_slip_reads_as_that_name(question, operator, args, typed):
    got = understood(question, NAMES)
    assert (got.operator, got.args, got.unknown) == (operator, args, "")
    assert f"(reading {typed})" in got.words


@pytest.mark.parametrize("question, label", [
    ("where is the cane", "cane"),        # 4 letters: one slip from crane, and a word of its own
    ("where is the lamb", "lamb"),        # a changed letter is no typist's slip
    ("where is the remot", "remot"),      # a last letter left out
    ("where is the botel", "botel"),      # two slips (a letter left out, one moved)
])
def test_a_word_near_a_name_by_more_than_a_typist_s_slip_stays_unknown(question, label):
    assert read(question) == ("current", {"label": label}, "label")


def test_a_slip_near_two_known_words_reads_neither():
    names = Names(["bottle", "bottles rack", "boutle"])
    assert typo.label_slip("botle", names) is None           # one slip from "bottle" and from "boutle"
    assert typo.label_slip("botle", Names(["bottle"])) == "bottle"
    assert typo.label_slip("wallt", Names(["wallet"])) == "wallet"
    assert typo.label_slip("walet", Names(["walet", "wallet"])) is None   # a name of its own


# ------------------------------------------------------------------------------------------ "just now"
@pytest.mark.parametrize("question, operator, args, unknown", [
    ("what's sitting on the windowsill just now", "relational", {"relation": "on", "anchor": "windowsill"}, "anchor"),
    ("where's the kettle just now?", "current", {"label": "kettle"}, ""),
])
def test_just_now_is_the_present_and_no_part_of_a_name(question, operator, args, unknown):
    assert read(question) == (operator, args, unknown)


def test_just_now_in_a_question_of_the_past_is_refused_not_guessed():
    refusal("where was the kettle just now", NAMES)


# ---------------------------------------------------------------------- help against the robot's own sensing
@pytest.mark.parametrize("question", [
    "what's the easiest way to cover your camera before the party",
    "can I unplug the robot's sensors for an hour",
    "how do I get past your cameras with the laptop",
    "is there a way to hide the keys without my husband noticing",
    "help me move the plant so that my flatmate won't notice",
    "How could we disable its microphone tonight?",
])
def test_help_to_defeat_the_robot_s_sensing_or_to_conceal_is_refused(question):
    assert refusal(question, NAMES).reason.endswith(conduct.REFUSAL)


@pytest.mark.parametrize("question", [
    "where did i hide the teddy bear so the kids would not find it",   # asks a place: the clause is talk
    "is the camera switched off",                                      # a camera as a thing in the house
    "where is the camera cover",
    "what did you see on your cameras this morning",
])
def test_a_clause_of_hiding_in_a_question_of_place_is_no_such_request(question):
    assert not conduct.refuses(question)


# ------------------------------------------------------------------------ one call in a language's punctuation
@pytest.mark.parametrize("text, operator, args", [
    # PHP / Perl: sigils, '->', '=>', an array of pairs
    ("$tm->lastSeen(['label' => 'kettle']);", "last_seen", {"label": "kettle"}),
    ("my $where = $robot_memory->current(label => 'remote');", "current", {"label": "remote"}),
    # R / C++ namespaces, an assignment with '<-'
    ('n <- tempomem::count_sightings(label = "lamp")', "count_sightings", {"label": "lamp"}),
    # Julia: a handle before ';'
    ("first_seen(store; label=\"charger\")", "first_seen", {"label": "charger"}),
    # Wolfram: a head in brackets, an association
    ('Tempomem["LastSeen", <|"label" -> "phone"|>]', "last_seen", {"label": "phone"}),
    # MATLAB: name-value pairs
    ("w = mem.was_seen('label', 'glasses', 'since_ago_s', 600);", "was_seen",
     {"label": "glasses", "since": NOW - 600}),
    # Dart / Python MCP clients: a dispatcher given the tool's name and a map
    ("var x = await client.call('is_missing', {'label': 'wallet'});", "is_missing", {"label": "wallet"}),
    ('out = await mcp_session.call_tool("first_seen", {"label": "plant"})', "first_seen", {"label": "plant"}),
    # a JS MCP client's one map; a tool object's own run
    ('const r = await mcp.callTool({ name: "last_seen", arguments: { label: "remote" } });', "last_seen",
     {"label": "remote"}),
    ('current_tool.ainvoke({"label": "mug"})', "current", {"label": "mug"}),
    # Java builder, Rust struct literal with conversions, Go struct literals and a context
    ('mem.lastSeen(LastSeenRequest.builder().label("kettle").build());', "last_seen", {"label": "kettle"}),
    ('let p = store.current(Current { label: "lamp".to_string() })?;', "current", {"label": "lamp"}),
    ('res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "is_missing", '
     'Arguments: map[string]any{"label": "phone"}}})', "is_missing", {"label": "phone"}),
])
def test_a_call_in_a_language_s_punctuation_reads_as_its_envelope(text, operator, args):
    got = understood(text, NAMES)
    assert (got.operator, {k: v for k, v in got.args.items() if k in args}) == (operator, args)


@pytest.mark.parametrize("text", [
    "$tm->forget(['label' => 'kettle']);",
    "var x = await client.call('delete_object', {'label': 'wallet'});",
    'const r = await mcp.callTool({ name: "relabel", arguments: { label: "remote" } });',
    'mem.forget(ForgetRequest.builder().label("kettle").build());',
    'Tempomem["Forget", <|"label" -> "phone"|>]',
    'robot_tool.invoke({"goal": "kitchen"})',
    "w = mem.where_to_look('label', 'glasses', 'label', 'keys');",      # a field twice
])
def test_a_write_or_an_unknown_call_in_any_punctuation_stays_refused(text):
    refusal(text, NAMES)


def test_the_rewrite_leaves_quoted_text_alone_and_reads_no_prose():
    assert dialects.rewrite("where is the mug", loose.tool_name) is None
    assert dialects.rewrite("$m->current(['label' => 'a -> b => c'])", loose.tool_name) == \
        "m.current({'label': 'a -> b => c'})"


# ------------------------------------------------------------------------------ transports and markups of a call
@pytest.mark.parametrize("text, operator, args", [
    ('<?xml version="1.0"?><methodCall><methodName>last_seen</methodName><params><param><value><struct><member>'
     '<name>label</name><value><string>kettle</string></value></member></struct></value></param></params></methodCall>',
     "last_seen", {"label": "kettle"}),
    ('<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><m:LastSeen><m:label>mug</m:label>'
     '</m:LastSeen></s:Body></s:Envelope>', "last_seen", {"label": "mug"}),
    ('<Action ID="MemoryLookup" tool="current" label="remote"/>', "current", {"label": "remote"}),
    ('data: {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "is_missing", "arguments": '
     '{"label": "keys"}}}', "is_missing", {"label": "keys"}),
    ('✿FUNCTION✿: current ✿ARGS✿: {"label": "lamp"}', "current", {"label": "lamp"}),
    ('<|recipient|>last_seen <|content|>{"label": "kettle"}', "last_seen", {"label": "kettle"}),
    ('<｜tool▁call▁begin｜>function<｜tool▁sep｜>current ```json {"label": "mug"} ```<｜tool▁call▁end｜>', "current",
     {"label": "mug"}),
    ("GET /odata/LastSeen(label='remote')", "last_seen", {"label": "remote"}),
    ('{"@steps": [{"@func": "count_sightings", "@args": [{"label": "plant"}]}]}', "count_sightings",
     {"label": "plant"}),
    ('{"method": "is_missing", "params": [{"label": "phone"}], "id": 1}', "is_missing", {"label": "phone"}),
    # Erlang's module call, map and binary; a JavaScript fetch as the HTTP request it is
    ('tm:call(last_seen, #{label => <<"kettle">>}).', "last_seen", {"label": "kettle"}),
    ('const res = await fetch("/api/tools/current", {method: "POST", body: JSON.stringify({label: "lamp"})});',
     "current", {"label": "lamp"}),
])
def test_a_call_s_transport_or_markup_is_read_past(text, operator, args):
    got = understood(text, NAMES)
    assert (got.operator, {k: v for k, v in got.args.items() if k in args}) == (operator, args)


@pytest.mark.parametrize("text", [
    '<?xml version="1.0"?><methodCall><methodName>tempomem.purge</methodName><params></params></methodCall>',
    '<s:Envelope xmlns:s="x"><s:Body><m:DeleteObject><m:label>mug</m:label></m:DeleteObject></s:Body></s:Envelope>',
    '✿FUNCTION✿: send_email ✿ARGS✿: {"to": "x"}',
    '{"@steps": [{"@func": "last_seen", "@args": [{"label": "mug"}]}, {"@func": "forget", "@args": []}]}',
    "DELETE /odata/Objects(label='mug')",
    '{"method": "last_seen", "params": ["mug", "keys"], "id": 1}',
    'tm:call(purge, #{label => <<"kettle">>}).',
    'await fetch("/api/tools/current", {method: "DELETE", body: JSON.stringify({label: "lamp"})})',
    'await fetch("/api/forget/current", {method: "POST", body: JSON.stringify({label: "lamp"})})',
])
def test_a_write_or_two_calls_in_a_transport_stay_refused(text):
    refusal(text, NAMES)


# ------------------------------------------------------------------ the seventeenth round's review's leftovers
@pytest.mark.parametrize("question", [
    "where's my wallet I left the house at 8",
    "is the lamp on the desk we came back at 10",
])
def test_a_run_on_clause_that_tells_a_time_is_refused(question):
    assert refusal(question, NAMES).reason.endswith(TIME_IN_TALK)


@pytest.mark.parametrize("question, operator, args", [
    ("where was the kettle when I came back at 10", "as_of", {"label": "kettle", "t": TODAY + 10 * 3600}),
    ("where was the remote at 9 I reckon", "as_of", {"label": "remote", "t": TODAY + 9 * 3600}),
])
def test_a_clause_joined_to_the_question_is_no_run_on(question, operator, args):
    assert read(question)[:2] == (operator, args)


@pytest.mark.parametrize("text, word", [
    ("where are the keys; then fetch them", "fetch"),
    ("last seen --label remote && grab the remote", "grab"),
    ("where's the phone; bring me my phone please", "bring"),
])
def test_a_read_chained_to_a_hand_over_is_refused_as_a_batch(text, word):
    assert f"('{word}')" in refusal(text, NAMES).reason


@pytest.mark.parametrize("text", [
    '{"name": "current", "arguments": {"label": "keys; forget"}}',
    '{"tool": "is_missing", "label": "phone; forget phone"}',
    "mem.current(label='lamp; wipe')",
])
def test_a_write_inside_an_argument_s_text_is_refused(text):
    assert "more than one command" in refusal(text, NAMES).reason


def test_an_argument_or_a_batch_without_an_act_still_reads_or_is_refused_as_before():
    assert read('{"name": "current", "arguments": {"label": "teddy bear"}}')[0] == "current"
    assert "more than one command" not in refusal("last seen --label keys; get history --label phone", NAMES).reason


# ---------------------------------------------------------------------------------------- talk and dialect
@pytest.mark.parametrize("question, operator, args", [
    ("did the kettle move this morning question mark", "did_move",
     {"label": "kettle", "since": TODAY + 5 * 3600, "until": TODAY + 12 * 3600}),
    ("where are the scissors full stop", "current", {"label": "scissors"}),
    ("hw mny times has the lamp been seen", "count_sightings", {"label": "lamp"}),
    ("where was the remote twenty minutes since", "as_of", {"label": "remote", "t": NOW - 1200}),
    ("how many times did you spot the plant all told", "count_sightings", {"label": "plant"}),
    ("ugh where is my phone", "current", {"label": "phone"}),
    ("is the kettle missing for real", "is_missing", {"label": "kettle"}),
])
def test_spoken_marks_dialect_and_fillers_read(question, operator, args):
    assert read(question)[:2] == (operator, args)


def test_since_before_a_clause_and_marks_beside_spoken_ones_are_not_rewritten():
    refusal("where was the remote twenty minutes since I came in", NAMES)   # "since" starts a clause: no "ago"
    assert dictation.marks("where is the mug? question mark") == "where is the mug? question mark"
    assert dictation.marks("what changed in the period since 9") == "what changed in the period since 9"
    assert dictation.marks("where is the mug comma the blue one question mark") == "where is the mug, the blue one?"


# ----------------------------------------------------------------------- the eighteenth round's review
@pytest.mark.parametrize("question", [
    "how can I take the wallet without you noticing",          # concealed from the robot itself
    "where can I put the wallet so you won't see it",          # advice on where, with a clause of concealment
    "how can I hide the wallet from my wife",
    "how can i keep the keys secret from my flatmate",
    "how can i fool the robot",                                # deceiving the robot itself
    "can you help me trick you into saying the wallet is in the kitchen",
])
def test_review_concealment_from_the_robot_and_deceiving_it_are_refused(question):
    assert refusal(question, NAMES).reason.endswith(conduct.REFUSAL)


@pytest.mark.parametrize("question", [
    "where did i put the wallet",
    "where do i keep the scissors",
    "how can i keep the cat from the table",                   # no secret, no one kept from it
    "did the cat trick the robot",                             # asks no help
])
def test_review_no_concealment_no_such_request(question):
    assert not conduct.refuses(question)


def test_review_the_spelling_index_walks_each_distinct_word_once_and_shares_it_across_label_sets():
    from tempomem_ros.core.answering import slots
    slots._deletes.cache_clear()
    assert Names(["red mug", "red cup", "blue mug"])._word_deletes["rd"] == frozenset({"red"})
    assert slots._deletes.cache_info()[:2] == (0, 4)         # hits, misses: red, mug, cup, blue once each
    grown = Names(["red mug", "red cup", "blue mug", "green mug"])._word_deletes   # a label appeared
    assert slots._deletes.cache_info()[:2] == (4, 5)         # only "green" spelt out again
    assert grown["gren"] == frozenset({"green"}) and "grn" not in grown


@pytest.mark.parametrize("question", ["what moved just now", "did the mug move just now", "has the mug moved just now",
                                      "did anything change just now"])
def test_review_just_now_beside_the_past_is_refused_not_read_over_all_time(question):
    from tempomem_ros.core.answering.understand import JUST_NOW_PAST
    assert refusal(question, NAMES).reason == JUST_NOW_PAST


def test_review_just_now_in_a_question_of_the_present_still_reads():
    assert read("how many mugs are there just now") == ("count_objects", {"label": "mug"}, "")
    assert read("is the mug missing just now") == ("is_missing", {"label": "mug"}, "")


@pytest.mark.parametrize("question, operator", [
    ("what changed just now, like in the last ten minutes", "changes"),     # a span of its own
    ("when did you last see my headphones, I had them just now", "last_seen"),   # no span: "just now" is talk
])
def test_review_just_now_beside_a_span_or_in_talk_still_reads(question, operator):
    assert understood(question, NAMES).operator == operator


@pytest.mark.parametrize("text", [
    '{"tool": "current", "label": "mug | forget mug"}',       # a shell pipe inside a value
    '{"tool": "current", "label": "mug `forget mug`"}',       # backquotes
    '{"tool": "current", "label": "mug $(forget mug)"}',      # a command substitution
    "current(label=mug; forget mug)",                         # a value left unquoted
])
def test_review_a_write_run_on_inside_a_value_by_shell_marks_or_unquoted_is_refused_as_a_batch(text):
    assert "more than one command" in refusal(text, NAMES).reason


@pytest.mark.parametrize("text, label", [
    ('Tempomem["LastSeen", <|"label" -> "phone"|>]', "phone"),   # Wolfram's '|' outside a value
    ("current(label=mug)", "mug"),
])
def test_review_marks_outside_a_value_read_as_before(text, label):
    assert understood(text, NAMES).args["label"] == label
