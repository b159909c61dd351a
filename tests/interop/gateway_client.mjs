// The official TypeScript SDK `Client` against `gatehouse gateway`.
//
// Usage: node gateway_client.mjs URL TOOL ARGUMENTS_JSON DENIED_TOOL
//
// Lists every tool (following nextCursor), calls TOOL with ARGUMENTS_JSON, then
// tries DENIED_TOOL, and prints one JSON document on stdout:
//   {"protocolVersion", "tools": [names], "call": CallToolResult, "denied": error text or null}
// The Rust test (tests/api/gateway.rs) checks it against the approvals.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, tool, args, deniedTool] = process.argv.slice(2);
const client = new Client({ name: "gatehouse-gateway-interop", version: "1.0.0" });
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);

const names = [];
let cursor;
for (let page = 0; page < 1000; page++) {
  const result = await client.listTools(cursor === undefined ? {} : { cursor });
  names.push(...result.tools.map((t) => t.name));
  cursor = result.nextCursor;
  if (cursor === undefined) break;
}
const call = await client.callTool({ name: tool, arguments: JSON.parse(args) });
let denied = null;
try {
  const result = await client.callTool({ name: deniedTool, arguments: {} });
  if (result.isError) denied = "isError: " + JSON.stringify(result);
} catch (error) {
  denied = String(error?.message ?? error);
}
process.stdout.write(
  JSON.stringify({ protocolVersion: transport.protocolVersion ?? null, tools: names, call, denied }) + "\n",
);
await client.close();
process.exit(0);
