"""The task catalog: task specs (read from scenarios/ and validated in `spec`), one instance
generator per task type (`families/`) whose answers are computed from the org by SQL, the
difficulty levels, the balancing driver (`generate`), the instance files, the oracle's tool
calls, and the traits of each answer metric (`metrics`).
"""
