// The client command the MCP conformance runner starts for each client
// scenario: `node gatehouse-client.mjs SERVER_URL`. The runner passes the
// scenario's name in MCP_CONFORMANCE_SCENARIO and its credentials, if any, in
// MCP_CONFORMANCE_CONTEXT (JSON: client_id with client_secret, or
// private_key_pem). This wrapper turns them into the flags a person would use:
//
//   gatehouse scan URL --format json --client-id ID --client-secret-stdin   (secret on stdin)
//   gatehouse scan URL --format json --client-id ID --client-key FILE       (PEM in a 0600 file)
//
// and exits 0 when the scan ran (with or without findings), else with
// gatehouse's own code. GATEHOUSE_BIN names the binary under test.
//
// Scenario sse-retry tests what happens on a tools/call, which a scan never
// sends (a crawl only lists): after the scan, the first tool its JSON report
// lists is called with `gatehouse call URL TOOL`, whose exit code (0 on a
// result) is then the wrapper's.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const url = process.argv[process.argv.length - 1];
const bin = process.env.GATEHOUSE_BIN;
if (!bin || !url) {
  console.error("usage: GATEHOUSE_BIN=… node gatehouse-client.mjs SERVER_URL");
  process.exit(2);
}
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}");
const args = ["scan", url, "--format", "json"];
let input;
let keyDir;
if (context.client_id) {
  args.push("--client-id", context.client_id);
  if (context.private_key_pem) {
    keyDir = mkdtempSync(join(tmpdir(), "gatehouse-conformance-"));
    const keyFile = join(keyDir, "client.pem");
    writeFileSync(keyFile, context.private_key_pem, { mode: 0o600 });
    args.push("--client-key", keyFile);
  } else if (context.client_secret) {
    args.push("--client-secret-stdin");
    input = context.client_secret + "\n";
  }
}
// The runner's servers listen on localhost: allow private addresses for this scan only.
const env = { ...process.env, GATEHOUSE_SCAN_ALLOW_PRIVATE: "1" };
const callTool = process.env.MCP_CONFORMANCE_SCENARIO === "sse-retry";
// The report goes to the runner's log as before; for sse-retry it is also read here.
const run = spawnSync(bin, args, {
  input,
  env,
  stdio: ["pipe", callTool ? "pipe" : "inherit", "inherit"],
  maxBuffer: 64 << 20,
});
if (keyDir) rmSync(keyDir, { recursive: true, force: true });
if (run.error) {
  console.error(`gatehouse-client: ${run.error.message}`);
  process.exit(2);
}
// 1 means "high findings": the scan itself succeeded.
const scanned = run.status === 0 || run.status === 1;
if (!callTool || !scanned) process.exit(scanned ? 0 : run.status ?? 2);

process.stdout.write(run.stdout);
const tool = JSON.parse(run.stdout.toString("utf8")).snapshot?.tools?.[0]?.name;
if (!tool) {
  console.error("gatehouse-client: the scan listed no tool to call");
  process.exit(2);
}
const call = spawnSync(bin, ["call", url, tool], { env, stdio: ["ignore", "inherit", "inherit"] });
if (call.error) {
  console.error(`gatehouse-client: ${call.error.message}`);
  process.exit(2);
}
process.exit(call.status ?? 2);
