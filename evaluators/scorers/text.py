"""Text normalisation and token overlap for answer scoring: our normalisation, the paper's
(SQuAD) one, token F1, and the phrase score of fuzzy answers (evaluators/scorers/answer.py says
how they are used)."""

from __future__ import annotations

import re
import string
import unicodedata
from collections import Counter
from collections.abc import Callable

from simulator.replies.numbers import spell_digits

from ..facts import UNITS, facts_of, states

_PUNCT = re.compile("[" + re.escape(string.punctuation + "\u2018\u2019\u201c\u201d\u00b4`\u2013\u2014") + "]")
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_SENTENCE = re.compile(r"(?<=[.!?])(?<![ap]\.m\.)\s+|\n+")


def normalise_text(text: str) -> str:
    """Our normalisation for fuzzy answers (the fuzzy rules in evaluators/scorers/answer.py)."""
    text = unicodedata.normalize("NFKC", text or "").lower()
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)
    text = _PUNCT.sub(" ", spell_digits(text).replace("_", " "))
    return " ".join(_ARTICLES.sub(" ", text).split())


def paper_normalise(text: str) -> str:
    """CRMArena's normalisation: lower case, underscores and punctuation to spaces, articles, whitespace."""
    text = (text or "").replace("_", " ").lower()
    exclude = set(string.punctuation + "\u2018\u2019\u00b4`")
    text = "".join(" " if ch in exclude else ch for ch in text)
    return " ".join(_ARTICLES.sub(" ", text).split())


def token_f1(prediction: str, truth: str, normalise: Callable[[str], str] = normalise_text) -> float:
    """Token-level F1 between two texts after `normalise`."""
    pred, gold = normalise(prediction).split(), normalise(truth).split()
    common = sum((Counter(pred) & Counter(gold)).values())
    if not common:
        return 0.0
    precision, recall = common / len(pred), common / len(gold)
    return 2 * precision * recall / (precision + recall)


def contains_tokens(text_tokens: list[str], phrase_tokens: list[str]) -> bool:
    n = len(phrase_tokens)
    return n > 0 and any(text_tokens[i : i + n] == phrase_tokens for i in range(len(text_tokens) - n + 1))


def _share_found(phrase_tokens: list[str], tokens: list[str]) -> float:
    """The share of a phrase's tokens in a sentence that states its facts (fact tokens count as found:
    numbers, unit words and single letters, however the sentence writes them)."""
    words = [t for t in phrase_tokens if not (t[0].isdigit() or len(t) == 1 or t in UNITS)]
    found = sum((Counter(words) & Counter(tokens)).values())
    return (len(phrase_tokens) - len(words) + found) / len(phrase_tokens) if phrase_tokens else 1.0


def phrase_score(reply: str, phrase: str) -> float:
    """The best score of one sentence of the reply for an expected phrase (the fuzzy rules in
    evaluators/scorers/answer.py):
    0 without every hard fact of the phrase, 1 with the phrase contiguous, else the share of the
    phrase's tokens found (phrases with facts) or the token F1 (phrases without)."""
    facts, wanted = facts_of(phrase), normalise_text(phrase).split()
    best = 0.0
    for sentence in (s for s in _SENTENCE.split(reply or "") if s.strip()):
        if facts and not states(facts, sentence):
            continue
        tokens = normalise_text(sentence).split()
        if contains_tokens(tokens, wanted):
            return 1.0
        best = max(best, _share_found(wanted, tokens) if facts else token_f1(sentence, phrase))
    return best
