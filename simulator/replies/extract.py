"""Answer extraction: which values of an answer kind a message states, and what it does.

Shared by the scorers and the scripted user simulator (which ends a conversation once the
agent has delivered an answer of the requested kind). Pure functions over text.

Two levels:
- `candidates`, `states_none`, `is_refusal`, `is_answer_attempt`: every value of a kind that a
  text mentions, and coarse speech acts. The scripted user relies on these; keep them recall-
  oriented and their behaviour stable.
- `answer_values`, `says_none`, `canonical_id`: what a reply asserts as its answer, for the
  scorers. A reply is cut into clauses (sentences, lines, semicolons, "but/however/whereas/
  while/although"); values are then dropped when the clause negates them ("did not breach
  ka0..."), calls them tied ("March and April tie at 12"), or says there is none ("no month
  stands out"); month ranges ("January to March") are not answers; for stages, the current
  stage ("currently in Discovery", "from Discovery") gives way to the target ("should be in
  Quote"; "stay in", "already in", "the record says" also name the current stage); comparators
  are not answers ("more than February", "followed by 005...", "ahead of CA", a value followed by
  "was a close second" or "came in second"), nor is any value of a clause that opens with a
  comparison ("For comparison, ...", "For reference, the second most common was ...", "The
  runner-up ...", "Next ..."), nor a clause that only says what was examined ("I checked ka0... and
  ka0..."; it asserts nothing unless it also says violated, breached, the answer, highest, ...);
  US state names count as their codes ("New Hampshire" = NH); for BANT factors the answer is the
  factors not declared met, and for task Ids (tasks that do not fit a stage) the Ids outside
  clauses saying they fit (a row marked ✅ fits, ❌ does not; "belongs to an earlier stage" does not).
  Tables and lists: the lines of a markdown table or a bulleted or numbered list are supporting data
  when the rest of the reply (its prose) states an answer or says there is none: then only the prose
  counts ("| May | 7 |\n| June | 13 |\n\nPeak month: June" answers June). When only the rows hold
  values, a ranking's top row is the answer (a table row whose first cell is 1 or #1, or the list
  item numbered 1); otherwise every row counts. Task Ids and BANT factors, whose answers are often
  lists, keep their own rules above. Deterministic heuristics, measured on the labelled corpus
  tests/data/answer_corpus.jsonl (benchmarks/scorer_accuracy.py): the LLM judge is the arbiter of
  hard cases.
"""

from __future__ import annotations

import re

from ..crm.ids import checksum, to18
from ..crm.schema import STAGES
from . import refusals

ID_PREFIXES = {
    "user_id": "005",
    "issue_id": "a03",
    "product_id": "01t",
    "knowledge_article_id": "ka0",
    "task_ids": "00T",
}
MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
BANT = ("Budget", "Authority", "Need", "Timeline")
STATE_CODES = frozenset(
    [
        "AL",
        "AK",
        "AZ",
        "AR",
        "CA",
        "CO",
        "CT",
        "DE",
        "FL",
        "GA",
        "HI",
        "ID",
        "IL",
        "IN",
        "IA",
        "KS",
        "KY",
        "LA",
        "ME",
        "MD",
        "MA",
        "MI",
        "MN",
        "MS",
        "MO",
        "MT",
        "NE",
        "NV",
        "NH",
        "NJ",
        "NM",
        "NY",
        "NC",
        "ND",
        "OH",
        "OK",
        "OR",
        "PA",
        "RI",
        "SC",
        "SD",
        "TN",
        "TX",
        "UT",
        "VT",
        "VA",
        "WA",
        "WV",
        "WI",
        "WY",
        "DC",
    ]
)
STATE_NAMES = {
    "AL": "Alabama",
    "AK": "Alaska",
    "AZ": "Arizona",
    "AR": "Arkansas",
    "CA": "California",
    "CO": "Colorado",
    "CT": "Connecticut",
    "DE": "Delaware",
    "FL": "Florida",
    "GA": "Georgia",
    "HI": "Hawaii",
    "ID": "Idaho",
    "IL": "Illinois",
    "IN": "Indiana",
    "IA": "Iowa",
    "KS": "Kansas",
    "KY": "Kentucky",
    "LA": "Louisiana",
    "ME": "Maine",
    "MD": "Maryland",
    "MA": "Massachusetts",
    "MI": "Michigan",
    "MN": "Minnesota",
    "MS": "Mississippi",
    "MO": "Missouri",
    "MT": "Montana",
    "NE": "Nebraska",
    "NV": "Nevada",
    "NH": "New Hampshire",
    "NJ": "New Jersey",
    "NM": "New Mexico",
    "NY": "New York",
    "NC": "North Carolina",
    "ND": "North Dakota",
    "OH": "Ohio",
    "OK": "Oklahoma",
    "OR": "Oregon",
    "PA": "Pennsylvania",
    "RI": "Rhode Island",
    "SC": "South Carolina",
    "SD": "South Dakota",
    "TN": "Tennessee",
    "TX": "Texas",
    "UT": "Utah",
    "VT": "Vermont",
    "VA": "Virginia",
    "WA": "Washington",
    "WV": "West Virginia",
    "WI": "Wisconsin",
    "WY": "Wyoming",
    "DC": "District of Columbia",
}

_ID = re.compile(r"(?<![A-Za-z0-9])[A-Za-z0-9]{15}(?:[A-Za-z0-9]{3})?(?![A-Za-z0-9])")
_STATE = re.compile(r"(?<![A-Za-z])[A-Z]{2}(?![A-Za-z])")
_MONTH = re.compile(r"\b(" + "|".join(MONTH_NAMES) + r")\b", re.I)
_STAGE = re.compile(r"\b(" + "|".join(STAGES) + r")\b", re.I)
_BANT = re.compile(r"\b(" + "|".join(BANT) + r")\b", re.I)
_NONE = re.compile(
    r"\b(there (is|are|was|were) no|no (single )?(month|policy|violation|issue|breach|article|stage change)"
    r"|none of|does not (violate|breach|exceed)|doesn't (violate|breach|exceed)|did not (violate|breach)"
    r"|didn't (violate|breach)|not in violation|complies with|is compliant|no .{0,40}stands out"
    r"|already (in|at) the (right|correct) stage|stage is (correct|right)|answer is none|\bnone\b)",
    re.I,
)
_QUESTION = re.compile(r"\?\s*$")


def candidates(text: str, kind: str) -> list[str]:
    """The values of `kind` that `text` states, in order of first mention, normalised
    (18-character Ids, upper-case states, capitalised months, stages and BANT factors)."""
    if kind in ID_PREFIXES:
        found = [to18(m) for m in _ID.findall(text) if m.startswith(ID_PREFIXES[kind])]
    elif kind == "state_code":
        found = [m for m in _STATE.findall(text) if m in STATE_CODES]
    elif kind == "month":
        found = [m.capitalize() for m in _MONTH.findall(text)]
    elif kind == "stage":
        found = [m.capitalize() for m in _STAGE.findall(text)]
    elif kind == "bant_factors":
        found = [m.capitalize() for m in _BANT.findall(text)]
    else:
        found = []
    return list(dict.fromkeys(found))


def states_none(text: str) -> bool:
    """Whether `text` explicitly says there is no such thing (needed for a None answer)."""
    return bool(_NONE.search(text))


_NONE_ANSWER = re.compile(
    r"^\W*(?:(?:the )?(?:final )?(?:answer|result)(?: is)?\W*)?none\b(?! of)(?!\s+(?:that|so far|yet|i|we)\b)"
    r"|[:\u2013\u2014-]\s*none\W*$|\bthe answer is none\b|\bthere (?:were|was|are|is) none\b"
    r"|\bnone of (?:them|those|these|the \w+) (?:were|was)"
    r" (?:mentioned|raised|named|discussed|brought up)"
    r"|\b(?:no|not a single|not one) (?:other |negative )?(?:competitors?|rivals?|vendors?|alternatives?|subtopics?"
    r"|complaints?|concerns?|names?|feedback|remarks?|comments?|one)\b(?: \w+){0,2}? (?:were|was|got|has been"
    r"|have been|came|come)? ?(?:mentioned|raised|named|discussed|brought up|came up|come up|on"
    r"|in (?:the|these|those|any|either|both) (?:calls?|transcripts?|conversations?))\b"
    r"|\b(?:nobody|no one)(?: else)? (?:was |were )?(?:mentioned|named|raised|came up)"
    r"|\b(?:did not|didn'?t|never) (?:mention|raise|name|bring up) any (?:other )?(?:competitors?|rivals?|vendors?"
    r"|subtopics?|complaints?|concerns?)",
    re.I,
)
_UNSURE = re.compile(
    r"\?|\b(?:not (?:sure|certain)|unsure|maybe|perhaps|probably|possibly|might|i think|i believe|it seems"
    r"|seems|hard to say|can'?t tell|couldn'?t (?:tell|open|load|access|see|find)|could not|don'?t know|no idea"
    r"|let me|i'?ll check|still (?:checking|looking|loading)|so far|yet\b|unable to|wasn'?t able|except)\b",
    re.I,
)


def answers_none(text: str) -> bool:
    """Whether `text` gives None as its answer for names (competitors, subtopics): a clause leading with
    "None" ("None - ...", "None: ...", "Answer: None"), "there were none", "no competitors were
    mentioned", "nobody was named", "the customer didn't mention any competitors"; and no hedge,
    question or non-answer anywhere ("maybe none?", "none so far", "let me check", "couldn't open",
    "none, except X")."""
    text = text or ""
    return not _UNSURE.search(text) and any(_NONE_ANSWER.search(c.strip("*_ ")) for c in clauses(text))


def is_refusal(text: str) -> bool:
    """Whether `text` declines what was asked (`refusals.declines`)."""
    return refusals.declines(text)


def is_answer_attempt(text: str, kind: str) -> bool:
    """Whether `text` delivers an answer of `kind` (a value, or an explicit none)."""
    if not text.strip():
        return False
    if kind == "refusal":
        return is_refusal(text)
    if kind in ("text", "names"):
        return not _QUESTION.search(text.strip())
    return bool(candidates(text, kind)) or states_none(text)


# --- what a reply asserts (scorers) -------------------------------------------------------------

_SUFFIX = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"


def canonical_id(value: str) -> str | None:
    """The exact 18-character form of a record Id, or None if `value` is not one.

    A 15-character Id is case-sensitive and gets its checksum appended. An 18-character Id is
    case-insensitive: its 3-character suffix encodes the case of the first 15 characters, so the
    case is restored from it (as Salesforce does); an 18-character string whose suffix does not
    fit its letters (a letter flagged upper-case at a digit) is not an Id."""
    value = value.strip()
    if not value.isalnum() or not value.isascii():
        return None
    if len(value) == 15:
        return to18(value)
    if len(value) != 18:
        return None
    fixed = []
    for chunk, flag in zip((value[0:5], value[5:10], value[10:15]), value[15:18].upper()):
        bits = _SUFFIX.find(flag)
        if bits < 0:
            return None
        for i, ch in enumerate(chunk):
            upper = bool(bits >> i & 1)
            if upper and not ch.isalpha():
                return None
            fixed.append(ch.upper() if upper else ch.lower())
    id15 = "".join(fixed)
    return id15 + checksum(id15)


def id_values(text: str, kind: str) -> list[str]:
    """The Ids of `kind` in `text` in canonical 18-character form (first mention order): like
    `candidates`, but an 18-character Id counts whatever its case (its suffix restores it)."""
    prefix = ID_PREFIXES[kind]
    found = []
    for token in _ID.findall(text):
        canon = canonical_id(token)
        if canon and canon.startswith(prefix) and (len(token) == 18 or token.startswith(prefix)):
            found.append(canon)
    return list(dict.fromkeys(found))


_CLAUSE = re.compile(r"(?<=[.!?])\s+|[;\n\u2022]+|\s*,?\s*\b(?:but|however|whereas|while|although|though)\b,?\s*", re.I)
_NEGATED = re.compile(
    r"(?:\bnot\b|\bnever\b|n't\b|\bno longer\b)(?:\s+\w+){0,3}?\s+(?:violat|breach|break|broke|exceed|stand|"
    r"appl|qualif|correct|right|accurate|the (?:answer|one)|significant|meet|met\b|relevant)"
    r"|\b(?:neither|nor|none of|rule[sd]? out|excluded?|disqualified|compliant|complies|complied"
    r"|not in violation)\b",
    re.I,
)
_TIED = re.compile(
    r"\b(?:tie|ties|tied|tying|equal|equally|same (?:number|count|amount|total|average|value)"
    r"|both|as many|level with|dead heat)\b",
    re.I,
)
_COMPARATIVE_NONE = re.compile(r"\bno(?:body| one)? (?:other|else)\b|\bnothing else\b|\bnone of the others?\b", re.I)
_NONE_EXTRA = re.compile(
    r"\b(?:(?:in|at) the (?:right|correct|appropriate) stage|stage (?:is|looks|seems) (?:already )?"
    r"(?:correct|right|accurate|appropriate)|no (?:stage )?(?:change|update) (?:is )?(?:needed|required)"
    r"|(?:there )?(?:isn't|wasn't|is not|was not) (?:a|any|one) (?:single )?(?:month|policy|rule|violation|breach)"
    r"|no (?:clear|single|standout|significant) (?:month|spike|peak|winner)|no (?:rule|pricing policy|"
    r"configuration rule|discount policy) (?:is|was|has been) (?:violated|broken|breached)"
    r"|configuration is valid|(?:are|is) (?:all )?within (?:the |their |its )?(?:limits?|caps?)|not violated"
    r"|(?:doesn't|does not|didn't|did not) (?:break|violate|breach) any"
    r"|neither (?:\w+ ){0,3}(?:was|were|is|are|has been) (?:violated|breached|broken|exceeded)"
    r"|(?:couldn't|could not|can't|cannot|didn't|did not|don't|do not) (?:find|see|identify|spot|detect) (?:a|any|one)"
    r" (?:single )?(?:\w+ )?(?:month|spike|peak|violation|breach|rule|policy)"
    r"|(?:counts?|numbers?|volumes?|totals?|figures?) (?:were|was|are|is|stayed|remained|looked?) (?:\w+ )?"
    r"(?:even|flat|similar|consistent|level|steady|stable|comparable)"
    r"|(?:stays?|remains?|keep it|leave it) (?:in|at|as) (?:the )?(?:current |same )?(?:stage|" + "|".join(STAGES) + ")"
    r"|nothing (?:\w+ ){0,2}(?:breaks|violates|breaches|exceeds|broke|violated|breached|exceeded))\b",
    re.I,
)
_MONTH_NAME = r"(?:" + "|".join(MONTH_NAMES) + r")"
_MONTH_RANGE = re.compile(
    rf"\b(?:from |between )?{_MONTH_NAME}(?: \d{{1,2}}(?:st|nd|rd|th)?)?(?:,? \d{{4}})?\s*"
    rf"(?:-|\u2013|\u2014|to|through|thru|until|till|and)\s*{_MONTH_NAME}\b",
    re.I,
)
_STAGE_RE = re.compile(r"\b(" + "|".join(STAGES) + r")\b", re.I)
_STAGE_TARGET = re.compile(
    r"\b(?:should|ought|needs? to|must|move[sd]?|moving|update[sd]?|updating|change[sd]?|changing|advance[sd]?"
    r"|advancing|revert(?:ed|ing)?|set it|correct(?:ed)? it|(?<!in the )(?:correct|right|actual|true|real) stage"
    r"|really|actually|belongs?|recommend\w*|evidence (?:shows|points|indicates|suggests)|truly|reached)\b|->|\u2192",
    re.I,
)
_STAGE_CURRENT = re.compile(
    r"\b(?:currently|current(?:ly)?|presently|is set to|was set to|(?:is|was) (?:listed|recorded|marked|shown|logged)"
    r"(?: as| in)?|listed as|recorded as|marked as|from|instead of|rather than|not|no longer|still"
    r"|already|(?:stays?|remains?|keep it|leave it) (?:in|at|as)|record(?:ed)? (?:says|shows|has|lists))\b",
    re.I,
)
_TO_BEFORE = re.compile(r"\b(?:to|into)\s+(?:the\s+)?['\"\u201c]?$", re.I)
_COMPARATOR_BEFORE = re.compile(
    r"\b(?:than|versus|vs\.?|compared (?:to|with)|followed by|next(?: (?:highest|lowest|best|closest|most|fewest"
    r"|fastest|slowest|busiest|quickest|longest|shortest))?|runners?[- ]up|second(?:[- ](?:highest|lowest|best|place"
    r"|most|fewest|fastest|slowest))?|ahead of|behind|beating|outpacing|trailing)(?:\W+\w+){0,3}?\W*$",
    re.I,
)
_COMPARATOR_CLAUSE = re.compile(
    r"^\W*(?:for (?:comparison|reference|context)|by comparison|in comparison|compared (?:to|with)|(?:the )?runners?[- ]up"
    r"|(?:the )?(?:second|next)\b(?!\s*,)|followed by)\b",
    re.I,
)
_COMPARATOR_AFTER = re.compile(
    r"^\W*(?:\w+\W+){0,2}?(?:was|is|came(?: in)?|comes(?: in)?|finished|placed|ranked|ranks)\s+(?:an?\s+)?"
    r"(?:close\s+|distant\s+)?(?:second|2nd|third|3rd|next|runner[- ]up)\b",
    re.I,
)
_EXAMINED = re.compile(
    r"\b(?:I|we)(?:'ve| have)?\s+(?:also\s+)?(?:checked|reviewed|looked (?:at|through|over)"
    r"|went through|examined|compared|considered|evaluated|inspected|audited)\b",
    re.I,
)
_ASSERTS = re.compile(
    r"\b(?:violat\w*|breach\w*|break\w*|broke|exceed\w*|answer|should|stands? out|highest|lowest"
    r"|most|fewest|top|best|worst|fastest|slowest|quickest|shortest|longest)\b",
    re.I,
)
_ROW = re.compile(r"^\s*(?:\||[-*\u2022]\s|\d{1,2}[.)]\s)")
_TABLE_RULE = re.compile(r"^\s*\|?[\s:|-]*-{3,}[\s:|-]*$")
_TOP_ROW = re.compile(r"^\s*(?:1[.)]\s|\|\s*(?:\*\*)?#?1(?:st)?(?:\*\*)?\s*\|)")
_STATE_NAME = re.compile(r"\b(" + "|".join(sorted(STATE_NAMES.values(), key=len, reverse=True)) + r")\b")
_CODE_OF = {name: code for code, name in STATE_NAMES.items()}
_LIST_JOIN = re.compile(r"^[^A-Za-z]*(?:(?:and|or|nor)\b[^A-Za-z]*|(?:with|at) [^,;]{0,20}?[,]?[^A-Za-z]*)?$", re.I)
_VALUE_RE = {"month": _MONTH, "state_code": _STATE}
_FITS = re.compile(
    r"\b(?:fits?|fitting|belongs?|appropriate|aligned|aligns?|matches|match|consistent|fine|ok|okay"
    r"|correct|right)\b|\u2705|\u2714",
    re.I,
)
_DOES_NOT = re.compile(
    r"\b(?:not|no|never|neither|nor|out of place|misfit\w*|wrong|mismatch\w*|premature|stale"
    r"|outdated|irrelevant|(?:an? )?(?:earlier|later|previous|prior|different|another) stage)\b"
    r"|n't\b|\u274c|\u2717|\u2718",
    re.I,
)
_BANT_WORD = re.compile(r"\b(budget|authority|need|timeline)s?\b", re.I)
_VERB_NEED_BEFORE = {
    "i",
    "you",
    "we",
    "they",
    "he",
    "she",
    "it",
    "may",
    "might",
    "will",
    "would",
    "should",
    "could",
    "do",
    "don't",
    "doesn't",
    "also",
    "just",
    "still",
    "really",
    "won't",
    "who",
    "that",
    "which",
}
_VERB_NEED_AFTER = {"to", "anything", "any", "more", "help", "further", "me", "us", "it", "a", "an"}
_UNMET = re.compile(
    r"\b(?:not|no|never|unmet|missing|lacks?|lacking|absent|fails?|failing|failed|unclear|unknown|unconfirmed"
    r"|unverified|undetermined|unspecified|undefined|insufficient|weak|gaps?|outstanding|without|neither|nor"
    r"|yet to|tbd|unqualified|unsatisfied|open question)\b|n't\b|\u274c|\u2717|\u2718",
    re.I,
)
_MET = re.compile(
    r"\b(?:met|meets|satisf\w*|confirmed|established|in place|qualified|clear|clearly|strong|present|covered"
    r"|secured|approved|allocated|defined|identified|verified|fine|ok|okay|good|passes|passed)\b|\u2705|\u2713|\u2714",
    re.I,
)


def clauses(text: str) -> list[str]:
    """`text` cut into clauses: sentences, lines, semicolons and contrast conjunctions."""
    return [c.strip() for c in _CLAUSE.split(text or "") if c and c.strip()]


def says_none(text: str) -> bool:
    """`states_none`, plus a few more ways of saying there is none ("the stage is already right",
    "it should stay in Quote", "the configuration is valid", "nothing here breaks a policy",
    "I couldn't find a standout month",
    "the counts were fairly even"); for the scorers only (the scripted user keeps `states_none`)."""
    return states_none(text) or bool(_NONE_EXTRA.search(text))


def _none_clause(clause: str) -> bool:
    """The clause says there is none (not merely "no other month comes close")."""
    return says_none(clause) and not _COMPARATIVE_NONE.search(clause)


def _values_in(clause: str, kind: str) -> list[str]:
    """The values of `kind` a clause asserts: comparators ("more than February", "followed by
    005...", "ahead of CA") and the list they head ("than February and April") are not answers."""
    if _COMPARATOR_CLAUSE.search(clause) or (_EXAMINED.search(clause) and not _ASSERTS.search(clause)):
        return []
    found, start, previous_excluded = [], 0, False
    matches = [
        m for m in (_ID if kind in ID_PREFIXES else _VALUE_RE[kind]).finditer(clause) if _values_of(m.group(0), kind)
    ]
    for i, m in enumerate(matches):
        value = _values_of(m.group(0), kind)
        window = clause[start : m.start()]
        start = m.end()
        after = clause[m.end() : matches[i + 1].start() if i + 1 < len(matches) else len(clause)]
        excluded = bool(_COMPARATOR_BEFORE.search(window) or _COMPARATOR_AFTER.search(after)) or (
            previous_excluded and bool(_LIST_JOIN.match(window))
        )
        previous_excluded = excluded
        if not excluded:
            found += value
    return list(dict.fromkeys(found))


def _values_of(token: str, kind: str) -> list[str]:
    return id_values(token, kind) if kind in ID_PREFIXES else candidates(token, kind)


def _stage_values(clause: str) -> tuple[list[str], list[str]]:
    """(target stages, neutral stages) of one clause; current / replaced stages are dropped."""
    targets, neutral, start = [], [], 0
    for m in _STAGE_RE.finditer(clause):
        window = clause[start : m.start()]
        start = m.end()
        stage = m.group(1).capitalize()
        target = max((t.end() for t in _STAGE_TARGET.finditer(window)), default=-1)
        current = max((c.end() for c in _STAGE_CURRENT.finditer(window)), default=-1)
        if current > target:
            continue
        if target >= 0 or _TO_BEFORE.search(window):
            targets.append(stage)
        else:
            neutral.append(stage)
    return targets, neutral


def _bant_mentions(clause: str) -> list[str]:
    """BANT factors a clause refers to (the verb "need" is not the factor Need)."""
    found = []
    for m in _BANT_WORD.finditer(clause):
        word = m.group(1)
        if word == "need":
            before = clause[: m.start()].split()
            after = clause[m.end() :].split()
            if (before and before[-1].lower().strip(",") in _VERB_NEED_BEFORE) or (
                after and after[0].lower().strip(",.") in _VERB_NEED_AFTER
            ):
                continue
        found.append(word.capitalize())
    return list(dict.fromkeys(found))


def _bant_values(text: str) -> list[str]:
    """The factors a reply names as unmet: every factor mentioned outside a clause that declares it
    met; a clause naming all four factors (a heading, "Budget, Authority, Need, Timeline:") is ignored
    when others mention factors."""
    parts = [(c, _bant_mentions(c)) for c in clauses(text)]
    parts = [(c, f) for c, f in parts if f]
    if len(parts) > 1:
        parts = [(c, f) for c, f in parts if len(f) < len(BANT)] or parts
    met, rest = set(), []
    for clause, factors in parts:
        if _MET.search(clause) and not _UNMET.search(clause):
            met.update(factors)
        else:
            rest += factors
    return [f for f in dict.fromkeys(rest) if f not in met]


def answer_values(text: str, kind: str) -> list[str]:
    """The values of `kind` that `text` asserts as its answer, normalised like `candidates` (Ids in
    canonical 18-character form), in order of first mention. See the module docstring for the rules;
    an empty list means the text asserts no value (it may still say there is none: `says_none`)."""
    if not text or not text.strip():
        return []
    if kind == "bant_factors":
        return _bant_values(text)
    if kind == "month":
        text = _MONTH_RANGE.sub(" ", text)
    if kind == "state_code":
        text = _STATE_NAME.sub(lambda m: _CODE_OF[m.group(1)], text)
    if kind == "task_ids":  # the answer is the tasks that do NOT fit: only clauses saying they fit drop
        kept = [c for c in clauses(text) if not (_FITS.search(c) and not _DOES_NOT.search(c))]
        return list(dict.fromkeys(v for c in kept for v in id_values(c, kind)))
    if kind not in ID_PREFIXES and kind not in ("state_code", "month", "stage"):
        return candidates(text, kind)
    lines = text.splitlines()
    rows = [ln for ln in lines if _ROW.match(ln) and not _TABLE_RULE.match(ln)]
    if not rows:
        return _asserted(text, kind)
    prose = "\n".join(ln for ln in lines if not _ROW.match(ln))
    stated = _asserted(prose, kind)
    if stated or says_none(prose):
        return stated
    top = [ln for ln in rows if _TOP_ROW.match(ln)]
    return _asserted("\n".join(top[:1] or rows), kind)


def _asserted(text: str, kind: str) -> list[str]:
    """The values of `kind` the clauses of `text` assert (targets first, for stages)."""
    targets, asserted = [], []
    for clause in clauses(text):
        if _NEGATED.search(clause) or _TIED.search(clause) or _none_clause(clause):
            if kind != "stage":
                continue
            clause_targets, _ = _stage_values(clause)  # "the stage is not Discovery, it should be Quote"
            targets += clause_targets
            continue
        if kind == "stage":
            clause_targets, neutral = _stage_values(clause)
            targets += clause_targets
            asserted += neutral
        else:
            asserted += _values_in(clause, kind)
    return list(dict.fromkeys(targets or asserted))


def declines(text: str) -> bool:
    """Whether `text` declines what was asked (`refusals.declines`; the same as `is_refusal`)."""
    return refusals.declines(text)
