/**
 * Lets the event loop turn (timers, sockets, incoming requests) before going on. A long loop over
 * an embedded database (PGlite runs its queries on this thread, and its answers resolve without any
 * I/O) otherwise keeps every request waiting until the loop ends.
 */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
