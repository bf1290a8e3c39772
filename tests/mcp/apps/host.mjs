// The host side of MCP Apps as an assistant runs it, in the browser: the official AppBridge
// (@modelcontextprotocol/ext-apps) talks to the run view in a sandboxed iframe over postMessage, and forwards the
// view's tools/call and resources/read to the test (window.hostCallTool, window.hostReadResource), which holds the
// real connection to `llm-sandbox --mcp`. Bundled for the page by esbuild when the test starts.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

let bridge;
let context;

window.mountView = async ({ html, toolArguments, toolResult, theme, locale }) => {
    // One view at a time, as an assistant shows one tool call's.
    document.getElementById('view')?.remove();
    const frame = document.createElement('iframe');
    // Scripts, but an origin of its own (none): the view cannot reach this page.
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.id = 'view';
    document.getElementById('conversation').append(frame);
    context = { theme, locale, displayMode: 'inline', availableDisplayModes: ['inline'], platform: 'web' };
    bridge = new AppBridge(
        null,
        { name: 'llm-sandbox-test-host', version: '1.0.0' },
        { serverTools: {}, serverResources: {}, logging: {} },
        { hostContext: context },
    );
    bridge.oncalltool = (params) => window.hostCallTool(params);
    bridge.onreadresource = (params) => window.hostReadResource(params);
    bridge.onsizechange = ({ height }) => {
        if (height) {
            frame.style.height = `${height}px`;
        }
    };
    const initialized = new Promise((resolve) => {
        bridge.oninitialized = resolve;
    });
    await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
    frame.srcdoc = html;
    await initialized;
    await bridge.sendToolInput({ arguments: toolArguments });
    await bridge.sendToolResult(toolResult);
};

window.changeHostContext = (update) => {
    context = { ...context, ...update };
    document.body.dataset.theme = context.theme;
    bridge.setHostContext(context);
};
