// Loaded first (node --require) in a run with network: Node's own fetch reads no proxy variables, so fetch becomes
// undici's, sent through the run's egress proxy that HTTPS_PROXY names (docs/user/network.md).
'use strict';
const undici = require('/usr/share/nodejs/undici');
undici.setGlobalDispatcher(new undici.ProxyAgent(process.env.HTTPS_PROXY));
globalThis.fetch = undici.fetch;
