"""Scoring: answer extraction, deterministic scorers, the LLM observer, leak detection, reports.

Reads finished transcripts and the org, never a live conversation (built in issue 5).
"""
