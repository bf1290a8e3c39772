// The checks of schema.mjs can fail: messages each revision forbids are caught, valid ones pass. Without this, a check
// that accepted everything (a missing schema read as "no rule") would leave every other test green.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { MessageLog, STATELESS } from './schema.mjs';

const META = { 'io.modelcontextprotocol/protocolVersion': STATELESS };

function answered(version, request, answer) {
    const log = new MessageLog(version);
    log.sent({ jsonrpc: '2.0', id: 1, ...request });
    log.received({ jsonrpc: '2.0', id: 1, ...answer });
    return log.problems;
}

test('a valid answer of each revision passes', () => {
    const result = { content: [{ type: 'text', text: '42' }], isError: false };
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
        assert.deepEqual(answered(version, { method: 'tools/call', params: { name: 'x' } }, { result }), []);
    }
    assert.deepEqual(answered(STATELESS, { method: 'tools/call', params: { name: 'x', _meta: META } },
        { result: { ...result, resultType: 'complete' } }), []);
});

test('a content block newer than the revision is caught', () => {
    const link = { content: [{ type: 'resource_link', uri: 'sandbox://runs/1', name: 'run' }] };
    assert.match(answered('2025-03-26', { method: 'tools/call', params: { name: 'x' } }, { result: link })[0],
        /resource_link.*2025-03-26 does not have/);
    const audio = { content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] };
    assert.equal(answered('2024-11-05', { method: 'tools/call', params: { name: 'x' } }, { result: audio }).length, 1);
    assert.deepEqual(answered('2025-06-18', { method: 'tools/call', params: { name: 'x' } }, { result: link }), []);
});

test('a malformed result is caught by the SDK schema', () => {
    assert.match(answered('2025-11-25', { method: 'tools/list' }, { result: { tools: [{ name: 7 }] } })[0],
        /not a valid ListToolsResult of 2025-11-25/);
    assert.match(answered('2025-11-25', { method: 'tools/call', params: { name: 'x' } }, { result: { content: 'x' } })[0],
        /not a valid CallToolResult/);
});

test('2026-07-28: a result without resultType and an error without its data are caught', () => {
    assert.match(answered(STATELESS, { method: 'server/discover' },
        { result: { supportedVersions: [STATELESS], capabilities: {} } })[0], /without resultType/);
    assert.match(answered(STATELESS, { method: 'tools/list', params: { _meta: META } },
        { error: { code: -32022, message: 'unsupported', data: { requested: '1999-01-01' } } })[0],
    /UnsupportedProtocolVersionError without data.supported/);
});

test('an error without an id is caught where the revision requires one', () => {
    const log = new MessageLog('2025-03-26');
    log.received({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });
    assert.match(log.problems[0], /without an id/);
    const modern = new MessageLog('2025-11-25');
    modern.received({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });
    assert.deepEqual(modern.problems, []);
});
