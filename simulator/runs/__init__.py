"""The run pipeline: a run config (`config`) becomes a plan of episodes (`plan`), each episode is
one conversation between a simulated person and the agent under test (`episode`), played by an
executor and written the moment it finishes to the run folder (`transcript`), which one writer
holds at a time (`lock`); `run` drives it all (`crmarena run`), and `analysis` reads a
finished run back as tables and compares two runs.
"""
