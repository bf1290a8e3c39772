// execute_code for real through the official SDK client: needs a container engine with the sandbox images.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { connectClient, within } from './helpers.mjs';

// A cold engine may start containers (or build images) first.
const CALL_OPTIONS = { timeout: 600000, resetTimeoutOnProgress: true };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('execute_code', () => {
    let session;

    before(async () => {
        session = await connectClient();
        await session.client.listTools(); // the SDK then checks structuredContent against the outputSchema
    });

    after(async () => {
        await session?.client.close();
    });

    const execute = (args, options = {}) =>
        session.client.callTool({ name: 'execute_code', arguments: args }, undefined, { ...CALL_OPTIONS, ...options });

    test('python print', async () => {
        const result = await execute({ code: "print('hello from python')" });
        assert.notEqual(result.isError, true, result.content?.[0]?.text);
        const run = JSON.parse(result.content[0].text);
        assert.equal(run.exit_code, 0);
        assert.equal(run.stdout, 'hello from python\n');
        assert.equal(run.timed_out, false);
        assert.equal(run.stop_reason, 'exit');
        assert.deepEqual(result.structuredContent, run);
        assert.ok(run.resource_usage.wall_ms >= 0);
    });

    test('loosely typed arguments run as the Python server ran them', async () => {
        // FastMCP parses JSON text given for a list and pydantic takes "45" for an int; assistants send both.
        const result = await execute({ code: "print('loose')", libraries: '[]', timeout: '45', language: null });
        assert.notEqual(result.isError, true, result.content?.[0]?.text);
        const run = JSON.parse(result.content[0].text);
        assert.equal(run.exit_code, 0);
        assert.equal(run.stdout, 'loose\n');
        assert.equal(run.stderr, '');
        assert.equal(run.language, 'python');
    });

    test('javascript', async () => {
        const result = await execute({ code: 'console.log(6 * 7)', language: 'javascript' });
        assert.notEqual(result.isError, true, result.content?.[0]?.text);
        assert.equal(result.structuredContent.stdout, '42\n');
    });

    test('a failing program is a normal result with its exit code', async () => {
        const result = await execute({ code: 'import sys\nprint("bye", file=sys.stderr)\nsys.exit(3)' });
        assert.notEqual(result.isError, true);
        assert.equal(result.structuredContent.exit_code, 3);
        assert.match(result.structuredContent.stderr, /bye/);
    });

    test('a matplotlib plot comes back as a decodable PNG image', async () => {
        const code = [
            'import matplotlib.pyplot as plt',
            'plt.plot([1, 2, 3], [1, 4, 9])',
            "plt.title('squares')",
            'plt.show()',
        ].join('\n');
        const progress = [];
        const result = await execute({ code }, { onprogress: (update) => progress.push(update) });
        assert.notEqual(result.isError, true, result.content?.[0]?.text);
        const images = result.content.filter((item) => item.type === 'image');
        assert.equal(images.length, 1, JSON.stringify(result.structuredContent));
        assert.equal(images[0].mimeType, 'image/png');
        const png = Buffer.from(images[0].data, 'base64');
        assert.ok(png.subarray(0, 8).equals(PNG_SIGNATURE), 'PNG signature');
        assert.ok(png.readUInt32BE(16) > 0 && png.readUInt32BE(20) > 0, 'IHDR width and height');
        assert.equal(result.structuredContent.artifacts[0].mime_type, 'image/png');
        assert.ok(progress.length > 0, 'progress notifications were sent');
    });

    test('an unknown language is a tool error listing the supported ones', async () => {
        const result = await execute({ code: 'x', language: 'cobol' });
        assert.equal(result.isError, true);
        const failure = JSON.parse(result.content[0].text);
        assert.equal(failure.exit_code, 1);
        assert.match(failure.stderr, /cobol/);
        assert.match(failure.stderr, /python/);
    });

    test('the timeout kills a runaway program', async () => {
        const result = await execute({ code: 'while True:\n    pass', timeout: 2 });
        assert.notEqual(result.isError, true, result.content?.[0]?.text);
        assert.equal(result.structuredContent.timed_out, true);
        assert.equal(result.structuredContent.stop_reason, 'timeout');
    });

    test('cancelling a running call stops it and the server keeps answering', async () => {
        const controller = new AbortController();
        const started = Date.now();
        const call = execute({ code: 'while True:\n    pass', timeout: 300 }, { signal: controller.signal });
        setTimeout(() => controller.abort('test cancels'), 3000);
        await assert.rejects(call);
        assert.ok(Date.now() - started < 60000);
        assert.deepEqual(await within(5000, session.client.ping(), 'ping after cancel'), {});
        const again = await execute({ code: "print('still here')" });
        assert.equal(again.structuredContent.stdout, 'still here\n');
    });

    test('a session keeps a variable across two calls, and its files', async () => {
        const call = (name, args) =>
            session.client.callTool({ name, arguments: args }, undefined, CALL_OPTIONS);
        const created = await call('create_session', { language: 'python' });
        assert.notEqual(created.isError, true, created.content?.[0]?.text);
        const { session_id: id, keeps_variables: keeps } = JSON.parse(created.content[0].text);
        assert.ok(id);
        assert.equal(keeps, true);
        try {
            const first = await execute({ code: 'counter = 41\nprint("set")', session_id: id });
            assert.equal(first.structuredContent.stdout, 'set\n', first.content?.[0]?.text);
            const second = await execute({ code: 'counter += 1\nprint(counter)', session_id: id });
            assert.equal(second.structuredContent.stdout, '42\n', second.content?.[0]?.text);
            assert.equal(second.structuredContent.session_id, id);

            const uploaded = await call('upload_file', { session_id: id, path: 'data/in.txt', content: 'from the host' });
            assert.notEqual(uploaded.isError, true, uploaded.content?.[0]?.text);
            const used = await execute({
                code: "open('out.txt', 'w').write(open('data/in.txt').read().upper())", session_id: id });
            assert.equal(used.structuredContent.exit_code, 0, used.structuredContent.stderr);
            const downloaded = await call('download_file', { session_id: id, path: 'out.txt' });
            assert.equal(JSON.parse(downloaded.content[0].text).content, 'FROM THE HOST');
            const escape = await call('download_file', { session_id: id, path: '../../etc/passwd' });
            assert.equal(escape.isError, true);

            const listed = JSON.parse((await call('list_sessions', {})).content[0].text);
            assert.ok(listed.sessions.some((each) => each.session_id === id && each.runs === 3));
        } finally {
            const closed = await call('close_session', { session_id: id });
            assert.notEqual(closed.isError, true, closed.content?.[0]?.text);
        }
        const gone = await execute({ code: 'print(counter)', session_id: id });
        assert.equal(gone.isError, true);
        assert.match(gone.content[0].text, /create_session/);
    });

    test('nothing but protocol messages reached the client', () => {
        // KNOWN SDK BUG: the TypeScript SDK sometimes reports a "Captured ..." progress notification
        // for a token whose call has already been answered, although the server writes it before
        // the reply (checked by hand): the SDK handles a response and a progress notification that
        // arrive in one read in the wrong order (upstream issue #2580). Every other error still
        // fails this test.
        const errors = session.errors.filter(
            (error) => !String(error).includes('Received a progress notification for an unknown token'));
        assert.deepEqual(errors, []);
        session.log.assertValid();
    });
});
