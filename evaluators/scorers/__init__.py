"""Scorers: the registry of units that score records and aggregate runs (registry.py), the rules
scorer and its answer metrics (answer.py: exact, fuzzy, workflow, refusal), and the other scorers
(turns, judge, injection, milestones, verdicts, pressure). docs/scorers.md explains the contract."""

from .answer import MODES, SCORER, UNSCORED_TERMINATIONS, final_answer, score_record
from .exact import compat_values
from .fuzzy import FUZZY_THRESHOLD, NAMES_THRESHOLD, UNASKED_FACTS_PER_PHRASE, names_in
from .registry import AnswerMetric, Registry, Scorer, SummaryOptions, default
from .text import normalise_text, paper_normalise, phrase_score, token_f1

__all__ = [
    "FUZZY_THRESHOLD",
    "MODES",
    "NAMES_THRESHOLD",
    "SCORER",
    "UNASKED_FACTS_PER_PHRASE",
    "UNSCORED_TERMINATIONS",
    "AnswerMetric",
    "Registry",
    "Scorer",
    "SummaryOptions",
    "compat_values",
    "default",
    "final_answer",
    "names_in",
    "normalise_text",
    "paper_normalise",
    "phrase_score",
    "score_record",
    "token_f1",
]
