"""An `MCPServer` from the official Python SDK 2.x, which serves MCP revision 2026-07-28.

The discovery interop test crawls it and compares the crawl with what the SDK's
own `Client` lists (`modern_list.py`). With `--modern-only` it sits behind a
front that refuses `initialize` the way a server speaking only 2026-07-28 does
(a 400 naming the versions it supports, Versioning §Backward Compatibility), so
a crawler that falls back to the handshake cannot crawl it.

Run: PORT=8000 python modern_server.py [--modern-only]   (serves http://127.0.0.1:$PORT/mcp)
"""

import json
import os
import sys

import uvicorn
from mcp.server.mcpserver import MCPServer

mcp = MCPServer(
    "gatehouse-interop-modern",
    instructions="A modern test server for the Gatehouse scanner.",
    version="2.3.0-test",
)


@mcp.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@mcp.tool()
def echo(text: str) -> str:
    """Repeat a text."""
    return text


@mcp.prompt()
def greet(name: str) -> str:
    """Greet someone by name."""
    return f"Hello, {name}!"


@mcp.resource("config://app", name="app-config", description="The application's configuration.")
def app_config() -> str:
    return "{}"


def refuse_initialize(app):
    """ASGI middleware: a 400 without a modern error body for every `initialize` POST."""

    async def front(scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST":
            return await app(scope, receive, send)
        chunks = []
        more = True
        while more:
            message = await receive()
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        try:
            method = json.loads(body).get("method")
        except (ValueError, AttributeError):
            method = None
        if method == "initialize":
            answer = json.dumps(
                {"jsonrpc": "2.0", "id": None,
                 "error": {"code": -32600, "message": "initialize is not supported; this server speaks 2026-07-28"}}
            ).encode()
            await send({"type": "http.response.start", "status": 400,
                        "headers": [(b"content-type", b"application/json")]})
            return await send({"type": "http.response.body", "body": answer})
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await app(scope, replay, send)

    return front


if __name__ == "__main__":
    app = mcp.streamable_http_app()
    if "--modern-only" in sys.argv[1:]:
        app = refuse_initialize(app)
    uvicorn.run(app, host="127.0.0.1", port=int(os.environ.get("PORT", "8000")), log_level="info")
