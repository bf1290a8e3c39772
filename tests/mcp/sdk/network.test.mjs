// Issue 48 end to end, for real through the official SDK client: the user allows api.test (LLM_SANDBOX_NETWORK_ALLOW,
// as an assistant's MCP config sets it); the model's execute_code asks for it (network: ["api.test"]), fetches JSON
// from it and draws a chart; the result's network record lists the request; asking for a host beyond the user's list
// is a tool error that names what is allowed. api.test is a container on a network this test creates (its engine's
// CLI: docker, or podman with BACKEND=podman), at a public-looking address (198.18.0.0/15, the benchmark range), which
// the run's egress proxy joins. Needs a container engine with the images.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';

import { connectClient, engineCli, removeApiServer, serverBinary, startApiServer } from './helpers.mjs';

const CALL_OPTIONS = { timeout: 600000, resetTimeoutOnProgress: true };
const NETWORK = `llmsb-sdk-nettest-${engineCli}`;
const SUBNET = engineCli === 'podman' ? '198.18.2' : '198.18.1';

// Rates by day, as JSON, for every GET.
const SERVER_CODE = `
import http.server, json
class Rates(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({'path': self.path, 'rates': [1.08, 1.09, 1.07, 1.1, 1.12]}).encode()
        self.send_response(200)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
http.server.ThreadingHTTPServer(('', 80), Rates).serve_forever()
`;

const CODE = `
import json, os, urllib.request
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
rates = json.load(urllib.request.urlopen('http://api.test/rates.json', timeout=30))['rates']
plt.plot(range(len(rates)), rates)
plt.title('EUR/USD')
plt.savefig(os.path.join(os.environ['LLM_SANDBOX_OUTPUT_DIR'], 'rates.png'), dpi=40)
print(len(rates), 'rates, last', rates[-1])
`;

describe('network', () => {
    let session;

    before(async () => {
        startApiServer(NETWORK, SUBNET, SERVER_CODE);
        session = await connectClient({ LLM_SANDBOX_NETWORK_ALLOW: 'api.test', LLM_SANDBOX_PROXY_NETWORK: NETWORK });
    });

    after(async () => {
        await session?.client.close();
        removeApiServer(NETWORK);
    });

    test('the model asks for an allowed host, fetches its data and draws it; the request is on record', async () => {
        const { tools } = await session.client.listTools();
        const execute = tools.find((tool) => tool.name === 'execute_code');
        assert.ok(execute.inputSchema.properties.network, 'offered where the user allows some network');
        assert.match(execute.inputSchema.properties.network.description, /api\.test/);

        const result = await session.client.callTool(
            { name: 'execute_code', arguments: { code: CODE, network: ['api.test'] } },
            undefined,
            CALL_OPTIONS,
        );
        assert.notEqual(result.isError, true, result.content?.[0]?.text);
        assert.equal(result.structuredContent.stdout, '5 rates, last 1.12\n', result.structuredContent.stderr);
        assert.ok(result.content.some((item) => item.type === 'image'), 'the chart comes back');
        const { network } = result.structuredContent;
        assert.deepEqual(network.allowed, ['api.test']);
        assert.equal(network.connections.length, 1, JSON.stringify(network));
        const [request] = network.connections;
        assert.equal(request.host, 'api.test');
        assert.equal(request.port, 80);
        assert.equal(request.method, 'GET');
        assert.equal(request.allowed, true);
        assert.equal(request.status, 200);
        assert.equal(request.address, `${SUBNET}.10`);
        assert.ok(request.bytes_in > 50 && request.bytes_out > 20, JSON.stringify(request));

        // The journal's record, as history --json and the app read it (written a moment after the reply).
        const show = () => JSON.parse(execFileSync(serverBinary, ['show', result.structuredContent.run_id, '--json'],
            { encoding: 'utf8' }));
        let run = show();
        for (let i = 0; i < 100 && !run.network; ++i) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            run = show();
        }
        assert.deepEqual(run.network?.connections.map((each) => each.host), ['api.test'], JSON.stringify(run));
    });

    test('a host beyond the user\'s list is a tool error naming what is allowed; no network is the default', async () => {
        const beyond = await session.client.callTool(
            { name: 'execute_code', arguments: { code: 'print(1)', network: ['example.org'] } },
            undefined,
            CALL_OPTIONS,
        );
        assert.equal(beyond.isError, true);
        assert.match(beyond.content[0].text, /may not reach example\.org.*allows: api\.test/s);

        const offline = await session.client.callTool(
            { name: 'execute_code', arguments: { code: CODE } },
            undefined,
            CALL_OPTIONS,
        );
        assert.notEqual(offline.structuredContent.exit_code, 0, 'without asking, no network');
        assert.equal(offline.structuredContent.network, undefined, 'and the result says nothing of one');
    });
});
