// Checks every message the server sends against the official JSON Schema of the protocol revision the session
// negotiated (the schemas of the specification repository, kept in ../shared/spec/mcp beside the project; set
// MCP_SCHEMA_DIR to use another copy). A missing schema fails the tests rather than skipping the check.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const here = path.dirname(fileURLToPath(import.meta.url));
export const schemaDir = process.env.MCP_SCHEMA_DIR ?? path.resolve(here, '../../../../shared/spec/mcp');
export const LATEST = '2025-11-25';
// The revision without a handshake: each request names it in its _meta and its answer is judged by it.
export const STATELESS = '2026-07-28';
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

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
// The errors 2026-07-28 names by code: the JSON-RPC ones as the `error` member, its own as the whole response.
const ERROR_OBJECT_TYPES = {
    '-32700': 'ParseError',
    '-32600': 'InvalidRequestError',
    '-32601': 'MethodNotFoundError',
    '-32602': 'InvalidParamsError',
    '-32603': 'InternalError',
};
const ERROR_RESPONSE_TYPES = {
    '-32020': 'HeaderMismatchError',
    '-32021': 'MissingRequiredClientCapabilityError',
    '-32022': 'UnsupportedProtocolVersionError',
};
const NOTIFICATION_TYPES = {
    'notifications/progress': 'ProgressNotification',
    'notifications/message': 'LoggingMessageNotification',
    'notifications/tasks/status': 'TaskStatusNotification',
    'notifications/resources/updated': 'ResourceUpdatedNotification',
};

const validators = new Map();

/** The compiled schema of `version`, with a function per definition name. */
function schemaFor(version) {
    if (!validators.has(version)) {
        const schema = JSON.parse(readFileSync(path.join(schemaDir, `schema-${version}.json`), 'utf8'));
        const modern = String(schema.$schema).includes('2020-12');
        const ajv = modern ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true });
        addFormats(ajv);
        ajv.addFormat('uri-template', true);
        ajv.addFormat('byte', /^[A-Za-z0-9+/]*={0,2}$/);
        const id = `mcp-${version}`;
        ajv.addSchema({ ...schema, $id: id });
        const definitions = modern ? '$defs' : 'definitions';
        const cache = new Map();
        validators.set(version, (name) => {
            if (!cache.has(name)) {
                if (!(name in schema[definitions])) {
                    throw new Error(`schema ${version} has no ${name}`);
                }
                cache.set(name, ajv.getSchema(`${id}#/${definitions}/${name}`));
            }
            return cache.get(name);
        });
    }
    return validators.get(version);
}

function check(version, name, value, what, problems) {
    const validate = schemaFor(version)(name);
    if (!validate(value)) {
        problems.push(`${what} is not a valid ${name} of ${version}: ${JSON.stringify(validate.errors.slice(0, 5))}\n` +
            `  message: ${JSON.stringify(value).slice(0, 500)}`);
    }
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
            // 2025-03-26 names the batch; 2024-11-05 takes JSON-RPC 2.0's batches without a schema of their own.
            if (this.version === '2025-03-26') {
                check(this.version, 'JSONRPCBatchResponse', message, 'a batch', this.problems);
            } else if (this.version > '2025-03-26') {
                this.problems.push(`a batch answered on a ${this.version} session`);
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
        if (message && 'method' in message && this.version >= STATELESS) {
            check(STATELESS, NOTIFICATION_TYPES[message.method] ?? 'JSONRPCNotification', message,
                `notification ${message.method}`, this.problems);
            return;
        }
        const modern = this.version >= '2025-11-25';
        if (message && 'method' in message) {
            const type = NOTIFICATION_TYPES[message.method] ?? ('id' in message ? 'JSONRPCRequest' : 'JSONRPCNotification');
            check(this.version, type, message, `notification ${message.method}`, this.problems);
            return;
        }
        if (message && 'error' in message) {
            if (!modern && message.id === null) {
                // An error about a message whose id could not be read: JSON-RPC 2.0, which these revisions build on,
                // wants "id": null, which their schemas cannot express (2025-11-25 leaves the id out instead). The
                // rest of the message must still be right.
                this.unidentified += 1;
                check(this.version, 'JSONRPCError', { ...message, id: 0 }, 'an error without id', this.problems);
                return;
            }
            check(this.version, modern ? 'JSONRPCErrorResponse' : 'JSONRPCError', message, 'an error', this.problems);
            return;
        }
        const method = this.methods.get(JSON.stringify(message?.id));
        check(this.version, modern ? 'JSONRPCResultResponse' : 'JSONRPCResponse', message, 'a response',
            this.problems);
        if (method === 'initialize' && typeof message.result?.protocolVersion === 'string') {
            // The answer to initialize is judged by the revision it names; so is everything after it.
            this.version = message.result.protocolVersion;
        }
        const type = RESULT_TYPES[method];
        if (type) {
            check(this.version, type, message.result, `the result of ${method}`, this.problems);
        }
    }

    /** The answer to a 2026-07-28 request: the response envelope, then its result or its error by code. */
    receivedPerRequest(message) {
        this.checkedPerRequest += 1;
        const method = this.methods.get(JSON.stringify(message.id));
        if ('error' in message) {
            check(STATELESS, 'JSONRPCErrorResponse', message, 'an error', this.problems);
            const code = String(message.error?.code);
            if (ERROR_OBJECT_TYPES[code]) {
                const type = ERROR_OBJECT_TYPES[code];
                check(STATELESS, type, message.error, `a ${type}`, this.problems);
            } else if (ERROR_RESPONSE_TYPES[code]) {
                check(STATELESS, ERROR_RESPONSE_TYPES[code], message, `a ${ERROR_RESPONSE_TYPES[code]}`, this.problems);
            }
            return;
        }
        check(STATELESS, 'JSONRPCResultResponse', message, 'a response', this.problems);
        const type = RESULT_TYPES[method];
        if (type) {
            check(STATELESS, type, message.result, `the result of ${method}`, this.problems);
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
        log.received(message);
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
