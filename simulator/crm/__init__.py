"""The org: a generated Salesforce-style CRM in one SQLite file. `schema` names the objects and
fields (Salesforce's own), `generator` builds an org from a seed, `store` opens it, `soql` and
`sosl` answer the agent's queries as Salesforce would, `session` is one agent's view of an org
(limits, errors, what it asked), `tools` the agent's tool set over a session, `describe` and
`render` what the agent reads back, and `ids` the record Ids. It imports nothing of the run.
"""
