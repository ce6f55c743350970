"""CRMArena-Sim: an offline CRM benchmark and multi-turn simulation framework for LLM agents.

One subpackage per concern: `crm` (the org: schema, generator, SQLite store, SOQL/SOSL, tools),
`tasks` (task types, instances and their answers), `users` (personas and simulated people),
`agents` (agents under test), `replies` (reading what an agent said), `records` (the typed
records of a run), `prompts` (the prompt templates), `runs` (configs -> plan -> episodes -> the
run folder), `executors` (where episodes are played), `models` (model clients and everything
between a caller and a model server), `servers` (the org and its tools served to outside agents)
and `infra` (errors, secrets, logging, input files). `cli` is the `crmarena` command and
`inspect_task` the Inspect AI task.
"""

__version__ = "0.1.0"
