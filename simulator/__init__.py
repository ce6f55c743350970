"""CRMArena-Sim: an offline CRM benchmark and multi-turn simulation framework for LLM agents."""

__version__ = "0.1.0"
