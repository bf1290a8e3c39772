// Issue 47 end to end, for real through the official SDK client: the user shares a folder (LLM_SANDBOX_SHARE, as
// Connect an Assistant writes it); execute_code reads /data/sales/sales.csv, draws a chart and writes summary.csv
// there; llm-sandbox saves it into the host folder as the user, without an execute bit, and no byte of sales.csv
// travels through the MCP exchange (the journal's record of it is checked). Needs a container engine with the images.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { connectClient, serverBinary } from './helpers.mjs';

const CALL_OPTIONS = { timeout: 600000, resetTimeoutOnProgress: true };
// In the data only: the code never prints it, and the summary holds numbers.
const MARKER = 'north-7f3a9c';
const SALES = `region,amount\n${MARKER},12\nsouth,30\n${MARKER},0.5\n`;

const CODE = `
import csv, os
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
rows = list(csv.DictReader(open('/data/sales/sales.csv')))
totals = {}
for row in rows:
    totals[row['region']] = totals.get(row['region'], 0) + float(row['amount'])
plt.bar(range(len(totals)), list(totals.values()))
plt.savefig(os.path.join(os.environ['LLM_SANDBOX_OUTPUT_DIR'], 'totals.png'), dpi=40)
with open('/data/sales/summary.csv', 'w', newline='') as f:
    writer = csv.writer(f, lineterminator='\\n')
    writer.writerow(['regions', 'total'])
    writer.writerow([len(totals), sum(totals.values())])
print(len(rows), 'rows')
`;

describe('shared folders', () => {
    let folder;
    let session;

    before(async () => {
        folder = mkdtempSync(path.join(os.tmpdir(), 'llm-sandbox-sales-'));
        writeFileSync(path.join(folder, 'sales.csv'), SALES);
        chmodSync(path.join(folder, 'sales.csv'), 0o600);
        session = await connectClient({ LLM_SANDBOX_SHARE: `${folder}:sales:rw` });
    });

    after(async () => {
        await session?.client.close();
        if (folder) {
            rmSync(folder, { recursive: true, force: true });
        }
    });

    test('a run reads the user\'s data and its summary lands in the folder, with no byte of the data in the exchange',
        async () => {
            const { tools } = await session.client.listTools();
            const execute = tools.find((tool) => tool.name === 'execute_code');
            assert.match(execute.description, /\/data\/sales/);
            assert.ok(!execute.description.includes(folder), 'the host path is not told');

            const result = await session.client.callTool(
                { name: 'execute_code', arguments: { code: CODE } },
                undefined,
                CALL_OPTIONS,
            );
            assert.notEqual(result.isError, true, result.content?.[0]?.text);
            assert.equal(result.structuredContent.stdout, '3 rows\n', result.structuredContent.stderr);
            assert.deepEqual(result.structuredContent.saved_files.map((file) => file.path), ['/data/sales/summary.csv']);
            assert.deepEqual(result.structuredContent.not_saved, []);
            assert.ok(result.content.some((item) => item.type === 'image'), 'the chart comes back');

            const saved = path.join(folder, 'summary.csv');
            assert.equal(readFileSync(saved, 'utf8'), 'regions,total\n2,42.5\n');
            const info = statSync(saved);
            assert.equal(info.uid, process.getuid(), 'owned by the user');
            assert.equal(info.mode & 0o111, 0, 'no execute bit');
            assert.ok([0o600, 0o644].includes(info.mode & 0o777), (info.mode & 0o777).toString(8));
            assert.equal(statSync(path.join(folder, 'sales.csv')).mode & 0o777, 0o600, 'the data keeps its mode');

            // The journal's record of the exchange, as the app shows it: the request and the reply, neither with
            // the data.
            // (recorded once the reply is sent: a moment after the client has it).
            const show = () => JSON.parse(execFileSync(serverBinary, ['show', result.structuredContent.run_id, '--json'],
                { encoding: 'utf8' }));
            let run = show();
            for (let i = 0; i < 100 && !run.mcp?.response; ++i) {
                await new Promise((resolve) => setTimeout(resolve, 100));
                run = show();
            }
            assert.ok(run.mcp?.request && run.mcp?.response, 'the exchange is on record');
            const exchange = JSON.stringify(run.mcp);
            assert.ok(!exchange.includes(MARKER), 'no byte of sales.csv in the exchange');
            assert.ok(!exchange.includes(Buffer.from(SALES).toString('base64').slice(0, 16)));
            assert.deepEqual(run.saved_results.map((file) => file.sandbox_path), ['/data/sales/summary.csv']);
            assert.equal(run.saved_results[0].path, saved);
            assert.deepEqual(run.shared_folders.map((each) => [each.name, each.writable]), [['sales', true]]);
        });
});
