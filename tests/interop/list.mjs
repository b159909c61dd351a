// Reference listing for the discovery interop tests.
//
// Connects to an MCP server with the official TypeScript SDK's `Client`, lists
// every category the server declared (following nextCursor), and prints one
// JSON document on stdout:
//   {serverInfo, capabilities, instructions, tools, resources, resourceTemplates, prompts}
// The Rust test crawls the same server with `gatehouse::discovery::crawl` and
// compares item by item.
//
// Usage: node list.mjs URL streamable-http|sse
//        node list.mjs stdio COMMAND [ARG…]   (starts COMMAND as a stdio server;
//        the variables of GATEHOUSE_STDIO_ENV, a JSON object, are its environment)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, kind] = process.argv.slice(2);
const stdio = url === "stdio";
if (!url || (!stdio && !["streamable-http", "sse"].includes(kind))) {
  console.error("usage: node list.mjs URL streamable-http|sse | node list.mjs stdio COMMAND [ARG…]");
  process.exit(2);
}

// Pages are capped so a misbehaving server cannot make the reference hang.
const MAX_PAGES = 1000;

async function all(list, key) {
  const items = [];
  let cursor;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await list(cursor === undefined ? {} : { cursor });
    items.push(...result[key]);
    cursor = result.nextCursor;
    if (cursor === undefined) return items;
  }
  throw new Error(`${key}: more than ${MAX_PAGES} pages`);
}

const transport = stdio
  ? new StdioClientTransport({
      command: process.argv[3],
      args: process.argv.slice(4),
      env: JSON.parse(process.env.GATEHOUSE_STDIO_ENV ?? "{}"),
      stderr: "ignore",
    })
  : kind === "sse"
    ? new SSEClientTransport(new URL(url))
    : new StreamableHTTPClientTransport(new URL(url));
const client = new Client({ name: "gatehouse-interop-reference", version: "1.0.0" });
await client.connect(transport);

const capabilities = client.getServerCapabilities() ?? {};
const out = {
  serverInfo: client.getServerVersion(),
  capabilities,
  instructions: client.getInstructions() ?? null,
  tools: capabilities.tools ? await all((p) => client.listTools(p), "tools") : [],
  resources: capabilities.resources ? await all((p) => client.listResources(p), "resources") : [],
  resourceTemplates: capabilities.resources
    ? await all((p) => client.listResourceTemplates(p), "resourceTemplates")
    : [],
  prompts: capabilities.prompts ? await all((p) => client.listPrompts(p), "prompts") : [],
};
process.stdout.write(JSON.stringify(out) + "\n");
await client.close();
process.exit(0);
