"""The persona library as package data: the simulated people who pose tasks to the agent.

One YAML file per persona, `<id>.yaml`, whose `pool` field puts it in one of three pools:
`internal` (employees of the company asking about their own org), `consumer` (customers of a
B2C consumer-electronics and home retailer) and `business` (buyers at the client companies of
a B2B seller). A file states who the person is (name, role, description) and how they talk
and share the facts of a task (verbosity, formality, patience, expertise, disclosure style,
typo rate, phrases).
`simulator.users.personas` defines and validates the fields and loads the library.
"""
