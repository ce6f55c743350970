"""Model access: everything between a caller (agent, simulated person, judge) and a model server.
`clients` turns model specs into autogen chat clients with retries, limits, usage and cost;
`chat_completions` is the built-in OpenAI-compatible client over its own lean HTTP transport
(`http_transport`); `completions` reads what every chat completion holds; `calls` is what every
model caller shares (usage per call, errors); `ratelimit` shares request budgets across processes;
`cache` keeps replies on disk; `local` serves the offline local model; `probe` measures a server.
"""
