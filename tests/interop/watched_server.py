"""An `MCPServer` from the official Python SDK 2.x (MCP 2026-07-28) whose tool
list changes while it runs, announcing it on its `subscriptions/listen`
streams (`notifications/tools/list_changed`, MCP 2026-07-28, Subscriptions).

The monitor's live-watching test (tests/api/watch.rs) holds the stream open
through Gatehouse and expects a rescan within 5 s of a change.

`POST /change?count=N` adds one tool and publishes N list-changed events (a
burst when N > 1); `GET /health` answers once the server runs.

Run: PORT=8000 python watched_server.py   (serves http://127.0.0.1:$PORT/mcp)
"""

import os

import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp.server.subscriptions import ToolsListChanged
from starlette.requests import Request
from starlette.responses import JSONResponse

mcp = MCPServer("gatehouse-watched", version="1.0.0")
added = 0


@mcp.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@mcp.custom_route("/change", methods=["POST"])
async def change(request: Request) -> JSONResponse:
    global added
    count = int(request.query_params.get("count", "1"))
    added += 1
    name = f"extra_{added}"

    def extra(text: str) -> str:
        return text

    mcp.add_tool(extra, name=name, description="Repeat a text.")
    for _ in range(count):
        await mcp._subscriptions.publish(ToolsListChanged())
    return JSONResponse({"added": name, "published": count})


@mcp.custom_route("/health", methods=["GET"])
async def health(request: Request) -> JSONResponse:
    return JSONResponse({"ok": True})


if __name__ == "__main__":
    uvicorn.run(mcp.streamable_http_app(), host="127.0.0.1", port=int(os.environ.get("PORT", "8000")), log_level="info")
