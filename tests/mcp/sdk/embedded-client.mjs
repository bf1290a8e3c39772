// An MCP client driven by JSON commands on stdin, one per line, for the desktop app's tests: the official SDK's Client
// over StreamableHTTPClientTransport with the URL and token it is given (the app's embedded server), or over
// StdioClientTransport to an `llm-sandbox --mcp` it launches, as an assistant does. Each command is answered on stdout
// by one JSON line with the command's id; a long call does not hold up the commands after it.
//   {"id": 1, "op": "connect", "url": "http://127.0.0.1:PORT/mcp", "token": "..."}  -> {"id": 1, "ok": true, "sessionId"}
//   {"id": 1, "op": "launch", "command": ".../llm-sandbox", "env": {...}}           -> {"id": 1, "ok": true}
//   {"id": 2, "op": "execute", "arguments": {"code": "print(1)"}}                    -> {"id": 2, "ok": true, "text"}
//   {"id": 3, "op": "ping"}                                                          -> {"id": 3, "ok": true}
// A failure answers {"id", "ok": false, "status": HTTP status or null, "error"}.
import { createInterface } from 'node:readline';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

let client;

const newClient = () =>
    new Client({
        name: process.env.MCP_CLIENT_NAME ?? 'embedded-server-test',
        version: process.env.MCP_CLIENT_VERSION ?? '2.0.0',
    });

const operations = {
    async connect({ url, token }) {
        const transport = new StreamableHTTPClientTransport(new URL(url), {
            requestInit: { headers: { Authorization: `Bearer ${token}` } },
            // The event stream ends with the server; the test asks for what it wants to know instead of reconnecting.
            reconnectionOptions: {
                maxRetries: 0,
                initialReconnectionDelay: 1000,
                maxReconnectionDelay: 1000,
                reconnectionDelayGrowFactor: 1,
            },
        });
        client = newClient();
        client.onerror = () => {};
        await client.connect(transport);
        return { sessionId: transport.sessionId };
    },
    async launch({ command, env = {} }) {
        // The server's stderr passes through to this process's: a test that fails shows what the server said.
        const transport = new StdioClientTransport({ command, args: ['--mcp'], env: { ...process.env, ...env } });
        client = newClient();
        client.onerror = () => {};
        await client.connect(transport);
        return {};
    },
    async execute({ arguments: args }) {
        const result = await client.callTool({ name: 'execute_code', arguments: args }, undefined, { timeout: 120000 });
        return { isError: result.isError === true, text: result.content[0]?.text ?? '' };
    },
    async ping() {
        await client.ping();
        return {};
    },
};

const print = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) {
        continue;
    }
    const command = JSON.parse(line);
    operations[command.op](command).then(
        (result) => print({ id: command.id, ok: true, ...result }),
        (error) => print({ id: command.id, ok: false, status: error?.code ?? null, error: String(error?.message ?? error) }),
    );
}
process.exit(0);
