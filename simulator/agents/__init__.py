"""Agents under test: the built-in function-calling and ReAct agents over a model, the oracle
(briefed with the answer, for calibration) and the baselines, a remote agent behind HTTP, and
plug-in agents loaded by `module:Class`. Each takes one conversation turn at a time through the
interface in `base`; `prompts` builds their system prompts from the templates.
"""
