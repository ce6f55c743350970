"""Scoring: deterministic scorers (reading replies with simulator.replies), the LLM observer, leak
detection, reports.

Reads finished transcripts and the org, never a live conversation (built in issue 5).
"""
