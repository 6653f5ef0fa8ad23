// Loaded by jest (--setupFiles) for supabase-js's Node integration suite: the
// suite is written for Node 22+, whose global WebSocket realtime-js needs when
// a client is built without a transport; on Node 20 the `ws` package's class
// stands in for it. A client-side stand-in only: nothing of the server changes.
/* global require -- a CommonJS file run by jest */
// eslint-disable-next-line @typescript-eslint/no-require-imports
if (typeof globalThis.WebSocket === "undefined") globalThis.WebSocket = require("ws");
