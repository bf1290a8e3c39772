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
            ['sandbox://languages', 'skill://llm-sandbox/SKILL.md', 'skill://llm-sandbox-zh/SKILL.md'],
        );
        const { contents } = await session.client.readResource({ uri: 'sandbox://languages' });
        assert.equal(contents[0].mimeType, 'application/json');
        assert.deepEqual(Object.keys(JSON.parse(contents[0].text)).sort(), [...LANGUAGES].sort());
    });

    test('the skill of how to use the sandbox is a plain markdown resource too', async () => {
        const { contents } = await session.client.readResource({ uri: 'skill://llm-sandbox/SKILL.md' });
        assert.equal(contents[0].mimeType, 'text/markdown');
        assert.match(contents[0].text, /^---\nname: llm-sandbox\ndescription: .+\n---\n/);
        for (const language of LANGUAGES) {
            assert.ok(contents[0].text.includes(`| \`${language}\``), language);
        }
    });

    test('logging/setLevel is accepted', async () => {
        assert.deepEqual(await session.client.setLoggingLevel('warning'), {});
    });

    test('get_language_details has the Python server\'s fields', async () => {
        // llm_sandbox/mcp_server/const.py (github.com/vndee/llm-sandbox): version, package_manager,
        // preinstalled_libraries, use_cases, visualization_support, examples[{title, description, code}].
        const result = await session.client.callTool({ name: 'get_language_details', arguments: { language: 'python' } });
        const details = JSON.parse(result.content[0].text);
        assert.equal(typeof details.version, 'string');
        assert.equal(typeof details.package_manager, 'string');
        assert.ok(Array.isArray(details.preinstalled_libraries));
        assert.ok(details.use_cases.length > 0);
        assert.equal(typeof details.visualization_support, 'boolean');
        for (const example of details.examples) {
            assert.deepEqual(['code', 'description', 'title'].filter((key) => typeof example[key] === 'string'),
                ['code', 'description', 'title']);
        }
    });

    test('nothing but protocol messages reached the client, each valid for the negotiated revision', () => {
        assert.deepEqual(session.errors, []);
        session.log.assertValid();
        assert.ok(session.log.checked > 10, `checked ${session.log.checked} messages`);
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
            raw.log.assertValid();
        });

        test(`every answer of a ${version} session validates against the ${version} schema`, async () => {
            const raw = rawSession();
            const ask = async (message) => {
                raw.send(message);
                return within(10000, raw.next(), JSON.stringify(message).slice(0, 80));
            };
            await ask(initializeRequest(1, version));
            raw.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
            await ask({ jsonrpc: '2.0', id: 2, method: 'ping' });
            const tools = (await ask({ jsonrpc: '2.0', id: 3, method: 'tools/list' })).result.tools;
            const execute = tools.find((tool) => tool.name === 'execute_code');
            assert.equal('title' in execute, version >= '2025-06-18', 'tool title only from 2025-06-18');
            assert.equal('annotations' in execute, version >= '2025-03-26', 'annotations only from 2025-03-26');
            assert.equal('outputSchema' in execute, version >= '2025-06-18', 'outputSchema only from 2025-06-18');
            const call = (id, name, args) => ask({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
            await call(4, 'get_supported_languages', {});
            await call(5, 'get_language_details', { language: 'go' });
            await call(6, 'get_language_details', { language: 'cobol' });
            await call(7, 'execute_code', { code: 'x', language: 'cobol' });
            await call(8, 'execute_code', { code: 'x', timeout: 'soon' });
            await ask({ jsonrpc: '2.0', id: 9, method: 'resources/list' });
            await ask({ jsonrpc: '2.0', id: 10, method: 'resources/read', params: { uri: 'sandbox://languages' } });
            await ask({ jsonrpc: '2.0', id: 11, method: 'resources/templates/list' });
            await ask({ jsonrpc: '2.0', id: 12, method: 'logging/setLevel', params: { level: 'error' } });
            assert.equal((await ask({ jsonrpc: '2.0', id: 13, method: 'tools/list', params: { cursor: 'x' } })).error.code,
                -32602);
            assert.equal((await ask({ jsonrpc: '2.0', id: 14, method: 'prompts/get' })).error.code, -32601);
            assert.equal((await ask({ jsonrpc: '2.0', id: 'big', method: 'resources/read', params: { uri: 'x://y' } }))
                .error.code, -32002);
            const parseError = await ask('{"jsonrpc": "2.0", "id": 15, ');
            assert.equal(parseError.error.code, -32700);
            assert.equal('id' in parseError, version < '2025-11-25', 'the id is left out from 2025-11-25 on');
            const batch = await ask([{ jsonrpc: '2.0', id: 16, method: 'ping' }, { jsonrpc: '2.0', id: 17, method: 'tools/list' }]);
            if (version <= '2025-03-26') {
                assert.ok(Array.isArray(batch), 'batches are answered where the revision has them');
                assert.equal(batch.length, 2);
            } else {
                assert.equal(batch.error.code, -32600, 'no batches after 2025-03-26');
            }
            raw.child.stdin.end();
            await raw.exited;
            raw.log.assertValid();
            assert.ok(raw.log.checked >= 17);
        });
    }

    test('integer ids beyond 2^53 come back exactly as sent', async () => {
        const raw = rawSession();
        raw.send(initializeRequest(1, '2025-11-25'));
        await within(10000, raw.next(), 'initialize');
        const received = new Promise((resolve) => raw.child.stdout.once('data', (chunk) => resolve(String(chunk))));
        raw.child.stdin.write('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}\n');
        assert.match(await within(10000, received, 'ping'), /"id":9007199254740993[,}]/);
        raw.child.stdin.end();
        await raw.exited;
    });

    test('only ping is served before initialize', async () => {
        const raw = rawSession();
        raw.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
        assert.deepEqual((await within(10000, raw.next(), 'ping')).result, {});
        raw.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        const refused = await within(10000, raw.next(), 'tools/list');
        assert.equal(refused.id, 2);
        assert.equal(refused.error.code, -32600);
        raw.send([initializeRequest(3, '2025-03-26')]);
        assert.equal((await within(10000, raw.next(), 'batched initialize')).error.code, -32600);
        raw.child.stdin.end();
        await raw.exited;
        raw.log.assertValid();
    });

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
        assert.equal('id' in error, false, 'no "id": null (2025-11-25 before initialize)');
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

// The Python llm-sandbox server's users keep their configuration; what it answered is written down from its source
// (github.com/vndee/llm-sandbox, commit 2c0219c: llm_sandbox/mcp_server/server.py, llm_sandbox/data.py).
describe('drop-in for the Python server', () => {
    const executeOnce = async (env, args = { code: 'print(1)' }) => {
        const session = await connectClient(env);
        try {
            const result = await within(60000, session.client.callTool({ name: 'execute_code', arguments: args }),
                'execute_code');
            session.log.assertValid();
            return { result, stderr: session.stderr() };
        } finally {
            await session.client.close();
        }
    };
    // server.py's `except` branch: ExecutionResult(exit_code=1, stderr=str(e)).to_json(): exit_code, stderr, stdout.
    const assertUpstreamFailure = (result, errorCode) => {
        assert.equal(result.isError, true);
        assert.equal(result.content.length, 1);
        const json = JSON.parse(result.content[0].text);
        assert.equal(json.exit_code, 1);
        assert.equal(json.stdout, '');
        assert.equal(typeof json.stderr, 'string');
        assert.ok(json.stderr.length > 0);
        assert.equal(json.error, json.stderr);
        assert.equal(json.error_code, errorCode);
        assert.equal(json.stop_reason, 'error');
        assert.equal(json.success, false);
        return json;
    };

    test('an invalid SANDBOX_* value does not stop the server; every execute_code answers with it', async () => {
        const { result, stderr } = await executeOnce({ SANDBOX_MEM_LIMIT: 'lots' });
        const json = assertUpstreamFailure(result, 'bad_request');
        assert.match(json.error, /SANDBOX_MEM_LIMIT/);
        assert.match(stderr, /SANDBOX_MEM_LIMIT/);
    });

    test('BACKEND=kubernetes without a kubeconfig fails each call with a clear message, not the start', async () => {
        const { result } = await executeOnce({ BACKEND: 'kubernetes', KUBECONFIG: '/tmp/llm-sandbox-no-kubeconfig' });
        const json = assertUpstreamFailure(result, 'bad_request');
        assert.match(json.error, /No kubeconfig found .*KUBECONFIG/);
    });

    test('no engine answers the upstream failure shape', async () => {
        const { result } = await executeOnce({ BACKEND: 'docker', DOCKER_HOST: 'unix:///tmp/llm-sandbox-no-engine.sock' });
        assertUpstreamFailure(result, 'engine_unreachable');
    });

    test('an unsupported language answers the upstream failure shape', async () => {
        const { result } = await executeOnce({}, { code: 'x', language: 'cobol' });
        assert.match(assertUpstreamFailure(result, 'bad_request').error, /cobol/);
    });

    test('a 1 MB language value is not echoed back', async () => {
        const { result } = await executeOnce({}, { code: 'x', language: 'x'.repeat(1024 * 1024) });
        assertUpstreamFailure(result, 'bad_request');
        assert.ok(result.content[0].text.length < 4096, `${result.content[0].text.length} characters`);
    });

    test('an unsupported language in get_language_details answers {"error": "Unsupported language: ..."}', async () => {
        const session = await connectClient();
        try {
            const result = await session.client.callTool({ name: 'get_language_details', arguments: { language: 'cobol' } });
            const json = JSON.parse(result.content[0].text);
            assert.deepEqual(Object.keys(json), ['error']);
            assert.match(json.error, /^Unsupported language: cobol/);
            session.log.assertValid();
        } finally {
            await session.client.close();
        }
    });

    test('BACKEND=micromamba is taken as docker, with a notice on stderr', async () => {
        const session = await connectClient({ BACKEND: 'micromamba', DOCKER_HOST: 'unix:///tmp/llm-sandbox-no-engine.sock' });
        try {
            await session.client.ping();
            await within(10000, new Promise((resolve) => {
                const poll = () => (/micromamba/.test(session.stderr()) ? resolve() : setTimeout(poll, 20));
                poll();
            }), 'the micromamba notice');
        } finally {
            await session.client.close();
        }
    });
});
