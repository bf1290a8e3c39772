// Protocol revision 2026-07-28 (no handshake: each request carries its version and the client's capabilities in
// _meta) over stdio and Streamable HTTP, with the request/response examples of the specification
// (docs/specification/2026-07-28: server/discover.mdx, basic/versioning.mdx, basic/transports/streamable-http.mdx),
// beside a 2025-11-25 session on the same server. Every message the server sends is checked against the schema of
// the revision its request spoke (schema.mjs). Needs no container engine: only the language tools run.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';

import { initializeRequest, rawSession, startHttpServer, within } from './helpers.mjs';
import { MessageLog, STATELESS } from './schema.mjs';

// The _meta of the specification's examples.
const META = {
    'io.modelcontextprotocol/protocolVersion': STATELESS,
    'io.modelcontextprotocol/clientInfo': { name: 'ExampleClient', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
};

// server/discover.mdx, "Request".
const DISCOVER = { jsonrpc: '2.0', id: 'discover-1', method: 'server/discover', params: { _meta: META } };

const toolsList = (id) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: META } });
const toolsCall = (id, name, args, meta = META) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, _meta: meta },
});
// basic/versioning.mdx: the client asks for a version the server does not have.
const unsupportedVersion = (id) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/list',
    params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } },
});

function checkDiscoverResult(answer) {
    assert.equal(answer.id, 'discover-1');
    const { result } = answer;
    assert.equal(result.resultType, 'complete');
    assert.deepEqual(result.supportedVersions, [STATELESS]);
    assert.ok(result.capabilities.tools);
    assert.ok(result.capabilities.resources);
    assert.equal(result._meta['io.modelcontextprotocol/serverInfo'].name, 'llm-sandbox');
    assert.equal(typeof result._meta['io.modelcontextprotocol/serverInfo'].version, 'string');
    assert.equal(typeof result.instructions, 'string');
    assert.ok(Number.isInteger(result.ttlMs) && result.ttlMs >= 0);
    assert.equal(result.cacheScope, 'public');
}

function checkToolsList(answer) {
    const { result } = answer;
    assert.equal(result.resultType, 'complete');
    assert.equal(result.cacheScope, 'public');
    assert.ok(Number.isInteger(result.ttlMs) && result.ttlMs >= 0);
    const execute = result.tools.find((tool) => tool.name === 'execute_code');
    assert.ok(execute, 'execute_code is listed');
    // The language is mirrored into Mcp-Param-Language (x-mcp-header) for gateways.
    assert.equal(execute.inputSchema.properties.language['x-mcp-header'], 'Language');
}

function checkUnsupportedVersion(answer, id) {
    // basic/versioning.mdx, "Protocol Version Negotiation".
    assert.equal(answer.id, id);
    assert.equal(answer.error.code, -32022);
    assert.deepEqual(answer.error.data, { supported: [STATELESS], requested: '1900-01-01' });
}

describe('2026-07-28 over stdio', () => {
    let session;

    before(() => {
        session = rawSession();
    });
    after(async () => {
        session.child.stdin.end();
        await session.exited;
    });

    const ask = async (message) => {
        session.send(message);
        return within(10000, session.next(), `the answer to ${message.method}`);
    };

    test('server/discover answers as the specification example, before any initialize', async () => {
        checkDiscoverResult(await ask(DISCOVER));
    });

    test('tools/list carries resultType, caching hints and the x-mcp-header of the language', async () => {
        checkToolsList(await ask(toolsList(2)));
    });

    test('tools/call answers with a complete CallToolResult and the server in _meta', async () => {
        const answer = await ask(toolsCall(3, 'get_language_details', { language: 'python' }));
        assert.equal(answer.result.resultType, 'complete');
        assert.equal(answer.result.isError, false);
        assert.equal(JSON.parse(answer.result.content[0].text).name, 'python');
        assert.equal(answer.result._meta['io.modelcontextprotocol/serverInfo'].name, 'llm-sandbox');
        assert.equal(answer.result.ttlMs, undefined, 'a tool result is not cacheable');
    });

    test('an unsupported language is a tool error the model can read, not a protocol error', async () => {
        const answer = await ask(toolsCall(4, 'get_language_details', { language: 'cobol' }));
        assert.equal(answer.result.isError, true);
        assert.match(JSON.parse(answer.result.content[0].text).error, /^Unsupported language: cobol/);
    });

    test('an unsupported protocol version gets UnsupportedProtocolVersionError with the supported ones', async () => {
        checkUnsupportedVersion(await ask(unsupportedVersion(5)), 5);
    });

    test('a request without clientCapabilities is invalid params (-32602)', async () => {
        const answer = await ask({
            jsonrpc: '2.0',
            id: 6,
            method: 'tools/list',
            params: { _meta: { 'io.modelcontextprotocol/protocolVersion': STATELESS } },
        });
        assert.equal(answer.error.code, -32602);
        assert.match(answer.error.message, /clientCapabilities/);
    });

    test('methods 2026-07-28 removed are unknown there (-32601)', async () => {
        for (const [id, method] of [
            [7, 'ping'],
            [8, 'initialize'],
            [9, 'logging/setLevel'],
        ]) {
            const answer = await ask({ jsonrpc: '2.0', id, method, params: { _meta: META } });
            assert.equal(answer.id, id);
            assert.equal(answer.error.code, -32601, method);
        }
    });

    test('a 2025-11-25 session on the same process notices nothing of it', async () => {
        const initialized = await ask(initializeRequest(11, '2025-11-25'));
        assert.equal(initialized.result.protocolVersion, '2025-11-25');
        session.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        const legacy = await ask({ jsonrpc: '2.0', id: 12, method: 'tools/list' });
        assert.equal(legacy.result.resultType, undefined);
        assert.equal(legacy.result.ttlMs, undefined);
        const execute = legacy.result.tools.find((tool) => tool.name === 'execute_code');
        assert.equal(execute.inputSchema.properties.language['x-mcp-header'], undefined);
        // ... while a 2026-07-28 request beside it is still served by its own rules.
        checkDiscoverResult(await ask(DISCOVER));
    });

    test('every message validates against the schema of its revision', () => {
        assert.ok(session.log.checkedPerRequest >= 9);
        session.log.assertValid();
    });
});

describe('2026-07-28 over Streamable HTTP', () => {
    const token = randomBytes(32).toString('base64url');
    const log = new MessageLog(STATELESS);
    let server;

    before(async () => {
        server = await startHttpServer(token);
    });
    after(async () => {
        server.child.kill('SIGTERM');
        await new Promise((resolve) => server.child.on('exit', resolve));
    });

    // The headers of streamable-http.mdx's examples, from the body, unless `headers` replaces them.
    async function post(message, headers = {}) {
        const standard = {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            Authorization: `Bearer ${token}`,
            'MCP-Protocol-Version': message.params?._meta?.['io.modelcontextprotocol/protocolVersion'] ?? STATELESS,
            'Mcp-Method': message.method,
        };
        if (message.method === 'tools/call') {
            standard['Mcp-Name'] = message.params.name;
        }
        log.sent(message);
        const response = await fetch(server.url, {
            method: 'POST',
            headers: { ...standard, ...headers },
            body: JSON.stringify(message),
        });
        assert.equal(response.headers.get('mcp-session-id'), null, 'no sessions in 2026-07-28');
        const body = await response.json();
        log.received(body);
        return { status: response.status, body };
    }

    test('server/discover needs no session', async () => {
        const { status, body } = await post(DISCOVER);
        assert.equal(status, 200);
        checkDiscoverResult(body);
    });

    test('tools/list', async () => {
        const { status, body } = await post(toolsList(2));
        assert.equal(status, 200);
        checkToolsList(body);
    });

    test('tools/call with the language mirrored into Mcp-Param-Language', async () => {
        const { status, body } = await post(toolsCall(3, 'get_language_details', { language: 'go' }), {
            'Mcp-Param-Language': 'go',
        });
        assert.equal(status, 200);
        assert.equal(body.result.resultType, 'complete');
        assert.equal(JSON.parse(body.result.content[0].text).name, 'go');
    });

    test('a base64-encoded header value is compared decoded', async () => {
        const { status } = await post(toolsCall(4, 'get_language_details', { language: 'ruby' }), {
            'Mcp-Param-Language': `=?base64?${Buffer.from('ruby').toString('base64')}?=`,
        });
        assert.equal(status, 200);
    });

    test('an Mcp-Name that is not the body name is HeaderMismatch (-32020) with 400', async () => {
        const { status, body } = await post(toolsCall(5, 'get_supported_languages', {}), { 'Mcp-Name': 'foo' });
        assert.equal(status, 400);
        assert.equal(body.id, 5);
        assert.equal(body.error.code, -32020);
        assert.match(body.error.message, /^Header mismatch: Mcp-Name header value 'foo' does not match body value/);
    });

    test('a missing Mcp-Param-Language while the body names a language is HeaderMismatch', async () => {
        const { status, body } = await post(toolsCall(6, 'get_language_details', { language: 'go' }));
        assert.equal(status, 400);
        assert.equal(body.error.code, -32020);
    });

    test('MCP-Protocol-Version must say what _meta says', async () => {
        const { status, body } = await post(toolsList(7), { 'MCP-Protocol-Version': '2025-11-25' });
        assert.equal(status, 400);
        assert.equal(body.error.code, -32020);
    });

    test('an unsupported version is UnsupportedProtocolVersionError with 400', async () => {
        const { status, body } = await post(unsupportedVersion(8));
        assert.equal(status, 400);
        checkUnsupportedVersion(body, 8);
    });

    test('an unknown method is -32601 with 404', async () => {
        const { status, body } = await post({ jsonrpc: '2.0', id: 9, method: 'ping', params: { _meta: META } });
        assert.equal(status, 404);
        assert.equal(body.error.code, -32601);
    });

    test('server/discover without _meta is -32602 with 400', async () => {
        const { status, body } = await post({ jsonrpc: '2.0', id: 10, method: 'server/discover', params: {} });
        assert.equal(status, 400);
        assert.equal(body.id, 10);
        assert.equal(body.error.code, -32602);
    });

    test('every answer validates against the 2026-07-28 schema', () => {
        assert.ok(log.checkedPerRequest >= 10);
        log.assertValid();
    });
});
