// A run's files as MCP resources, for real through the official SDK client: resource_link items instead of
// megabytes of base64, resources/read from the journal only by the client that made the run, and subscriptions to a
// session's files. Needs a container engine with the sandbox images.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import { connectClient, within } from './helpers.mjs';

const CALL_OPTIONS = { timeout: 600000, resetTimeoutOnProgress: true };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// A noise image compresses badly: about 1.4 MB of PNG, far above the 256 KiB that travel inline.
const FILES = `
import csv, os
import numpy as np
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
out = os.environ['LLM_SANDBOX_OUTPUT_DIR']
plt.imsave(os.path.join(out, 'noise.png'), np.random.default_rng(1).random((700, 700, 3)))
plt.plot([1, 2, 3])
plt.savefig(os.path.join(out, 'small.png'), dpi=40)
with open(os.path.join(out, 'table.csv'), 'w', newline='') as f:
    csv.writer(f).writerows([['x', 'y'], [1, 2], [3, 4]])
plt.figure(); plt.scatter(range(500), [2 * x + x % 7 for x in range(500)]); plt.title('Cloud')
print('done')
`;

describe('artifacts as resources', () => {
    let maker;
    let other;

    before(async () => {
        maker = await connectClient();
        other = await connectClient();
        await maker.client.listTools();
    });

    after(async () => {
        await maker?.client.close();
        await other?.client.close();
    });

    test('large images and other files come as resource links the client reads back', async () => {
        const result = await maker.client.callTool(
            { name: 'execute_code', arguments: { code: FILES } },
            undefined,
            CALL_OPTIONS,
        );
        assert.notEqual(result.isError, true, result.content?.[0]?.text);
        assert.equal(result.structuredContent.stdout, 'done\n');
        const runId = result.structuredContent.run_id;
        const images = result.content.filter((item) => item.type === 'image');
        const links = result.content.filter((item) => item.type === 'resource_link');
        assert.deepEqual(
            images.map((image) => Buffer.from(image.data, 'base64').subarray(0, 8).equals(PNG_SIGNATURE)),
            [true, true],
            'the small charts stay inline',
        );
        assert.deepEqual(links.map((link) => link.name).sort(), ['figure_1.data.csv', 'noise.png', 'table.csv']);
        const noise = links.find((link) => link.name === 'noise.png');
        assert.equal(noise.uri, `sandbox://runs/${runId}/artifacts/noise.png`);
        assert.equal(noise.mimeType, 'image/png');
        assert.ok(noise.size > 256 * 1024, `noise.png is ${noise.size} bytes`);
        // The whole reply is a fraction of the image it links to.
        assert.ok(JSON.stringify(result).length < noise.size / 4);

        const png = await maker.client.readResource({ uri: noise.uri });
        assert.equal(png.contents[0].mimeType, 'image/png');
        const bytes = Buffer.from(png.contents[0].blob, 'base64');
        assert.equal(bytes.length, noise.size);
        assert.ok(bytes.subarray(0, 8).equals(PNG_SIGNATURE));

        const table = links.find((link) => link.name === 'table.csv');
        const csv = await maker.client.readResource({ uri: table.uri });
        assert.equal(csv.contents[0].text.replaceAll('\r\n', '\n'), 'x,y\n1,2\n3,4\n');

        // Issue 50: each chart's data and each table's outline in structuredContent, a line each in the text; a cut
        // series names the file of every point, which the client reads as a resource.
        const artifact = (name) => result.structuredContent.artifacts.find((each) => each.name === name);
        assert.equal(artifact('small.png').chart.kind, 'line');
        assert.deepEqual(artifact('small.png').chart.axes[0].series[0].y, [1, 2, 3]);
        const cloud = artifact('figure_1.png').chart;
        assert.equal(cloud.data_file, 'figure_1.data.csv');
        assert.equal(cloud.axes[0].series[0].points, 500);
        assert.equal(cloud.axes[0].series[0].truncated, true);
        assert.equal(artifact('table.csv').table.rows, 2);
        const text = result.content.filter((item) => item.type === 'text').map((item) => item.text).join('\n');
        assert.match(text, /\nCharts:\n(.+\n)*figure_1\.png: scatter 'Cloud' — .*, 500 points, r = 1\.00, all points in figure_1\.data\.csv/);
        assert.match(text, /\nTables:\n(.+\n)*table\.csv: table 2 rows/);
        const points = links.find((link) => link.name === 'figure_1.data.csv');
        const all = (await maker.client.readResource({ uri: points.uri })).contents[0].text.trim().split(/\r?\n/);
        assert.equal(all.length, 501);
        assert.equal(all[500], '1,scatter,499.0,1000.0');

        // The template is listed, and another client (another llm-sandbox --mcp on the same journal) reads nothing.
        const { resourceTemplates } = await maker.client.listResourceTemplates();
        assert.ok(resourceTemplates.some((entry) => entry.uriTemplate === 'sandbox://runs/{run_id}/artifacts/{name}'));
        await assert.rejects(other.client.readResource({ uri: noise.uri }), (error) => {
            assert.equal(error.code, -32002);
            return true;
        });
        maker.log.assertValid();
    });

    test('a subscriber to a session file hears when a run changes it', async () => {
        const created = await maker.client.callTool(
            { name: 'create_session', arguments: { language: 'python' } },
            undefined,
            CALL_OPTIONS,
        );
        assert.notEqual(created.isError, true, created.content?.[0]?.text);
        const sessionId = JSON.parse(created.content[0].text).session_id;
        const uri = `sandbox://sessions/${sessionId}/files/notes.txt`;
        const updates = [];
        maker.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
            updates.push(notification.params.uri);
        });
        try {
            // Not there yet: its creation is the first change.
            await maker.client.subscribeResource({ uri });
            const run = (code) =>
                maker.client.callTool(
                    { name: 'execute_code', arguments: { code, session_id: sessionId } },
                    undefined,
                    CALL_OPTIONS,
                );
            await run("open('notes.txt', 'w').write('first')");
            await within(30000, waitFor(() => updates.length === 1), 'the first update');
            assert.deepEqual(updates, [uri]);
            const first = await maker.client.readResource({ uri });
            assert.equal(first.contents[0].text, 'first');

            // A run that leaves the file alone is no change.
            await run('print(1)');
            await run("open('notes.txt', 'a').write(' second')");
            await within(30000, waitFor(() => updates.length === 2), 'the second update');
            assert.equal((await maker.client.readResource({ uri })).contents[0].text, 'first second');

            // Another client neither reads it nor may subscribe to news of it.
            await assert.rejects(other.client.readResource({ uri }));
            await maker.client.unsubscribeResource({ uri });
            await run("open('notes.txt', 'w').write('third')");
            await new Promise((resolve) => setTimeout(resolve, 1000));
            assert.equal(updates.length, 2, 'no news after unsubscribing');
        } finally {
            await maker.client.callTool({ name: 'close_session', arguments: { session_id: sessionId } });
        }
        maker.log.assertValid();
    });
});

function waitFor(condition) {
    return new Promise((resolve) => {
        const check = () => (condition() ? resolve() : setTimeout(check, 50));
        check();
    });
}
