// The run view inside an assistant, for real: the official SDK client connects to `llm-sandbox --mcp` announcing
// MCP Apps (io.modelcontextprotocol/ui), runs Python that draws a chart and writes an interactive HTML chart, and the
// official host side (@modelcontextprotocol/ext-apps AppBridge) shows the view in headless Chromium (Debian's). The
// view must load, show the output and the charts, follow the host's theme and language, and its "Run again" and
// "Run with a change" must reach the server through the host: each a new run in the journal.
// Needs a container engine with the Python image. LLM_SANDBOX_SCREENSHOTS=DIR saves the view's screenshots there.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import http from 'node:http';
import dgram from 'node:dgram';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverBinary = process.env.LLM_SANDBOX_BIN ?? path.resolve(here, '../../../build/bin/llm-sandbox');
const screenshots = process.env.LLM_SANDBOX_SCREENSHOTS;
const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';
const CALL_OPTIONS = { timeout: 600000, resetTimeoutOnProgress: true };

// The interactive chart also tries to send what it read from the user's machine by WebRTC (which CSP connect-src
// does not govern): a STUN request to a UDP port of the test's. STUN_PORT is filled in once the port is open.
const CODE_TEMPLATE = `import os, sys
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
plt.plot([1, 4, 2, 8, 5], marker='o', label='a')
plt.plot([2, 3, 3, 1, 4], label='b')
plt.legend()
plt.title('Run view test')
plt.show()
with open(os.path.join(os.environ['LLM_SANDBOX_OUTPUT_DIR'], 'interactive.html'), 'w') as page:
    page.write("<!DOCTYPE html><p id='x'>static</p><script>document.getElementById('x').textContent = 'interactive ok';"
               "const pc = new RTCPeerConnection({iceServers: [{urls: 'stun:127.0.0.1:STUN_PORT'}]});"
               "pc.createDataChannel('leak'); pc.createOffer().then((offer) => pc.setLocalDescription(offer));</script>")
with open(os.path.join(os.environ['LLM_SANDBOX_OUTPUT_DIR'], 'sales.csv'), 'w') as table:
    table.write('city,sales\\nOslo,3\\nRome,97\\nLima,12\\n')
print('points: 5')
print('a warning', file=sys.stderr)
`;

// A journal of this test's own: the other lanes' tests record into the build folder's at the same time.
const env = {
    ...process.env,
    LLM_SANDBOX_JOURNAL: path.join(mkdtempSync(path.join(tmpdir(), 'run-view-')), 'journal.sqlite'),
};

/** Runs in the journal, counted by the program itself (`history --json`). */
function journalRuns() {
    const runs = execFileSync(serverBinary, ['history', '--json', '--limit', '1000'], { encoding: 'utf8', env });
    return JSON.parse(runs).length;
}

async function until(condition, what, ms = 60000) {
    const deadline = Date.now() + ms;
    for (;;) {
        if (await condition()) {
            return;
        }
        if (Date.now() > deadline) {
            throw new Error(`${what}: not within ${ms} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
}

describe('the run view in an MCP Apps host', () => {
    let client;
    let server;
    let browser;
    let page;
    let tools;
    let stun;
    let code;
    const requests = [];
    const datagrams = [];

    before(async () => {
        stun = dgram.createSocket('udp4');
        stun.on('message', (message, from) => datagrams.push(`${from.address}:${from.port} ${message.length} bytes`));
        stun.bind(0, '127.0.0.1');
        await once(stun, 'listening');
        code = CODE_TEMPLATE.replace('STUN_PORT', String(stun.address().port));

        const transport = new StdioClientTransport({
            command: serverBinary,
            args: ['--mcp'],
            env,
            stderr: 'pipe',
        });
        client = new Client(
            { name: 'llm-sandbox-apps-host', version: '1.0.0' },
            { capabilities: { extensions: { [UI]: { mimeTypes: [MIME] } } } },
        );
        await client.connect(transport);
        tools = (await client.listTools()).tools;

        // The host page and its script, bundled with the AppBridge for the browser.
        const bundle = await esbuild.build({
            entryPoints: [path.join(here, 'host.mjs')],
            bundle: true,
            format: 'esm',
            platform: 'browser',
            write: false,
            logLevel: 'silent',
        });
        const files = {
            '/': { type: 'text/html', body: readFileSync(path.join(here, 'host.html')) },
            '/host.js': { type: 'text/javascript', body: bundle.outputFiles[0].contents },
        };
        server = http.createServer((request, response) => {
            const file = files[request.url];
            response.writeHead(file ? 200 : 404, { 'Content-Type': file?.type ?? 'text/plain' });
            response.end(file?.body ?? '');
        });
        server.listen(0, '127.0.0.1');
        await once(server, 'listening');

        browser = await chromium.launch({
            executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
            // The flags a headless Chromium needs on these machines (as root, no GPU, no network of its own).
            args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
                '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
        });
        page = await browser.newPage({ viewport: { width: 820, height: 900 }, deviceScaleFactor: 1 });
        page.on('request', (request) => requests.push(request.url()));
        // The host's side of the view's calls: as a host must, it refuses a tool the app may not call.
        await page.exposeFunction('hostCallTool', async (params) => {
            const tool = tools.find((candidate) => candidate.name === params.name);
            const visibility = tool?._meta?.ui?.visibility ?? ['model', 'app'];
            if (!tool || !visibility.includes('app')) {
                throw new Error(`the view may not call ${params.name}`);
            }
            return client.callTool(params, undefined, CALL_OPTIONS);
        });
        await page.exposeFunction('hostReadResource', (params) => client.readResource(params));
        await page.goto(`http://127.0.0.1:${server.address().port}/`);
    });

    after(async () => {
        await browser?.close();
        server?.close();
        stun?.close();
        await client?.close();
    });

    /** The view's frame, and an element in it. */
    const view = () => page.frameLocator('#view');

    test('the view loads with the run, its output and its charts', async () => {
        const executeCode = tools.find((tool) => tool.name === 'execute_code');
        const uri = executeCode._meta?.ui?.resourceUri;
        assert.equal(uri, 'ui://llm-sandbox/run-view');
        const resource = (await client.readResource({ uri })).contents[0];
        assert.equal(resource.mimeType, MIME);
        assert.deepEqual(resource._meta.ui.csp.connectDomains, []);
        assert.ok(Buffer.byteLength(resource.text) < 100 * 1024, `${Buffer.byteLength(resource.text)} bytes`);

        const runsBefore = journalRuns();
        const toolArguments = { code, language: 'python' };
        const result = await client.callTool({ name: 'execute_code', arguments: toolArguments }, undefined, CALL_OPTIONS);
        assert.equal(result.structuredContent?.exit_code, 0, JSON.stringify(result.structuredContent));
        assert.equal(journalRuns(), runsBefore + 1);

        await page.evaluate((args) => window.mountView(args), {
            html: resource.text,
            toolArguments,
            toolResult: result,
            theme: 'light',
            locale: 'en-US',
        });
        await view().locator('#stdout').getByText('points: 5').waitFor();
        assert.equal(await view().locator('#stderr').textContent(), 'a warning\n');
        assert.equal(await view().locator('#outcome').textContent(), 'Exit code 0');
        assert.match(await view().locator('#metrics').textContent(), /Finished in .*CPU .*Peak memory/);
        assert.equal(await view().locator('#counter').textContent(), '1 of 2');
        // The chart is a real, decoded image.
        const img = view().locator('#stage img');
        await until(() => img.evaluate((element) => element.complete && element.naturalWidth > 0), 'the chart decoding');
        assert.equal(await view().locator('#chartName').textContent(), 'figure_1.png');
        // Zoom: to the picture's own size and back.
        const fitted = await img.evaluate((element) => element.clientWidth);
        await view().locator('#zoomIn').click();
        assert.ok((await img.evaluate((element) => element.clientWidth)) > fitted);
        await view().locator('#zoomFit').click();
        assert.equal(await img.evaluate((element) => element.clientWidth), fitted);
        // The data behind the picture, drawn on request: a point's values on hover, a series off from the legend, the
        // picture one click away.
        await view().locator('#chartMode').click();
        await view().locator('#stage svg.plot').waitFor();
        await view().locator('#stage [data-series="0"] circle').nth(3).hover();
        await view().locator('#chartTip:not([hidden])').waitFor();
        assert.equal(await view().locator('#chartTip').textContent(), 'a: 3, 8');
        await view().locator('.legend button').nth(1).click();
        assert.equal(await view().locator('.legend button').nth(1).getAttribute('aria-pressed'), 'false');
        assert.equal(await view().locator('#stage [data-series="1"]').count(), 0);
        assert.equal(await view().locator('#stage [data-series="0"] circle').count(), 5);
        if (screenshots) {
            mkdirSync(screenshots, { recursive: true });
            await page.screenshot({ path: path.join(screenshots, 'mcp-app-run-view-chart-data.png'), fullPage: true });
        }
        await view().locator('#chartMode').click();
        await view().locator('#stage img').waitFor();
        // The code, with its language.
        assert.equal(await view().locator('#codeLang').textContent(), 'python');
        if (screenshots) {
            mkdirSync(screenshots, { recursive: true });
            await view().locator('#codeDetails summary').click();
            await page.screenshot({ path: path.join(screenshots, 'mcp-app-run-view.png'), fullPage: true });
            await view().locator('#codeDetails summary').click();
        }

        // Next: the interactive chart (read through the host). Nothing of it runs until the user asks: no frame, and
        // nothing reaches the test's UDP port within 5 s of the view rendering.
        const rendered = Date.now();
        await view().locator('#next').click();
        assert.equal(await view().locator('#counter').textContent(), '2 of 2');
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, rendered + 5000 - Date.now())));
        assert.deepEqual(datagrams, []);
        assert.equal(await view().locator('iframe').count(), 0);
        await view().locator('#runChart').waitFor();
        if (screenshots) {
            await page.screenshot({ path: path.join(screenshots, 'mcp-app-run-view-html-chart.png'), fullPage: true });
        }
        // Asked: it runs in a sandboxed frame of its own.
        await view().locator('#runChart').click();
        const chartFrame = view().locator('#stage iframe');
        assert.equal(await chartFrame.getAttribute('sandbox'), 'allow-scripts');
        await view().frameLocator('#stage iframe').getByText('interactive ok').waitFor();
    });

    test('a table the run wrote is a grid to sort, read through the host when asked', async () => {
        const file = view().locator('#files li', { hasText: 'sales.csv' });
        await file.locator('.showTable').click();
        const rows = file.locator('.grid tbody tr');
        await rows.first().waitFor();
        assert.equal(await rows.count(), 3);
        assert.equal(await rows.first().locator('td').first().textContent(), 'Oslo');
        const sales = file.locator('.grid th', { hasText: 'sales' });
        await sales.click();
        assert.equal(await sales.getAttribute('aria-sort'), 'ascending');
        assert.equal(await rows.first().locator('td').first().textContent(), 'Oslo');
        await sales.click();
        assert.equal(await rows.first().locator('td').first().textContent(), 'Rome', 'numbers sort as numbers');
        assert.equal(await file.locator('.pager span').textContent(), 'Rows 1–3 of 3');
        if (screenshots) {
            await page.screenshot({ path: path.join(screenshots, 'mcp-app-run-view-table.png'), fullPage: true });
        }
        await file.locator('.showTable').click();
        assert.equal(await file.locator('.grid').count(), 0);
    });

    test('the view follows the host\'s theme and language', async () => {
        const background = () => view().locator('body').evaluate((body) => getComputedStyle(body).backgroundColor);
        const light = await background();
        await page.evaluate(() => window.changeHostContext({ theme: 'dark' }));
        await until(async () => (await background()) !== light, 'the dark theme');
        await view().locator('#prev').click();
        if (screenshots) {
            await page.screenshot({ path: path.join(screenshots, 'mcp-app-run-view-dark.png'), fullPage: true });
        }
        await page.evaluate(() => window.changeHostContext({ locale: 'zh-CN' }));
        await view().getByText('再次运行').waitFor();
        assert.equal(await view().locator('#outcome').textContent(), '退出码 0');
        assert.equal(await view().locator('#counter').textContent(), '第 1 个，共 2 个');
        if (screenshots) {
            await page.screenshot({ path: path.join(screenshots, 'zh_CN', 'mcp-app-run-view.png'), fullPage: true });
        }
        await page.evaluate(() => window.changeHostContext({ theme: 'light', locale: 'en-US' }));
        await view().getByText('Run again').waitFor();
    });

    test('Run again and Run with a change reach the server through the host', async () => {
        const runsBefore = journalRuns();
        await view().locator('#again').click();
        await until(() => journalRuns() === runsBefore + 1, 'the second run in the journal');
        await until(async () => !(await view().locator('#again').isDisabled()), 'the view after its run');
        assert.equal(await view().locator('#outcome').textContent(), 'Exit code 0');

        await view().locator('#change').click();
        await view().locator('#source').fill("import sys\nprint('changed')\nsys.exit(3)");
        await view().locator('#runEdited').click();
        await view().locator('#stdout').getByText('changed').waitFor();
        assert.equal(await view().locator('#outcome').textContent(), 'Exit code 3');
        assert.equal(await view().locator('#editor').isHidden(), true);
        // The journal takes a run's row on its writer thread, after the answer: wait for it as for the first.
        await until(() => journalRuns() === runsBefore + 2, 'the changed run in the journal');
        // A run without charts has none to show.
        assert.equal(await view().locator('#chartsBox').isHidden(), true);
    });

    test('the view says what a run read of the user\'s folders and saved into them, as text', async () => {
        const resource = (await client.readResource({ uri: 'ui://llm-sandbox/run-view' })).contents[0];
        const run = {
            exit_code: 0, stdout: 'done\n', stderr: '', duration_ms: 5, stop_reason: 'exit', artifacts: [],
            shared_folders: [{ name: 'sales', path: '/data/sales', writable: true, files: 2, bytes: 35 }],
            saved_files: [{ path: '/data/sales/summary.csv', size: 2048, sha256: 'ab' }],
            not_saved: [{ path: '/data/sales/<img src=x onerror=alert(1)>', reason: 'A symbolic link is not saved.' }],
        };
        await page.evaluate((args) => window.mountView(args), {
            html: resource.text,
            toolArguments: { code: 'print(1)' },
            toolResult: { content: [{ type: 'text', text: JSON.stringify(run) }], structuredContent: run },
            theme: 'light',
            locale: 'en-US',
        });
        await view().locator('#foldersBox').waitFor();
        const lines = await view().locator('#folders li').allTextContents();
        assert.deepEqual(lines, [
            'Saved /data/sales/summary.csv2 KiB',
            'Not saved /data/sales/<img src=x onerror=alert(1)>A symbolic link is not saved.',
            'Read /data/salesresults may be saved',
        ]);
        assert.equal(await view().locator('#folders img').count(), 0, 'a name is text, never markup');
    });

    test('the view lists a run\'s requests through its proxy, refused ones with why, secrets by name, as text', async () => {
        const resource = (await client.readResource({ uri: 'ui://llm-sandbox/run-view' })).contents[0];
        const run = {
            exit_code: 0, stdout: 'done\n', stderr: '', duration_ms: 5, stop_reason: 'exit', artifacts: [],
            network: {
                allowed: ['api.test'],
                connections: [
                    { host: 'api.test', port: 443, method: 'CONNECT', allowed: true, status: 200, bytes_in: 4096,
                        bytes_out: 512, duration_ms: 12, started_ms: 1 },
                    { host: 'api.github.com', port: 443, method: 'GET', allowed: true, status: 200, bytes_in: 2048,
                        bytes_out: 256, duration_ms: 30, started_ms: 2, secret: '<b>GITHUB_TOKEN</b>' },
                    { host: '<img src=x onerror=alert(1)>', port: 80, method: 'GET', allowed: false, status: 403,
                        reason: 'not an allowed host', bytes_in: 0, bytes_out: 0, duration_ms: 0, started_ms: 2 },
                ],
            },
        };
        await page.evaluate((args) => window.mountView(args), {
            html: resource.text,
            toolArguments: { code: 'print(1)' },
            toolResult: { content: [{ type: 'text', text: JSON.stringify(run) }], structuredContent: run },
            theme: 'light',
            locale: 'en-US',
        });
        await view().locator('#networkBox').waitFor();
        assert.equal(await view().locator('#networkAllowed').textContent(), 'Allowed: api.test');
        assert.deepEqual(await view().locator('#network li').allTextContents(), [
            'CONNECT api.test:443200 · 4 KiB in · 512 B out',
            'GET api.github.com:443secret: <b>GITHUB_TOKEN</b>200 · 2 KiB in · 256 B out',
            'GET <img src=x onerror=alert(1)>:80Refused: not an allowed host',
        ]);
        // The secret's name, in a tag of its own, only where the proxy added one; text, never markup.
        assert.deepEqual(await view().locator('#network li .tag').allTextContents(), ['secret: <b>GITHUB_TOKEN</b>']);
        assert.equal(await view().locator('#network img, #network b').count(), 0, 'a host is text, never markup');
        assert.equal(await view().locator('#foldersBox').isHidden(), true);
    });

    test('a chart a program wrote as JSON is drawn from its data, with no picture to go back to', async () => {
        const resource = (await client.readResource({ uri: 'ui://llm-sandbox/run-view' })).contents[0];
        // The chart as the server reads a Vega-Lite file (ChartData::ofSpecification, proved by its unit test and by
        // CaptureTest on every engine).
        const chart = {
            library: 'vega-lite', kind: 'scatter', title: 'Growth', axes: [{
                title: '', x: { label: 't', scale: 'linear', range: [1, 3] }, y: { label: 'v', scale: 'linear', range: [2, 7] },
                series: [{ name: '', kind: 'scatter', points: 3, x: [1, 2, 3], y: [2, 4, 7], truncated: false }],
                legend: [], annotations: [],
            }],
        };
        const run = {
            exit_code: 0, stdout: '', stderr: '', duration_ms: 5, stop_reason: 'exit',
            artifacts: [{ name: 'growth.vl.json', mime_type: 'application/json', size: 180, chart }],
        };
        const link = { type: 'resource_link', uri: 'sandbox://runs/r/artifacts/growth.vl.json', name: 'growth.vl.json',
            mimeType: 'application/json', size: 180 };
        await page.evaluate((args) => window.mountView(args), {
            html: resource.text,
            toolArguments: { code: 'print(1)', language: 'javascript' },
            toolResult: { content: [{ type: 'text', text: JSON.stringify(run) }, link], structuredContent: run },
            theme: 'light',
            locale: 'en-US',
        });
        await view().locator('#stage svg.plot').waitFor();
        assert.equal(await view().locator('#chartName').textContent(), 'growth.vl.json');
        assert.equal(await view().locator('#chartMode').isHidden(), true, 'no picture to switch to');
        await view().locator('#stage [data-series="0"] circle').nth(2).hover();
        await view().locator('#chartTip:not([hidden])').waitFor();
        assert.equal(await view().locator('#chartTip').textContent(), '3, 7');
        assert.deepEqual(await view().locator('#files li > span:first-child').allTextContents(), ['growth.vl.json']);
    });

    test('the view reached no origin but the host page\'s', () => {
        const origin = `http://127.0.0.1:${server.address().port}/`;
        const elsewhere = requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:') &&
            !url.startsWith('about:') && !url.startsWith('blob:'));
        assert.deepEqual(elsewhere, []);
    });
});
