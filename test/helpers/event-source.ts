/**
 * The EventSource Node 20 tests use (no global EventSource there): the one the page-script
 * double's Node side uses, `SocketEventSource` (src/http/event-stream.ts).
 */
export { SocketEventSource as TestEventSource } from '../../src/http/event-stream.js';
