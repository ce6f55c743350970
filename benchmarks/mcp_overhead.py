"""Per-call cost of the CRM tools over MCP (the tool gateway, the SDK's streamable HTTP client) against
in-process calls: `python benchmarks/mcp_overhead.py ORG.db` (medians of 200 soql calls)."""

import asyncio
import statistics
import sys
import time

import httpx
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from simulator.crm.session import OrgSession
from simulator.crm.store import Org
from simulator.crm.tools import CrmTools
from simulator.servers.mcp_tools import ToolGateway

Q = "SELECT Id, Subject FROM Case WHERE Status = 'New' LIMIT 5"
tools = CrmTools(OrgSession(Org(sys.argv[1])))
inproc = []
for _ in range(200):
    t = time.perf_counter()
    tools.soql(Q)
    inproc.append(time.perf_counter() - t)
gw = ToolGateway.shared()
token = gw.bind(tools)


async def go():
    out = []
    async with (
        httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http,
        streamable_http_client(gw.url, http_client=http) as (r, w, _),
        ClientSession(r, w) as s,
    ):
        await s.initialize()
        for _ in range(200):
            t = time.perf_counter()
            await s.call_tool("soql", {"query": Q})
            out.append(time.perf_counter() - t)
    return out


mcp = asyncio.run(go())
print(
    f"in-process soql median {statistics.median(inproc) * 1000:.2f} ms; over MCP (SDK client, gateway) median {statistics.median(mcp) * 1000:.2f} ms"
)
