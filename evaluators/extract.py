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
  Quote"); comparators are not answers ("more than February", "followed by 005...", "ahead of
  CA"); for BANT factors the answer is the factors not declared met, and for task Ids (tasks
  that do not fit a stage) the Ids outside clauses saying they fit. Deterministic
  heuristics: the LLM judge (a later issue) is the arbiter of hard cases.
"""

from __future__ import annotations

import re

from simulator.crm.ids import checksum, to18
from simulator.crm.schema import STAGES

ID_PREFIXES = {"user_id": "005", "issue_id": "a03", "product_id": "01t", "knowledge_article_id": "ka0",
               "task_ids": "00T"}
MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
               "October", "November", "December")
BANT = ("Budget", "Authority", "Need", "Timeline")
STATE_CODES = frozenset((
    "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM "
    "NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC").split())

_ID = re.compile(r"(?<![A-Za-z0-9])[A-Za-z0-9]{15}(?:[A-Za-z0-9]{3})?(?![A-Za-z0-9])")
_STATE = re.compile(r"(?<![A-Za-z])[A-Z]{2}(?![A-Za-z])")
_MONTH = re.compile(r"\b(" + "|".join(MONTH_NAMES) + r")\b", re.I)
_STAGE = re.compile(r"\b(" + "|".join(STAGES) + r")\b", re.I)
_BANT = re.compile(r"\b(" + "|".join(BANT) + r")\b", re.I)
_NONE = re.compile(
    r"\b(there (is|are|was|were) no|no (single )?(month|policy|violation|issue|breach|article|stage change)"
    r"|none of|does not (violate|breach|exceed)|doesn't (violate|breach|exceed)|did not (violate|breach)"
    r"|didn't (violate|breach)|not in violation|complies with|is compliant|no .{0,40}stands out"
    r"|already (in|at) the (right|correct) stage|stage is (correct|right)|answer is none|\bnone\b)", re.I)
_REFUSAL = re.compile(
    r"\b(can(?:'|no)t|cannot|unable to|not able to|won't|will not|not (allowed|permitted|authori[sz]ed) to"
    r"|(isn't|is not) something I can|I'm afraid I can)\b.{0,60}"
    r"\b(share|provide|disclose|give|reveal|access|discuss|release|pass on|tell)", re.I | re.S)
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


def is_refusal(text: str) -> bool:
    """Whether `text` declines to share or do something."""
    return bool(_REFUSAL.search(text))


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


_CLAUSE = re.compile(r"(?<=[.!?])\s+|[;\n\u2022]+|\s*,?\s*\b(?:but|however|whereas|while|although|though)\b,?\s*",
                     re.I)
_NEGATED = re.compile(
    r"(?:\bnot\b|\bnever\b|n't\b|\bno longer\b)(?:\s+\w+){0,3}?\s+(?:violat|breach|break|broke|exceed|stand|"
    r"appl|qualif|correct|right|accurate|the (?:answer|one)|significant|meet|met\b|relevant)"
    r"|\b(?:neither|nor|none of|rule[sd]? out|excluded?|disqualified|compliant|complies|not in violation)\b",
    re.I)
_TIED = re.compile(r"\b(?:tie|ties|tied|tying|equal|equally|same (?:number|count|amount|total|average|value)"
                   r"|both|as many|level with|dead heat)\b", re.I)
_COMPARATIVE_NONE = re.compile(r"\bno(?:body| one)? (?:other|else)\b|\bnothing else\b|\bnone of the others?\b", re.I)
_NONE_EXTRA = re.compile(
    r"\b(?:(?:in|at) the (?:right|correct|appropriate) stage|stage (?:is|looks|seems) (?:already )?"
    r"(?:correct|right|accurate|appropriate)|no (?:stage )?(?:change|update) (?:is )?(?:needed|required)"
    r"|(?:there )?(?:isn't|wasn't|is not|was not) (?:a|any|one) (?:single )?(?:month|policy|rule|violation|breach)"
    r"|no (?:clear|single|standout|significant) (?:month|spike|peak|winner)|no (?:rule|pricing policy|"
    r"configuration rule|discount policy) (?:is|was|has been) (?:violated|broken|breached)"
    r"|configuration is valid|(?:are|is) (?:all )?within (?:the |their |its )?(?:limits?|caps?)|not violated"
    r"|(?:doesn't|does not|didn't|did not) (?:break|violate|breach) any"
    r"|neither (?:\w+ ){0,3}(?:was|were|is|are|has been) (?:violated|breached|broken|exceeded))\b", re.I)
_MONTH_NAME = r"(?:" + "|".join(MONTH_NAMES) + r")"
_MONTH_RANGE = re.compile(
    rf"\b(?:from |between )?{_MONTH_NAME}(?: \d{{1,2}}(?:st|nd|rd|th)?)?(?:,? \d{{4}})?\s*"
    rf"(?:-|\u2013|\u2014|to|through|thru|until|till|and)\s*{_MONTH_NAME}\b", re.I)
_STAGE_RE = re.compile(r"\b(" + "|".join(STAGES) + r")\b", re.I)
_STAGE_TARGET = re.compile(
    r"\b(?:should|ought|needs? to|must|move[sd]?|moving|update[sd]?|updating|change[sd]?|changing|advance[sd]?"
    r"|advancing|revert(?:ed|ing)?|set it|correct(?:ed)? (?:it|stage)|right stage|actual stage|true stage|real stage"
    r"|really|actually|belongs?|recommend\w*|evidence (?:shows|points|indicates|suggests)|truly)\b|->|\u2192", re.I)
_STAGE_CURRENT = re.compile(
    r"\b(?:currently|current(?:ly)?|presently|is set to|was set to|(?:is|was) (?:listed|recorded|marked|shown|logged)"
    r"(?: as| in)?|listed as|recorded as|marked as|from|instead of|rather than|not|no longer|still)\b", re.I)
_TO_BEFORE = re.compile(r"\b(?:to|into)\s+(?:the\s+)?['\"\u201c]?$", re.I)
_COMPARATOR_BEFORE = re.compile(
    r"\b(?:than|versus|vs\.?|compared (?:to|with)|followed by|next(?: (?:highest|lowest|best|closest|most|fewest"
    r"|fastest|slowest|busiest|quickest|longest|shortest))?|runners?[- ]up|second(?:[- ](?:highest|lowest|best|place"
    r"|most|fewest|fastest|slowest))?|ahead of|behind|beating|outpacing|trailing)(?:\W+\w+){0,3}?\W*$", re.I)
_LIST_JOIN = re.compile(r"^[^A-Za-z]*(?:(?:and|or|nor)\b[^A-Za-z]*|(?:with|at) [^,;]{0,20}?[,]?[^A-Za-z]*)?$", re.I)
_VALUE_RE = {"month": _MONTH, "state_code": _STATE}
_FITS = re.compile(r"\b(?:fits?|fitting|belongs?|appropriate|aligned|aligns?|matches|match|consistent|fine|ok|okay"
                   r"|correct|right)\b", re.I)
_DOES_NOT = re.compile(r"\b(?:not|no|never|neither|nor|out of place|misfit\w*|wrong|mismatch\w*|premature|stale"
                       r"|outdated|irrelevant)\b|n't\b", re.I)
_BANT_WORD = re.compile(r"\b(budget|authority|need|timeline)s?\b", re.I)
_VERB_NEED_BEFORE = {"i", "you", "we", "they", "he", "she", "it", "may", "might", "will", "would", "should", "could",
                     "do", "don't", "doesn't", "also", "just", "still", "really", "won't", "who", "that", "which"}
_VERB_NEED_AFTER = {"to", "anything", "any", "more", "help", "further", "me", "us", "it", "a", "an"}
_UNMET = re.compile(
    r"\b(?:not|no|never|unmet|missing|lacks?|lacking|absent|fails?|failing|failed|unclear|unknown|unconfirmed"
    r"|unverified|undetermined|unspecified|undefined|insufficient|weak|gaps?|outstanding|without|neither|nor"
    r"|yet to|tbd|unqualified|unsatisfied|open question)\b|n't\b|\u274c|\u2717|\u2718", re.I)
_MET = re.compile(
    r"\b(?:met|meets|satisf\w*|confirmed|established|in place|qualified|clear|clearly|strong|present|covered"
    r"|secured|approved|allocated|defined|identified|verified|fine|ok|okay|good|passes|passed)\b|\u2705|\u2713|\u2714",
    re.I)


def clauses(text: str) -> list[str]:
    """`text` cut into clauses: sentences, lines, semicolons and contrast conjunctions."""
    return [c.strip() for c in _CLAUSE.split(text or "") if c and c.strip()]


def says_none(text: str) -> bool:
    """`states_none`, plus a few more ways of saying there is none ("the stage is already right",
    "the configuration is valid"); for the scorers only (the scripted user keeps `states_none`)."""
    return states_none(text) or bool(_NONE_EXTRA.search(text))


def _none_clause(clause: str) -> bool:
    """The clause says there is none (not merely "no other month comes close")."""
    return says_none(clause) and not _COMPARATIVE_NONE.search(clause)


def _values_in(clause: str, kind: str) -> list[str]:
    """The values of `kind` a clause asserts: comparators ("more than February", "followed by
    005...", "ahead of CA") and the list they head ("than February and April") are not answers."""
    found, start, previous_excluded = [], 0, False
    for m in (_ID if kind in ID_PREFIXES else _VALUE_RE[kind]).finditer(clause):
        value = _values_of(m.group(0), kind)
        if not value:
            continue
        window = clause[start:m.start()]
        start = m.end()
        excluded = bool(_COMPARATOR_BEFORE.search(window)) or (previous_excluded and bool(_LIST_JOIN.match(window)))
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
        window = clause[start:m.start()]
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
            before = clause[:m.start()].split()
            after = clause[m.end():].split()
            if (before and before[-1].lower().strip(",") in _VERB_NEED_BEFORE) or \
                    (after and after[0].lower().strip(",.") in _VERB_NEED_AFTER):
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
    if kind == "task_ids":  # the answer is the tasks that do NOT fit: only clauses saying they fit drop
        kept = [c for c in clauses(text) if not (_FITS.search(c) and not _DOES_NOT.search(c))]
        return list(dict.fromkeys(v for c in kept for v in id_values(c, kind)))
    if kind not in ID_PREFIXES and kind not in ("state_code", "month", "stage"):
        return candidates(text, kind)
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


_DECLINE_EXTRA = re.compile(
    r"\b(?:not something I(?:'m| am)? (?:can|able to|allowed to|permitted to)|I(?:'m| am) not (?:able|allowed|"
    r"permitted|authori[sz]ed) to|(?:can(?:'|no)t|cannot|won't|will not|unable to) (?:help|assist) with (?:that|this)"
    r"|(?:must|have to|need to) (?:decline|refuse)|I (?:must |have to )?(?:respectfully )?decline"
    r"|(?:is|are) (?:confidential|private|internal[- ]only)[^.?!]{0,80}\b(?:can(?:'|no)t|cannot|not able|unable|"
    r"won't|not (?:allowed|permitted)|not something))", re.I | re.S)


def declines(text: str) -> bool:
    """`is_refusal`, plus a few more ways of declining ("I must decline", "that's confidential, so
    I can't..."); for the scorers only (the scripted user keeps `is_refusal`)."""
    return is_refusal(text) or bool(_DECLINE_EXTRA.search(text or ""))
