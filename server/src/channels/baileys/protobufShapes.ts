import { createRequire } from "node:module";

/**
 * protobufjs builds each oneof's getter around a plain object keyed by the oneof's field names
 * (`util.oneOfGetter`: `const fieldMap = {}; fieldMap[name] = 1`). WhatsApp's protocol (WAProto,
 * which Baileys loads) declares about 1,400 of them (every proto3 optional field is one), so loading
 * it added as many property names as first keys of `{}`. V8 keeps at most 1,536 such transitions from
 * the empty object's shape; past that, every object built key by key from `{}` gets a shape of its
 * own: two requests' `req.headers` with the same keys in the same order no longer share one, and
 * every read of them, and of anything else built that way, misses V8's inline caches (found through
 * bench/inbound's profile, issue 40). The same getter over a Set leaves the empty object's shape alone.
 *
 * This module must run before WAProto does: the server imports Baileys through ./lib.ts, which
 * imports this first (eslint refuses a direct import of the package elsewhere).
 */
interface ProtobufUtil {
  oneOfGetter: OneOfGetterFactory;
}
type OneOfGetterFactory = ((fieldNames: string[]) => (this: object) => string | undefined) & {
  [IN_TIME]?: boolean;
};

/** Marks the replaced factory with whether it came before WAProto (a bundle may hold a second copy of this module). */
const IN_TIME = Symbol.for("atende.protobufShapes.inTime");

// protobufjs/minimal is CommonJS: required here, it is the very instance WAProto's import gets.
const protobuf = createRequire(import.meta.url)("protobufjs/minimal") as {
  util: ProtobufUtil;
  roots: Record<string, { proto?: unknown } | undefined>;
};

if (protobuf.util.oneOfGetter[IN_TIME] === undefined) {
  const oneOfGetter: OneOfGetterFactory = (fieldNames) => {
    const fields = new Set(fieldNames);
    // The present field of the oneof, if any: as protobufjs' own, the last one set wins.
    return function (this: object) {
      const keys = Object.keys(this);
      for (let i = keys.length - 1; i > -1; --i) {
        const value = (this as Record<string, unknown>)[keys[i]!];
        if (fields.has(keys[i]!) && value !== undefined && value !== null) return keys[i];
      }
      return undefined;
    };
  };
  // WAProto registers itself as protobufjs' default root: there already, it built its getters the old way.
  oneOfGetter[IN_TIME] = protobuf.roots.default?.proto === undefined;
  protobuf.util.oneOfGetter = oneOfGetter;
}

/** Whether the getters were replaced before WhatsApp's protocol loaded (app.ts warns if not). */
export const protobufShapesInTime = protobuf.util.oneOfGetter[IN_TIME] === true;
