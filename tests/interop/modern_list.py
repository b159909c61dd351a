"""The official Python SDK 2.x `Client`'s own listing of a server, as JSON on stdout.

Usage: python modern_list.py URL. Every page of tools, resources, resource
templates and prompts is followed; the discovery interop test compares a
Gatehouse crawl of the same server with this, item by item.
"""

import asyncio
import json
import sys

from mcp import Client


async def every_page(fetch, key):
    items, cursor = [], None
    while True:
        page = await fetch(cursor=cursor)
        items.extend(getattr(page, key))
        cursor = page.next_cursor
        if not cursor:
            return items


def dump(item):
    return item.model_dump(by_alias=True, mode="json", exclude_none=True)


async def main(url):
    async with Client(url) as client:
        listing = {
            "protocolVersion": client.session.protocol_version,
            "instructions": client.instructions,
            "tools": [dump(t) for t in await every_page(client.list_tools, "tools")],
            "resources": [dump(r) for r in await every_page(client.list_resources, "resources")],
            "resourceTemplates": [
                dump(t) for t in await every_page(client.list_resource_templates, "resource_templates")
            ],
            "prompts": [dump(p) for p in await every_page(client.list_prompts, "prompts")],
        }
    print(json.dumps(listing))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
