"""The official Python SDK 2.x `Client` against `gatehouse gateway`.

Usage: python gateway_client.py URL TOOL ARGUMENTS_JSON DENIED_TOOL

Lists every tool (following nextCursor), calls TOOL with ARGUMENTS_JSON, then
tries DENIED_TOOL, and prints one JSON document on stdout:
  {"protocolVersion", "tools": [names], "call": CallToolResult, "denied": error text or null}
The Rust test (tests/api/gateway.rs) checks it against the approvals.
"""

import asyncio
import json
import sys

from mcp import Client


async def main(url, tool, arguments, denied_tool):
    async with Client(url) as client:
        names, cursor = [], None
        for _ in range(1000):
            page = await client.list_tools(cursor=cursor)
            names.extend(t.name for t in page.tools)
            cursor = page.next_cursor
            if not cursor:
                break
        call = await client.call_tool(tool, json.loads(arguments))
        denied = None
        try:
            result = await client.call_tool(denied_tool, {})
            if result.is_error:
                denied = "isError: " + json.dumps(result.model_dump(mode="json", by_alias=True, exclude_none=True))
        except Exception as error:  # the gateway answers a JSON-RPC error
            denied = str(error)
        out = {
            "protocolVersion": client.session.protocol_version,
            "tools": names,
            "call": call.model_dump(mode="json", by_alias=True, exclude_none=True),
            "denied": denied,
        }
    print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:5]))
