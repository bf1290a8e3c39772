// Shared by the SDK tests: where the binary is, an SDK client connected to it, and a raw line-level session.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { MessageLog, recordTransport } from './schema.mjs';

// CMake passes the build's binary; by hand, the checkout's build folder. A missing one fails every test at once, named.
export const serverBinary =
    process.env.LLM_SANDBOX_BIN ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../build/bin/llm-sandbox');
if (!existsSync(serverBinary)) {
    throw new Error(`the program under test, ${serverBinary}, does not exist: build it (cmake --build build) or set ` +
        'LLM_SANDBOX_BIN');
}

/**
 * An official SDK client connected to `llm-sandbox --mcp`; `errors` collects transport/protocol errors, `log` checks
 * every message the server sent against the schema of the negotiated revision (log.assertValid()).
 */
export async function connectClient(env = {}) {
    const transport = new StdioClientTransport({
        command: serverBinary,
        args: ['--mcp'],
        // The server reads BACKEND, DOCKER_HOST, ... exactly as Claude Desktop's `env` block passes them.
        env: { ...process.env, ...env },
        stderr: 'pipe',
    });
    const log = new MessageLog();
    recordTransport(transport, log);
    let stderr = '';
    transport.stderr?.on('data', (chunk) => {
        stderr += chunk;
    });
    const client = new Client({ name: 'llm-sandbox-sdk-test', version: '1.0.0' });
    const errors = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);
    return { client, transport, errors, log, stderr: () => stderr };
}

/**
 * An official SDK client connected to `serve --http` at `url` with the bearer `token`; with `sessionId` it resumes
 * that MCP session instead of initializing a new one. `log` checks what the server sent (log.assertValid()).
 */
export async function connectHttp(url, token, sessionId = undefined) {
    const transport = new StreamableHTTPClientTransport(url, {
        sessionId,
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    const log = new MessageLog();
    recordTransport(transport, log);
    const client = new Client({ name: 'llm-sandbox-http-test', version: '1.0.0' });
    await client.connect(transport);
    return { client, transport, log };
}

/**
 * Starts the server without an SDK: send() writes one line, next() resolves the next stdout line parsed; `log`
 * checks what the server sent against the schema of the negotiated revision.
 */
export function rawSession(env = {}) {
    const child = spawn(serverBinary, ['--mcp'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    const log = new MessageLog();
    const lines = [];
    const waiters = [];
    let stderr = '';
    child.stderr.on('data', (chunk) => {
        stderr += chunk;
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
        // Anything on stdout that is not one JSON message breaks every MCP client: next() rejects with it.
        let message;
        try {
            message = JSON.parse(line);
        } catch {
            message = new Error(`not a JSON-RPC message on stdout: ${line.slice(0, 200)}`);
        }
        if (!(message instanceof Error)) {
            try {
                log.received(message);
            } catch (error) {
                // The schema check itself failed (a missing schema file): say so, not that the message was bad.
                message = error;
            }
        }
        const waiter = waiters.shift();
        if (waiter) {
            waiter(message);
        } else {
            lines.push(message);
        }
    });
    const exited = once(child, 'exit');
    return {
        child,
        exited,
        log,
        stderr: () => stderr,
        send(message) {
            if (typeof message !== 'string') {
                log.sent(message);
            }
            child.stdin.write(typeof message === 'string' ? `${message}\n` : `${JSON.stringify(message)}\n`);
        },
        next() {
            const settle = (message) => (message instanceof Error ? Promise.reject(message) : Promise.resolve(message));
            if (lines.length > 0) {
                return settle(lines.shift());
            }
            return new Promise((resolve) => waiters.push(resolve)).then(settle);
        },
    };
}

/** Rejects when `promise` takes longer than `ms`. */
export function within(ms, promise, what) {
    let timer;
    const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export const initializeRequest = (id, protocolVersion) => ({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-test', version: '1' } },
});

/** Starts `serve --http 127.0.0.1:0` (a free port) and resolves with its URL once it listens. */
export async function startHttpServer(token) {
    const child = spawn(serverBinary, ['serve', '--http', '127.0.0.1:0'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, LLM_SANDBOX_HTTP_TOKEN: token },
    });
    let stderr = '';
    const url = await within(
        20000,
        new Promise((resolve, reject) => {
            child.stderr.on('data', (chunk) => {
                stderr += chunk;
                const match = stderr.match(/serving MCP over Streamable HTTP at (http:\/\/\S+\/mcp)/);
                if (match) {
                    resolve(new URL(match[1]));
                }
            });
            child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${stderr}`)));
        }),
        'serve --http starting',
    );
    return { child, url, stderr: () => stderr };
}

/** The engine's own CLI, as the network tests make their servers with it: docker, or podman with BACKEND=podman. */
export const engineCli = process.env.BACKEND === 'podman' ? 'podman' : 'docker';

function engine(...args) {
    return execFileSync(engineCli, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Removes what startApiServer(`network`, ...) made, if anything. */
export function removeApiServer(network) {
    try { engine('rm', '-f', `${network}-api`); } catch { /* not there */ }
    try { engine('network', 'rm', network); } catch { /* not there */ }
}

/**
 * api.test for a run's egress proxy to reach (issue 48): `code` run by python3 in the Python sandbox image (built if
 * need be), on a container network `network` of its own at `${subnet}.10`, a public-looking address; `options` are
 * more `run` options (environment, volumes). Nothing leaves this machine.
 */
export function startApiServer(network, subnet, code, options = []) {
    removeApiServer(network);
    execFileSync(serverBinary, ['images', 'build', 'python'], { stdio: 'ignore' });
    const image = execFileSync(serverBinary, ['images', 'list'], { encoding: 'utf8' }).match(/^python\s+\S+\s+(\S+)/m)[1];
    engine('network', 'create', '--subnet', `${subnet}.0/24`, network);
    engine('run', '-d', '--name', `${network}-api`, '--network', network, '--network-alias', 'api.test', '--ip',
        `${subnet}.10`, '--user', '0', '--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024', ...options,
        '--entrypoint', 'python3', image, '-c', code);
}
