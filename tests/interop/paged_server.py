"""A small FastMCP server (official Python SDK) that serves its tools over more than one page.

FastMCP lists every tool in one answer, so the low-level `tools/list` handler is
replaced by one that pages through the same tools, three at a time, with an
opaque cursor. The discovery interop test crawls it over Streamable HTTP and
checks that every page was followed.

Run: PORT=8000 python paged_server.py   (serves http://127.0.0.1:$PORT/mcp)
"""

import os

from mcp import types
from mcp.server.fastmcp import FastMCP

PAGE_SIZE = 3

mcp = FastMCP(
    "gatehouse-interop-paged",
    instructions="A paged test server for the Gatehouse scanner.",
    host="127.0.0.1",
    port=int(os.environ.get("PORT", "8000")),
)


@mcp.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@mcp.tool()
def subtract(a: int, b: int) -> int:
    """Subtract b from a."""
    return a - b


@mcp.tool()
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


@mcp.tool()
def upper(text: str) -> str:
    """Upper-case a text."""
    return text.upper()


@mcp.tool()
def lower(text: str) -> str:
    """Lower-case a text."""
    return text.lower()


@mcp.tool()
def reverse(text: str) -> str:
    """Reverse a text."""
    return text[::-1]


@mcp.tool()
def length(text: str) -> int:
    """Count the characters of a text."""
    return len(text)


@mcp.prompt()
def greet(name: str) -> str:
    """Greet someone by name."""
    return f"Hello, {name}!"


async def paged_tools(request: types.ListToolsRequest) -> types.ListToolsResult:
    """Serve FastMCP's tools PAGE_SIZE at a time; the cursor is the next index, as text."""
    tools = await mcp.list_tools()
    cursor = request.params.cursor if request.params else None
    start = int(cursor) if cursor else 0
    end = start + PAGE_SIZE
    return types.ListToolsResult(
        tools=tools[start:end],
        nextCursor=str(end) if end < len(tools) else None,
    )


mcp._mcp_server.list_tools()(paged_tools)

if __name__ == "__main__":
    mcp.run(transport="streamable-http")
