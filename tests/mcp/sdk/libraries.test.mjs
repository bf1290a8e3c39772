// execute_code and create_session with libraries, for real through the official SDK client: installed with network
// (on Kubernetes in an installer pod of its own), the code then runs without any.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { connectClient } from './helpers.mjs';

const CALL_OPTIONS = { timeout: 600000, resetTimeoutOnProgress: true };
const CODE = "const isNumber = require('is-number');\n" +
    "console.log(isNumber(7), require('fs').readdirSync('/sys/class/net').join(','));\n";

describe('libraries', () => {
    let session;

    before(async () => {
        session = await connectClient();
        await session.client.listTools();
    });

    after(async () => {
        await session?.client.close();
    });

    const call = (name, args) => session.client.callTool({ name, arguments: args }, undefined, CALL_OPTIONS);

    test('execute_code installs an npm package and runs the code without network', async () => {
        const result = await call('execute_code', { code: CODE, language: 'javascript', libraries: ['is-number@7.0.0'] });
        assert.notEqual(result.isError, true, result.content?.[0]?.text);
        assert.equal(result.structuredContent.exit_code, 0, result.structuredContent.stderr);
        assert.equal(result.structuredContent.stdout, 'true lo\n');
    });

    test('a session keeps the libraries it was created with', async () => {
        const created = await call('create_session', { language: 'javascript', libraries: ['is-number@7.0.0'] });
        assert.notEqual(created.isError, true, created.content?.[0]?.text);
        const sessionId = JSON.parse(created.content[0].text).session_id;
        try {
            const result = await call('execute_code', { code: CODE, language: 'javascript', session_id: sessionId });
            assert.notEqual(result.isError, true, result.content?.[0]?.text);
            assert.equal(result.structuredContent.stdout, 'true lo\n', result.structuredContent.stderr);
        } finally {
            await call('close_session', { session_id: sessionId });
        }
    });

    test('a library that does not exist is a tool error naming it, and the code does not run', async () => {
        const result = await call('execute_code', {
            code: "console.log('must not run')", language: 'javascript',
            libraries: ['llm-sandbox-no-such-package-4711'],
        });
        assert.equal(result.isError, true);
        assert.match(result.content[0].text, /llm-sandbox-no-such-package-4711/);
        assert.doesNotMatch(result.content[0].text, /must not run/);
    });
});

describe('credentials in a registry URL', () => {
    const SECRET = 'pa55w0rd-4711';
    let session;

    before(async () => {
        // As a user with a private npm registry sets it; the public registry answers without a login.
        // No library cache: the install itself goes through the proxy with the login.
        session = await connectClient({
            LLM_SANDBOX_NPM_REGISTRY: `https://llm-user:${SECRET}@registry.npmjs.org/`,
            LLM_SANDBOX_LIBRARY_CACHE: 'off',
        });
        await session.client.listTools();
    });

    after(async () => {
        await session?.client.close();
    });

    test('never appear in the progress, the result or the error the client receives', async () => {
        const progress = [];
        const options = { ...CALL_OPTIONS, onprogress: (update) => progress.push(update.message ?? '') };
        const results = [];
        for (const libraries of [['is-number@7.0.0'], ['llm-sandbox-no-such-package-4711']]) {
            results.push(await session.client.callTool(
                { name: 'execute_code', arguments: { code: 'console.log(1)', language: 'javascript', libraries } },
                undefined, options));
        }
        // The proxy adds the login over TLS, trusting what the host trusts (a TLS-inspecting gateway's authority):
        // the package is installed, and the one that does not exist is reported at once (a 404, not npm's retries).
        assert.ok(!results[0].isError, JSON.stringify(results[0]).slice(0, 600));
        assert.equal(JSON.parse(results[0].content[0].text).stdout, '1\n');
        assert.ok(results[1].isError);
        assert.match(results[1].content[0].text, /404/);
        assert.ok(progress.length > 0, 'no progress was sent');
        // The install was reported with its registry, as the builder names it to the egress proxy (plain http://, the
        // proxy speaks TLS to the registry and adds the login there).
        assert.ok(progress.some((message) => message.includes('http://registry.npmjs.org:443/')), progress.join('\n'));
        for (const text of [...progress, ...results.map((result) => JSON.stringify(result))]) {
            assert.ok(!text.includes(SECRET), `the password reached the client: ${text.slice(0, 300)}`);
        }
    });
});
