"""Simulated people: the persona library (`personas`), the tactics that shape how a person
gives the task in pieces (`tactics`), what may be disclosed when (`disclosure`), and the people
themselves: scripted (deterministic, offline) and LLM-played, behind one interface (`base`).
"""
