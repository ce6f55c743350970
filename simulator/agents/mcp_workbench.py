"""The function-calling agent's tools over MCP (`tools: mcp`): the episode's CrmTools bound to the
process's tool gateway and reached through autogen's McpWorkbench, wrapped so that the model sees
the same tools as in-process (no describe) and the same one-call-per-step rule."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from autogen_core.tools import TextResultContent, ToolResult, Workbench

from ..crm.tools import CrmTools


class GatewayWorkbench(Workbench):
    """`names` of the gateway's tools on `tools`; a call that `admit()` refuses is not sent and returns
    `refusal` as an error result. Binds at construction; unbinds at stop()."""

    def __init__(self, tools: CrmTools, names: tuple[str, ...], admit: Callable[[], bool], refusal: str):
        from autogen_ext.tools.mcp import McpWorkbench, StreamableHttpServerParams

        from ..servers.mcp_tools import ToolGateway

        self._gateway = ToolGateway.shared()
        self._token = self._gateway.bind(tools)
        self._inner = McpWorkbench(
            StreamableHttpServerParams(url=self._gateway.url, headers={"Authorization": f"Bearer {self._token}"})
        )
        self._names, self._admit, self._refusal = names, admit, refusal
        self._listed: list | None = None
        self._started = False

    async def list_tools(self) -> list:
        """The tools named, listed by the server once (autogen lists them before every call)."""
        if self._listed is None:
            self._listed = [t for t in await self._inner.list_tools() if t["name"] in self._names]
        return self._listed

    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        cancellation_token: Any = None,
        call_id: str | None = None,
    ) -> ToolResult:
        if not self._admit():
            return ToolResult(name=name, result=[TextResultContent(content=self._refusal)], is_error=True)
        return await self._inner.call_tool(name, arguments, cancellation_token, call_id)

    async def start(self) -> None:
        await self._inner.start()
        self._started = True

    async def stop(self) -> None:
        try:
            if self._started:
                self._started = False
                await self._inner.stop()
        finally:
            self._gateway.unbind(self._token)

    async def reset(self) -> None:
        await self._inner.reset()

    async def save_state(self) -> Mapping[str, Any]:
        return await self._inner.save_state()

    async def load_state(self, state: Mapping[str, Any]) -> None:
        await self._inner.load_state(state)
