"""Reading an agent's replies: values of an answer kind (extract), refusals, number and text
normalisation (numbers), and what a reply does (categories). Shared by the simulation (the
episode loop and the scripted person ask whether a reply is an answer attempt) and by the
evaluators (the scorers, leak detection, turn categories)."""
