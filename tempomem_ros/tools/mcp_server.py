"""``tempomem mcp STORE``: the agent tools (agent_tools.py) as a Model Context Protocol server over stdio.

Why MCP: language-model agents on top of a robot (ReMEmbR, RAI and the like) discover and call tools through
it; one server lists every operator with its JSON Schema and answers with the ids to cite. Read-only: the
store is opened read-only (a mutation raises ReadOnlyError), so an agent cannot change the memory; the node
may keep writing the same file (SQLite WAL). Each call runs in a worker thread (the memory is synchronous).
The result is the tool's JSON, as structured content and as its text.
"""

from __future__ import annotations

import json

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server

from tempomem_ros.core.memory import Memory
from tempomem_ros.tools import agent_tools

ANNOTATIONS = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                                    open_world_hint=False)


def build_server(memory: Memory) -> Server:
    """An MCP server whose tools answer from ``memory`` (open it read-only)."""
    tools = [types.Tool(name=s["name"], description=s["description"], input_schema=s["inputSchema"],
                        annotations=ANNOTATIONS) for s in agent_tools.tool_specs()]

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx, params) -> types.CallToolResult:
        out = await anyio.to_thread.run_sync(agent_tools.call, memory, params.name, params.arguments)
        text = json.dumps(out, sort_keys=True, default=str)
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=out,
                                    is_error=not out.get("ok", False))

    return Server("tempomem", version="1", instructions=(
        "Read-only spatio-temporal object memory of a robot. Ask with 'ask' or call an operator; cite the ids in "
        "'cite'. " + agent_tools.NOTICE), on_list_tools=list_tools, on_call_tool=call_tool)


async def serve_stdio(path: str) -> None:
    from mcp.server.stdio import stdio_server

    memory = Memory.open(path, readonly=True)
    try:
        server = build_server(memory)
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
    finally:
        memory.close()
