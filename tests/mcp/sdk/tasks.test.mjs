// Long runs as tasks (MCP 2025-11-25), for real through the official SDK's task client: the call answers at once,
// the run goes on, tasks/get and tasks/list follow it, tasks/result brings its result and tasks/cancel kills it.
// Needs a container engine with the sandbox images.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';

import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';

import { connectClient, connectHttp, startHttpServer, within } from './helpers.mjs';

const CALL_OPTIONS = { timeout: 600000, resetTimeoutOnProgress: true };

describe('tasks', () => {
    let session;

    before(async () => {
        session = await connectClient();
        // The SDK learns here which tools may run as tasks (execution.taskSupport).
        const { tools } = await session.client.listTools();
        assert.equal(tools.find((tool) => tool.name === 'execute_code').execution?.taskSupport, 'optional');
        assert.ok(session.client.getServerCapabilities().tasks?.requests?.tools?.call, 'tasks capability');
    });

    after(async () => {
        await session?.client.close();
    });

    test('a task-augmented execute_code streams the task, then the result', async () => {
        const messages = [];
        for await (const message of session.client.experimental.tasks.callToolStream(
            { name: 'execute_code', arguments: { code: 'import time\ntime.sleep(1)\nprint(6 * 7)' } },
            CallToolResultSchema,
            { ...CALL_OPTIONS, task: { ttl: 120000 } },
        )) {
            messages.push(message);
        }
        const types = messages.map((message) => message.type);
        assert.equal(types[0], 'taskCreated', types.join(','));
        assert.equal(types.at(-1), 'result', JSON.stringify(messages.at(-1)));
        const taskId = messages[0].task.taskId;
        const result = messages.at(-1).result;
        assert.equal(result.structuredContent.stdout, '42\n');
        assert.equal(result._meta['io.modelcontextprotocol/related-task'].taskId, taskId);

        const task = await session.client.experimental.tasks.getTask(taskId);
        assert.equal(task.status, 'completed');
        assert.equal(task.ttl, 120000);
        const { tasks } = await session.client.experimental.tasks.listTasks();
        assert.ok(tasks.some((listed) => listed.taskId === taskId && listed.status === 'completed'));
        session.log.assertValid();
    });

    test('tasks/cancel kills a long run at once', async () => {
        const created = await session.client.request(
            {
                method: 'tools/call',
                params: {
                    name: 'execute_code',
                    arguments: { code: 'import time\nprint("started", flush=True)\ntime.sleep(300)', timeout: 600 },
                    task: { ttl: 120000 },
                },
            },
            CreateTaskResultSchema,
        );
        const taskId = created.task.taskId;
        assert.equal(created.task.status, 'working');
        // The result is waited for beside the cancel, as a client waiting for it would.
        const pending = session.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, CALL_OPTIONS);
        await new Promise((resolve) => setTimeout(resolve, 2000));
        assert.equal((await session.client.experimental.tasks.getTask(taskId)).status, 'working');

        const cancelled = await session.client.experimental.tasks.cancelTask(taskId);
        assert.equal(cancelled.status, 'cancelled');
        // The run ends now, not after its 300 s sleep or 600 s timeout.
        const result = await within(60000, pending, 'the cancelled task\'s result');
        const run = JSON.parse(result.content[0].text);
        assert.equal(run.stop_reason, 'cancelled', result.content[0].text);
        assert.equal((await session.client.experimental.tasks.getTask(taskId)).status, 'cancelled');
        await assert.rejects(session.client.experimental.tasks.cancelTask(taskId), (error) => {
            assert.equal(error.code, -32602);
            return true;
        });
        session.log.assertValid();
    });

    test('over HTTP a task outlives its client\'s connection, not its MCP session', async () => {
        const token = randomBytes(32).toString('base64url');
        const server = await startHttpServer(token);
        const connect = (sessionId) => connectHttp(server.url, token, sessionId);
        const startTask = (client, code) =>
            client.request(
                { method: 'tools/call', params: { name: 'execute_code', arguments: { code }, task: {} } },
                CreateTaskResultSchema,
            );
        try {
            const first = await connect();
            const sessionId = first.transport.sessionId;
            const { task } = await startTask(first.client, 'import time\ntime.sleep(2)\nprint("still here")');
            // The connection goes (an assistant restarts, the network drops) without ending the MCP session.
            await first.transport.close();

            const second = await connect(sessionId);
            const result = await second.client.experimental.tasks.getTaskResult(
                task.taskId,
                CallToolResultSchema,
                CALL_OPTIONS,
            );
            assert.equal(result.structuredContent.stdout, 'still here\n');

            // Another MCP session does not see it.
            const stranger = await connect();
            await assert.rejects(stranger.client.experimental.tasks.getTask(task.taskId), (error) => {
                assert.equal(error.code, -32602);
                return true;
            });

            // Ending the session (DELETE) ends its running tasks.
            const long = await startTask(second.client, 'import time\ntime.sleep(300)');
            assert.equal(long.task.status, 'working');
            await second.transport.terminateSession();
            await within(
                30000,
                new Promise((resolve) => {
                    const check = () =>
                        /session ended: stopping 1 running task/.test(server.stderr()) ? resolve() : setTimeout(check, 50);
                    check();
                }),
                'the session\'s task stopping',
            );
            const renewed = await connect(sessionId).catch((error) => error);
            if (!(renewed instanceof Error)) {
                await assert.rejects(renewed.client.experimental.tasks.getTask(long.task.taskId));
            }
            await stranger.client.close();
            first.log.assertValid();
            second.log.assertValid();
        } finally {
            server.child.kill('SIGTERM');
        }
    });
});
