// `llm-sandbox --mcp` driven by the official MCP TypeScript SDK (and raw stdio for the transport rules).
// Needs no container engine: only the protocol and the language tools.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

import { connectClient, initializeRequest, rawSession, within } from './helpers.mjs';

const LANGUAGES = ['python', 'javascript', 'java', 'cpp', 'go', 'r', 'ruby'];

describe('official SDK client', () => {
    let session;

    before(async () => {
        session = await connectClient();
    });

    after(async () => {
        await session?.client.close();
    });

    test('initialize names the server and its capabilities', () => {
        const info = session.client.getServerVersion();
        assert.equal(info.name, 'llm-sandbox');
        assert.match(info.version, /^\d+\.\d+/);
        const capabilities = session.client.getServerCapabilities();
        assert.ok(capabilities.tools, 'tools capability');
        assert.ok(capabilities.resources, 'resources capability');
        assert.ok(capabilities.logging, 'logging capability');
        assert.ok(session.client.getInstructions()?.length > 0, 'instructions');
    });

    test('ping answers', async () => {
        assert.deepEqual(await session.client.ping(), {});
    });

    test('listTools offers the tools of the Python server and the session tools, with described schemas', async () => {
        const { tools } = await session.client.listTools();
        assert.deepEqual(
            tools.map((tool) => tool.name),
            ['execute_code', 'get_supported_languages', 'get_language_details',
             'create_session', 'list_sessions', 'close_session', 'upload_file', 'download_file'],
        );
        for (const tool of tools) {
            assert.ok(tool.description.length > 0, `${tool.name} has a description`);
            assert.equal(tool.inputSchema.type, 'object');
            for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
                assert.ok(property.description?.length > 0, `${tool.name}.${name} has a description`);
            }
        }
        const execute = tools.find((tool) => tool.name === 'execute_code');
        const { properties, required } = execute.inputSchema;
        assert.deepEqual(required, ['code']);
        assert.equal(properties.code.type, 'string');
        assert.equal(properties.language.type, 'string');
        assert.equal(properties.language.default, 'python');
        assert.equal(properties.libraries.type, 'array');
        assert.equal(properties.libraries.items.type, 'string');
        assert.equal(properties.timeout.type, 'integer');
        assert.equal(properties.timeout.default, 30);
        assert.equal(execute.outputSchema?.type, 'object');
        assert.ok(execute.outputSchema.properties.exit_code);

        const details = tools.find((tool) => tool.name === 'get_language_details');
        assert.deepEqual(details.inputSchema.required, ['language']);
    });

    test('get_supported_languages lists exactly the seven languages', async () => {
        const result = await session.client.callTool({ name: 'get_supported_languages', arguments: {} });
        assert.notEqual(result.isError, true);
        assert.equal(result.content[0].type, 'text');
        assert.deepEqual(JSON.parse(result.content[0].text), LANGUAGES);
    });

    test('get_language_details resolves an alias', async () => {
        const result = await session.client.callTool({ name: 'get_language_details', arguments: { language: 'js' } });
        assert.notEqual(result.isError, true);
        const details = JSON.parse(result.content[0].text);
        assert.equal(details.name, 'javascript');
        assert.equal(details.package_manager, 'npm');
        assert.ok(Array.isArray(details.preinstalled_libraries));
        assert.equal(typeof details.visualization_support, 'boolean');
        assert.ok(details.examples.length > 0);
    });

    test('get_language_details of an unknown language is a tool error the model can read', async () => {
        const result = await session.client.callTool({
            name: 'get_language_details',
            arguments: { language: 'cobol' },
        });
        assert.equal(result.isError, true);
        assert.match(result.content[0].text, /cobol/);
        assert.match(result.content[0].text, /python/);
    });

    test('wrong argument types are tool errors naming the argument', async () => {
        const result = await session.client.callTool({
            name: 'execute_code',
            arguments: { code: 'print(1)', timeout: 'abc' },
        });
        assert.equal(result.isError, true);
        assert.match(result.content[0].text, /"timeout".*integer/);
    });

    test('an unknown tool is a protocol error (invalid params)', async () => {
        await assert.rejects(
            session.client.callTool({ name: 'no_such_tool', arguments: {} }),
            (error) => error instanceof McpError && error.code === ErrorCode.InvalidParams,
        );
    });

    test('the languages resource holds every language', async () => {
        const { resources } = await session.client.listResources();
        assert.deepEqual(
            resources.map((resource) => resource.uri),
            ['sandbox://languages'],
        );
        const { contents } = await session.client.readResource({ uri: 'sandbox://languages' });
        assert.equal(contents[0].mimeType, 'application/json');
        assert.deepEqual(Object.keys(JSON.parse(contents[0].text)).sort(), [...LANGUAGES].sort());
    });

    test('logging/setLevel is accepted', async () => {
        assert.deepEqual(await session.client.setLoggingLevel('warning'), {});
    });

    test('nothing but protocol messages reached the client', () => {
        assert.deepEqual(session.errors, []);
    });
});

describe('raw stdio', () => {
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
        test(`initialize with ${version} is answered with ${version}`, async () => {
            const raw = rawSession();
            raw.send(initializeRequest(1, version));
            const reply = await within(10000, raw.next(), 'initialize');
            assert.equal(reply.result.protocolVersion, version);
            raw.child.stdin.end();
            await raw.exited;
        });
    }

    test('an unsupported version is answered with the latest', async () => {
        const raw = rawSession();
        raw.send(initializeRequest(1, '1999-01-01'));
        assert.equal((await within(10000, raw.next(), 'initialize')).result.protocolVersion, '2025-11-25');
        raw.child.stdin.end();
        await raw.exited;
    });

    test('garbage gets a parse error and the server goes on', async () => {
        const raw = rawSession();
        raw.send('{"this is": not json');
        const error = await within(10000, raw.next(), 'parse error');
        assert.equal(error.id, null);
        assert.equal(error.error.code, -32700);
        raw.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
        assert.deepEqual((await within(10000, raw.next(), 'ping')).result, {});
        raw.child.stdin.end();
        await raw.exited;
    });

    test('the server exits cleanly when stdin closes', async () => {
        const raw = rawSession();
        raw.send(initializeRequest(1, '2025-11-25'));
        await within(10000, raw.next(), 'initialize');
        raw.child.stdin.end();
        const [code, signal] = await within(15000, raw.exited, 'exit after EOF');
        assert.equal(signal, null);
        assert.equal(code, 0, raw.stderr());
    });

    test('the server exits cleanly on SIGTERM', async () => {
        const raw = rawSession();
        raw.send(initializeRequest(1, '2025-11-25'));
        await within(10000, raw.next(), 'initialize');
        raw.child.kill('SIGTERM');
        const [code, signal] = await within(15000, raw.exited, 'exit after SIGTERM');
        assert.equal(signal, null, 'handled SIGTERM instead of dying from it');
        assert.equal(code, 0, raw.stderr());
    });
});
