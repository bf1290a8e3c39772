// Plays an assistant: connects to `llm-sandbox --mcp` with the official SDK client (as "Claude Desktop"
// would, under its own clientInfo) and calls execute_code once per argument (JSON {code, language}).
// Used by scripts/screenshots and the GUI tests to put a real MCP run into the journal.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { serverBinary } from './helpers.mjs';

const transport = new StdioClientTransport({ command: serverBinary, args: ['--mcp'], env: { ...process.env } });
const client = new Client({ name: process.env.MCP_CLIENT_NAME ?? 'claude-ai', version: '0.14.1' });
await client.connect(transport);
for (const argument of process.argv.slice(2)) {
    const result = await client.callTool({ name: 'execute_code', arguments: JSON.parse(argument) });
    process.stdout.write(`${result.content[0].text}\n`);
}
await client.close();
