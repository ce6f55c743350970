"""Agents under test: function-calling, ReAct text protocol, the oracle, and plug-ins."""
