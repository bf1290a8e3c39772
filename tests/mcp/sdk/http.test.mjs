// `llm-sandbox serve --http` driven by the official MCP TypeScript SDK's Streamable HTTP client. Needs no container
// engine: it initializes, lists tools and calls the language tools.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';

import { connectHttp as connect, startHttpServer, within } from './helpers.mjs';

const LANGUAGES = ['python', 'javascript', 'java', 'cpp', 'go', 'r', 'ruby'];

describe('official SDK client over Streamable HTTP', () => {
    const token = randomBytes(32).toString('base64url');
    let server;
    let session;

    before(async () => {
        server = await startHttpServer(token);
        session = await connect(server.url, token);
    });

    after(async () => {
        await session?.client.close();
        if (server && server.child.exitCode === null) {
            server.child.kill('SIGTERM');
            const [code] = await within(20000, once(server.child, 'exit'), 'serve stopping');
            assert.equal(code, 0, `serve exits cleanly on SIGTERM:\n${server.stderr()}`);
        }
    });

    test('initialize gives a session and names the server', () => {
        assert.match(session.transport.sessionId, /^[\x21-\x7e]{32,}$/);
        assert.equal(session.client.getServerVersion().name, 'llm-sandbox');
        assert.ok(session.client.getServerCapabilities().tools);
    });

    test('listTools offers the sandbox tools', async () => {
        const { tools } = await session.client.listTools();
        const names = tools.map((tool) => tool.name);
        for (const name of ['execute_code', 'get_supported_languages', 'get_language_details']) {
            assert.ok(names.includes(name), `${name} in ${names}`);
        }
    });

    test('get_supported_languages answers as JSON', async () => {
        const result = await session.client.callTool({ name: 'get_supported_languages', arguments: {} });
        assert.notEqual(result.isError, true);
        assert.deepEqual(JSON.parse(result.content[0].text), LANGUAGES);
    });

    test('a call with a progress token is answered over an event stream', async () => {
        const result = await session.client.callTool(
            { name: 'get_language_details', arguments: { language: 'python' } },
            undefined,
            { onprogress: () => {} },
        );
        assert.notEqual(result.isError, true);
        assert.equal(JSON.parse(result.content[0].text).name, 'python');
    });

    test('ping and resources work in the session', async () => {
        assert.deepEqual(await session.client.ping(), {});
        const { resources } = await session.client.listResources();
        assert.ok(resources.some((resource) => resource.uri === 'sandbox://languages'));
    });

    test('a wrong token is refused with 401', async () => {
        await assert.rejects(connect(server.url, randomBytes(32).toString('base64url')), /401|Unauthorized/);
        const response = await fetch(server.url, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
        assert.equal(response.status, 401);
        assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer /);
    });

    test('a parse error is -32700 without an id', async () => {
        const response = await fetch(server.url, {
            method: 'POST',
            headers: {
                Authorization: `Bearer ${token}`,
                'Content-Type': 'application/json',
                Accept: 'application/json, text/event-stream',
                'Mcp-Session-Id': session.transport.sessionId,
            },
            body: '{"jsonrpc": "2.0", ',
        });
        assert.equal(response.status, 400);
        const body = await response.json();
        assert.equal(body.error.code, -32700);
        assert.equal('id' in body, false);
    });

    test('every message of the session validates against the negotiated revision\'s schema', () => {
        session.log.assertValid();
        assert.ok(session.log.checked >= 5, `checked ${session.log.checked}`);
    });

    test('terminateSession ends the session on the server', async () => {
        const other = await connect(server.url, token);
        const sessionId = other.transport.sessionId;
        await other.transport.terminateSession();
        await other.client.close();
        const response = await fetch(server.url, {
            method: 'POST',
            headers: {
                Authorization: `Bearer ${token}`,
                'Content-Type': 'application/json',
                Accept: 'application/json, text/event-stream',
                'Mcp-Session-Id': sessionId,
            },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
        assert.equal(response.status, 404);
    });
});
