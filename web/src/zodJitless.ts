import { z } from "zod";

/**
 * Zod compiles its object parsers with `new Function` where it may, and first probes whether it
 * may: under the server's Content-Security-Policy (no 'unsafe-eval') that probe is refused and
 * reported as a violation, even though zod catches it. Parsing without the compiled parsers is what
 * it falls back to anyway. Imported first by main.tsx, before any schema is made.
 */
z.config({ jitless: true });
