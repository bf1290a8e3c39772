// The assistants' own programs read what `llm-sandbox install-mcp` wrote (issue 54). Claude Code, the Gemini CLI and
// the Codex CLI, installed from npm (package-lock.json; scripts/lib/setup.sh runs `npm ci` here), each run their own
// `mcp list` with HOME in a folder of the test's own: after `install-mcp --client NAME` Claude Code and the Gemini CLI
// report the server connected (a real handshake with `llm-sandbox --mcp`; the Gemini CLI connects servers only in a
// trusted folder, so the test trusts its own) and Codex lists it enabled (its `mcp list` starts no server), from its
// TOML; after `uninstall-mcp` none lists it. Offline: `mcp list` needs no network. Qwen Code (@qwen-code/qwen-code
// 0.15) is left out: its lock file cannot be installed with `npm ci` (an optional clipboard package names platform
// packages the registry does not have); by hand it reports llm-sandbox connected the same way.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const binary = process.env.LLM_SANDBOX_BIN ?? path.resolve(here, '../../../../build/bin/llm-sandbox');
const modules = path.join(here, 'node_modules');

// Claude Code's npm package installs its native program as a package of the platform's own (its postinstall, which
// npm no longer runs unasked, would only copy it into place).
const connected = /llm-sandbox: .*- (✔ |✓ )?Connected\s*$/m;
const clients = [
    {
        name: 'claude-code', program: path.join(modules, `@anthropic-ai/claude-code-linux-${process.arch}`, 'claude'),
        listed: connected,
    },
    { name: 'gemini', program: path.join(modules, '.bin', 'gemini'), trust: '.gemini', listed: connected },
    // `codex mcp list` prints a table; --json says the same as data.
    { name: 'codex', program: path.join(modules, '.bin', 'codex'), json: true,
        listed: /"name": "llm-sandbox",\s*"enabled": true,/ },
];

/** A home folder of the test's own with a project folder in it, trusted where the client asks for that. */
function newHome(client) {
    const home = mkdtempSync(path.join(tmpdir(), `clients-${client.name}-`));
    const project = path.join(home, 'project');
    mkdirSync(project);
    if (client.trust) {
        mkdirSync(path.join(home, client.trust));
        writeFileSync(path.join(home, client.trust, 'trustedFolders.json'),
            JSON.stringify({ [project]: 'TRUST_FOLDER' }));
    }
    return { home, project };
}

function environment(home) {
    const env = { ...process.env, HOME: home, NO_COLOR: '1', DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
    delete env.XDG_CONFIG_HOME;
    return env;
}

/** The client's own `mcp list`, its colours taken out. */
function mcpList(client, home, project) {
    const listed = spawnSync(client.program, ['mcp', 'list', ...(client.json ? ['--json'] : [])],
        { cwd: project, env: environment(home), encoding: 'utf8', timeout: 90000 });
    // eslint-disable-next-line no-control-regex
    return `${listed.stdout}${listed.stderr}`.replace(/\u001b\[[0-9;]*m/g, '');
}

describe('assistants read what install-mcp wrote', () => {
    for (const client of clients) {
        test(`${client.name}: lists the server install-mcp wrote, none after uninstall-mcp`, () => {
            assert.ok(existsSync(client.program), `${client.program} (npm ci in ${here})`);
            const { home, project } = newHome(client);
            const env = environment(home);
            execFileSync(binary, ['install-mcp', '--client', client.name, '--backend', 'docker'], { env });
            const listed = mcpList(client, home, project);
            assert.match(listed, client.listed, listed);
            execFileSync(binary, ['uninstall-mcp', '--client', client.name], { env });
            const after = mcpList(client, home, project);
            assert.doesNotMatch(after, /llm-sandbox/, after);
        });
    }
});
