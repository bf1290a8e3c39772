// Issue 48's secrets end to end, for real through the official SDK client, the CLI and a real keychain (the test runs
// under tests/core/secrets/with-keychain): the user allows api.test and stores a token bound to it with
// `llm-sandbox secrets set`; the model's execute_code asks for api.test, fetches JSON over HTTPS with the token's
// placeholder in its Authorization header and draws a chart. The server answers only the real token, so the chart
// proves the proxy added it. The result's network record names the secret on the request; the token's value is in
// neither the MCP exchange nor the journal. api.test is a container on a network this test creates, at a
// public-looking address, with a certificate made here that the proxy is told to trust (LLM_SANDBOX_PROXY_TRUST).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { connectClient, engineCli, removeApiServer, serverBinary, startApiServer } from './helpers.mjs';

const CALL_OPTIONS = { timeout: 600000, resetTimeoutOnProgress: true };
const NETWORK = `llmsb-sdk-secrettest-${engineCli}`;
const SUBNET = engineCli === 'podman' ? '198.18.4' : '198.18.3';
const TOKEN = `tok-${randomBytes(16).toString('hex')}`;

// Rates over HTTPS, for the right token only.
const SERVER_CODE = `
import http.server, json, os, ssl
class Rates(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.headers.get('Authorization') != 'Bearer ' + os.environ['TOKEN']:
            self.send_response(401)
            self.send_header('Content-Length', '0')
            self.end_headers()
            return
        body = json.dumps({'rates': [1.08, 1.09, 1.07, 1.1, 1.12]}).encode()
        self.send_response(200)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(('', 443), Rates)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain('/tmp/tls.pem')
server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()
`;

const CODE = `
import json, os, urllib.request
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
request = urllib.request.Request('https://api.test/rates.json',
                                 headers={'Authorization': 'Bearer ' + os.environ['API_TOKEN']})
rates = json.load(urllib.request.urlopen(request, timeout=30))['rates']
plt.plot(range(len(rates)), rates)
plt.title('EUR/USD')
plt.savefig(os.path.join(os.environ['LLM_SANDBOX_OUTPUT_DIR'], 'rates.png'), dpi=40)
print(len(rates), 'rates, last', rates[-1], 'with', os.environ['API_TOKEN'][:22])
`;

describe('secrets', () => {
    let session;
    let folder;
    const env = {};

    before(async () => {
        folder = mkdtempSync(path.join(tmpdir(), 'llmsb-secrets-'));
        const pem = path.join(folder, 'tls.pem');
        execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
            '-days', '2', '-subj', '/CN=api.test', '-addext', 'subjectAltName=DNS:api.test', '-addext',
            'basicConstraints=critical,CA:FALSE', '-addext', 'keyUsage=critical,digitalSignature', '-addext',
            'extendedKeyUsage=serverAuth', '-keyout', pem, '-out', pem], { stdio: 'ignore' });
        const certificate = path.join(folder, 'api.test.pem');
        execFileSync('openssl', ['x509', '-in', pem, '-out', certificate]);
        Object.assign(env, {
            LLM_SANDBOX_NETWORK_ALLOW: 'api.test',
            LLM_SANDBOX_PROXY_NETWORK: NETWORK,
            LLM_SANDBOX_PROXY_TRUST: certificate,
            LLM_SANDBOX_SECRETS_FILE: path.join(folder, 'secrets.json'),
            LLM_SANDBOX_JOURNAL: path.join(folder, 'journal.sqlite'),
        });
        // The user stores the token, typed on stdin, as a person would pipe it.
        execFileSync(serverBinary, ['secrets', 'set', 'API_TOKEN', '--host', 'api.test'],
            { input: `${TOKEN}\n`, env: { ...process.env, ...env }, stdio: ['pipe', 'ignore', 'ignore'] });
        const listed = execFileSync(serverBinary, ['secrets', 'list', '--json'],
            { encoding: 'utf8', env: { ...process.env, ...env } });
        assert.equal(JSON.parse(listed)[0].name, 'API_TOKEN');
        assert.ok(!listed.includes(TOKEN), 'the list never shows the value');

        startApiServer(NETWORK, SUBNET, SERVER_CODE, ['-e', `TOKEN=${TOKEN}`, '-v', `${pem}:/tmp/tls.pem:ro`]);
        session = await connectClient(env);
    });

    after(async () => {
        await session?.client.close();
        removeApiServer(NETWORK);
        if (folder) {
            rmSync(folder, { recursive: true, force: true });
        }
    });

    test('the proxy adds the bound token; the sandbox, the exchange and the journal never hold it', async () => {
        const result = await session.client.callTool(
            { name: 'execute_code', arguments: { code: CODE, network: ['api.test'] } },
            undefined,
            CALL_OPTIONS,
        );
        assert.notEqual(result.isError, true, result.content?.[0]?.text);
        assert.equal(result.structuredContent.stdout, '5 rates, last 1.12 with LLMSANDBOX_PLACEHOLDER\n',
            result.structuredContent.stderr);
        assert.ok(result.content.some((item) => item.type === 'image'), 'the chart comes back');
        const requests = result.structuredContent.network.connections.filter((each) => each.method === 'GET');
        assert.equal(requests.length, 1, JSON.stringify(result.structuredContent.network));
        assert.equal(requests[0].host, 'api.test');
        assert.equal(requests[0].status, 200);
        assert.equal(requests[0].secret, 'API_TOKEN', 'the record names the secret');

        // The journal's record, written a moment after the reply.
        const show = () => JSON.parse(execFileSync(serverBinary, ['show', result.structuredContent.run_id, '--json'],
            { encoding: 'utf8', env: { ...process.env, ...env } }));
        let run = show();
        for (let i = 0; i < 100 && !(run.mcp && run.network); ++i) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            run = show();
        }
        assert.equal(run.network?.connections.find((each) => each.method === 'GET')?.secret, 'API_TOKEN',
            JSON.stringify(run.network));
        assert.ok(!JSON.stringify(result).includes(TOKEN), 'the reply never holds the value');
        assert.ok(run.mcp, 'the journal keeps the exchange of the call');
        assert.ok(!JSON.stringify(run).includes(TOKEN), 'nor the run as the journal has it, its exchange included');
        for (const file of ['journal.sqlite', 'journal.sqlite-wal']) {
            try {
                assert.ok(!readFileSync(path.join(folder, file)).includes(TOKEN), `nor ${file}`);
            } catch (error) {
                if (error.code !== 'ENOENT') throw error;
            }
        }
        assert.ok(!readFileSync(env.LLM_SANDBOX_SECRETS_FILE).includes(TOKEN), 'nor the secrets file');
        assert.ok(!session.stderr().includes(TOKEN), 'nor the server\'s log');
    });
});
