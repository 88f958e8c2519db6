import v8 from "node:v8";
import { describe, expect, it } from "vitest";
import { proto } from "./lib.js";
import { protobufShapesInTime } from "./protobufShapes.js";

// V8's own answer to "do these objects share a shape": natives syntax, compiled after the flag is set.
v8.setFlagsFromString("--allow-natives-syntax");
const haveSameShape = new Function("a", "b", "return %HaveSameMap(a, b)") as (
  a: object,
  b: object,
) => boolean;

/** Built as Node builds a request's headers: an empty object, a key at a time, by a computed name. */
function headersLike(names: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of names) headers[name] = `value of ${name}`;
  return headers;
}

const optionalSet = (button: proto.IHydratedTemplateButton) => (button as { _index?: string })._index;

describe("Baileys loaded (issue 40)", () => {
  it("leaves V8's empty-object shape usable: objects built alike from {} share one shape", () => {
    // Loading WhatsApp's protocol made ~1,400 one-field objects of protobufjs' oneof getters; past
    // 1,536 first keys V8 gives every new object built from {} a shape of its own.
    const names = ["host", "authorization", "content-type", "content-length", "x-atende-probe"];
    expect(haveSameShape(headersLike(names), headersLike(names))).toBe(true);
    expect(protobufShapesInTime).toBe(true);
  });

  it("still answers which field of a oneof is set, the last one set winning", () => {
    const button = proto.HydratedTemplateButton.create({
      index: 2,
      urlButton: { displayText: "Site", url: "https://example.com" },
    });
    expect(button.hydratedButton).toBe("urlButton");
    // A proto3 optional field is a oneof of its own, whose getter protobufjs names `_<field>`.
    expect(optionalSet(button)).toBe("index");
    button.callButton = { displayText: "Ligar", phoneNumber: "+5511999990000" };
    expect(button.hydratedButton).toBe("callButton");
    expect(optionalSet(proto.HydratedTemplateButton.create({}))).toBeUndefined();
    expect(proto.HydratedTemplateButton.create({}).hydratedButton).toBeUndefined();
    // And the wire format is unchanged by it.
    const bytes = proto.HydratedTemplateButton.encode(button).finish();
    expect(proto.HydratedTemplateButton.decode(bytes).hydratedButton).toBe("callButton");
  });
});
