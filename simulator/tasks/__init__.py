"""The task catalog: task specs (scenarios/), instance generators with computed answers, the oracle."""
