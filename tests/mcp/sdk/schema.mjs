// Checks every message the server sends against the protocol revision it belongs to, with the schemas the official
// SDK packages ship (nothing outside this folder's node_modules): the Zod schemas of `@modelcontextprotocol/sdk` (v1)
// for the revisions with a handshake, those of `@modelcontextprotocol/core` (v2) for 2026-07-28. Where a revision
// differs from the schemas of the SDK's latest one, the difference is stated here (REVISION_RULES, PER_REQUEST_RULES),
// each rule from the specification's own schema of that revision.
import * as v1 from '@modelcontextprotocol/sdk/types.js';
import * as v2 from '@modelcontextprotocol/core';

export const LATEST = '2025-11-25';
// The revision without a handshake: each request names it in its _meta and its answer is judged by it.
export const STATELESS = '2026-07-28';
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

// A missing or older package must fail here, in a sentence, not as a hang or a wrong verdict later.
for (const [name, exports, wanted] of [
    ['@modelcontextprotocol/sdk', v1, ['CallToolResultSchema', 'GetTaskPayloadResultSchema', 'JSONRPCErrorResponseSchema']],
    ['@modelcontextprotocol/core', v2, ['DiscoverResultSchema', 'JSONRPCResultResponseSchema']],
]) {
    const missing = wanted.filter((schema) => exports[schema]?.safeParse === undefined);
    if (missing.length > 0) {
        throw new Error(`${name} in tests/mcp/sdk/node_modules has no ${missing.join(', ')}: run npm ci there ` +
            '(scripts/lib/setup.sh install_npm_packages does)');
    }
}

// What the result of each request we send must be, by method.
const RESULT_TYPES = {
    initialize: 'InitializeResult',
    ping: 'EmptyResult',
    'logging/setLevel': 'EmptyResult',
    'tools/list': 'ListToolsResult',
    'tools/call': 'CallToolResult',
    'resources/list': 'ListResourcesResult',
    'resources/read': 'ReadResourceResult',
    'resources/templates/list': 'ListResourceTemplatesResult',
    'server/discover': 'DiscoverResult',
    'tools/call (task)': 'CreateTaskResult',
    'prompts/list': 'ListPromptsResult',
    'tasks/get': 'GetTaskResult',
    'tasks/list': 'ListTasksResult',
    'tasks/cancel': 'CancelTaskResult',
    'tasks/result': 'CallToolResult',
    'resources/subscribe': 'EmptyResult',
    'resources/unsubscribe': 'EmptyResult',
};
const NOTIFICATION_TYPES = {
    'notifications/progress': 'ProgressNotification',
    'notifications/message': 'LoggingMessageNotification',
    'notifications/tasks/status': 'TaskStatusNotification',
    'notifications/resources/updated': 'ResourceUpdatedNotification',
};

// The content blocks each revision's CallToolResult and prompt messages know (its schema's anyOf).
const CONTENT_TYPES = [
    ['2024-11-05', ['text', 'image', 'resource']],
    ['2025-03-26', ['text', 'image', 'audio', 'resource']],
    ['2025-06-18', ['text', 'image', 'audio', 'resource', 'resource_link']],
];
function contentTypesOf(version) {
    return CONTENT_TYPES.findLast(([since]) => version >= since)[1];
}

/**
 * What a revision with a handshake asks beyond the SDK's latest schemas: the problems of `value`, the `type` of
 * `version`, as sentences.
 */
function revisionProblems(version, type, value) {
    const problems = [];
    if (type === 'CallToolResult' && Array.isArray(value?.content)) {
        const known = contentTypesOf(version);
        for (const block of value.content) {
            if (!known.includes(block?.type)) {
                problems.push(`a content block of type ${JSON.stringify(block?.type)}, which ${version} does not have ` +
                    `(it has ${known.join(', ')})`);
            }
        }
    }
    if (type === 'JSONRPCErrorResponse' && version < '2025-11-25' && !('id' in value)) {
        problems.push(`an error without an id, which ${version} requires`);
    }
    return problems;
}

// The error codes 2026-07-28 names with a shape of their own, and what its `data` must hold.
const PER_REQUEST_ERRORS = {
    '-32020': { name: 'HeaderMismatchError', data: [] },
    '-32021': { name: 'MissingRequiredClientCapabilityError', data: ['requiredCapabilities'] },
    '-32022': { name: 'UnsupportedProtocolVersionError', data: ['requested', 'supported'] },
};

/** What 2026-07-28 asks beyond the v2 SDK's schemas (which are still those of 2025-11-25 plus server/discover). */
function perRequestProblems(kind, value) {
    const problems = [];
    if (kind === 'result') {
        // "Servers implementing this protocol version MUST include this field" (Result.resultType).
        if (typeof value?.resultType !== 'string') {
            problems.push('a result without resultType, which 2026-07-28 requires');
        }
        if (Array.isArray(value?.content)) {
            problems.push(...revisionProblems(STATELESS, 'CallToolResult', value));
        }
    } else if (kind === 'error') {
        const rule = PER_REQUEST_ERRORS[String(value?.error?.code)];
        for (const field of rule?.data ?? []) {
            if (value.error.data?.[field] === undefined) {
                problems.push(`a ${rule.name} without data.${field}`);
            }
        }
    }
    return problems;
}

/** Validates `value` with the SDK's schema `name` (`sdk`: v1 or v2); adds a sentence to `problems` when it fails. */
function check(sdk, version, name, value, what, problems, extra = []) {
    const schema = sdk[`${name}Schema`];
    if (schema === undefined) {
        throw new Error(`the MCP SDK's schemas have no ${name}Schema (needed for ${what} of ${version})`);
    }
    const parsed = schema.safeParse(value);
    const found = parsed.success ? [] : parsed.error.issues.slice(0, 5).map((issue) => JSON.stringify(issue));
    found.push(...extra);
    if (found.length > 0) {
        problems.push(`${what} is not a valid ${name} of ${version}: ${found.join('; ')}\n` +
            `  message: ${JSON.stringify(value).slice(0, 500)}`);
    }
}

/** A revision with a handshake: the v1 SDK's schema `name` and what `version` asks beyond it. */
function checkRevision(version, name, value, what, problems) {
    check(v1, version, name, value, what, problems, revisionProblems(version, name, value));
}

/**
 * Records what a client sends and receives on one session and validates what it received. `version` is the
 * revision until an initialize answer names another. The answer to a request of the 2026-07-28 era (its _meta names
 * a protocol version, or it is server/discover) is judged by 2026-07-28, whatever the session agreed.
 */
export class MessageLog {
    constructor(version = LATEST) {
        this.version = version;
        this.methods = new Map(); // request id -> method
        this.perRequest = new Set(); // ids of requests of the 2026-07-28 era
        this.problems = [];
        this.checked = 0;
        this.unidentified = 0;
        this.checkedPerRequest = 0;
    }

    sent(message) {
        for (const each of Array.isArray(message) ? message : [message]) {
            if (each && typeof each.method === 'string' && 'id' in each) {
                const key = JSON.stringify(each.id);
                // A task-augmented request is answered with the task, its result comes with tasks/result.
                this.methods.set(key, each.params?.task !== undefined ? `${each.method} (task)` : each.method);
                if (each.method === 'server/discover' || each.params?._meta?.[META_VERSION] !== undefined) {
                    this.perRequest.add(key);
                }
            }
        }
    }

    received(message) {
        if (Array.isArray(message)) {
            // Only 2025-03-26 names the batch; 2024-11-05 takes JSON-RPC 2.0's batches without a schema of their own.
            if (this.version > '2025-03-26') {
                this.problems.push(`a batch answered on a ${this.version} session`);
            } else if (message.length === 0) {
                this.problems.push('an empty batch, which JSON-RPC 2.0 never answers');
            }
            message.forEach((each) => this.receivedOne(each));
        } else {
            this.receivedOne(message);
        }
    }

    receivedOne(message) {
        this.checked += 1;
        if (message && !('method' in message) && this.perRequest.has(JSON.stringify(message.id))) {
            this.receivedPerRequest(message);
            return;
        }
        if (message && 'method' in message) {
            const type = NOTIFICATION_TYPES[message.method] ?? ('id' in message ? 'JSONRPCRequest' : 'JSONRPCNotification');
            if (this.version >= STATELESS) {
                check(v2, STATELESS, type, message, `notification ${message.method}`, this.problems);
            } else {
                checkRevision(this.version, type, message, `notification ${message.method}`, this.problems);
            }
            return;
        }
        if (message && 'error' in message) {
            if (this.version < '2025-11-25' && message.id === null) {
                // An error about a message whose id could not be read: JSON-RPC 2.0, which these revisions build on,
                // wants "id": null, which their schemas cannot express (2025-11-25 leaves the id out instead). The
                // rest of the message must still be right.
                this.unidentified += 1;
                checkRevision(this.version, 'JSONRPCErrorResponse', { ...message, id: 0 }, 'an error without id', this.problems);
                return;
            }
            checkRevision(this.version, 'JSONRPCErrorResponse', message, 'an error', this.problems);
            return;
        }
        const method = this.methods.get(JSON.stringify(message?.id));
        checkRevision(this.version, 'JSONRPCResultResponse', message, 'a response', this.problems);
        if (method === 'initialize' && typeof message.result?.protocolVersion === 'string') {
            // The answer to initialize is judged by the revision it names; so is everything after it.
            this.version = message.result.protocolVersion;
        }
        const type = RESULT_TYPES[method];
        if (type) {
            checkRevision(this.version, type, message.result, `the result of ${method}`, this.problems);
        }
    }

    /** The answer to a 2026-07-28 request: the response envelope, then its result or its error by code. */
    receivedPerRequest(message) {
        this.checkedPerRequest += 1;
        const method = this.methods.get(JSON.stringify(message.id));
        if ('error' in message) {
            check(v2, STATELESS, 'JSONRPCErrorResponse', message, 'an error', this.problems,
                perRequestProblems('error', message));
            return;
        }
        check(v2, STATELESS, 'JSONRPCResultResponse', message, 'a response', this.problems);
        const type = RESULT_TYPES[method];
        if (type) {
            check(v2, STATELESS, type, message.result, `the result of ${method}`, this.problems,
                perRequestProblems('result', message.result));
        } else {
            this.problems.push(`no result type known for ${method} in ${STATELESS}`);
        }
    }

    /** Throws when anything received did not validate. */
    assertValid() {
        if (this.problems.length > 0) {
            throw new Error(`${this.problems.length} message(s) break the schema:\n${this.problems.join('\n')}`);
        }
    }
}

/** Routes a transport's traffic through `log` (SDK transports call onmessage and send). */
export function recordTransport(transport, log) {
    // The SDK's Protocol chains onto the handler it finds (`const previous = transport.onmessage; transport.onmessage
    // = (m) => { previous?.(m); ... }`), so the recorder is what it finds, and the call coming back from its chain is
    // not passed on again.
    let inner;
    let passing = false;
    const recorder = (message, extra) => {
        if (passing) {
            return;
        }
        try {
            log.received(message);
        } catch (error) {
            // The check itself failed: the message still reaches the client (no request waits for ever), and
            // assertValid() says why.
            log.problems.push(`the check of a message failed: ${error.message}`);
        }
        passing = true;
        try {
            inner?.(message, extra);
        } finally {
            passing = false;
        }
    };
    Object.defineProperty(transport, 'onmessage', {
        configurable: true,
        get: () => recorder,
        set: (handler) => {
            inner = handler;
        },
    });
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
        log.sent(message);
        return send(message, options);
    };
}
