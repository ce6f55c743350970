"""Servers that put the embedded org in front of agents from other stacks: a Salesforce REST API
subset (`salesforce_rest`), the CRM tools over MCP (`mcp_tools`), and the thread that runs either
inside a process (`background`). They need the `serve` extra."""
