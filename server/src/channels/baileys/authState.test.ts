import { Curve, proto, type SignalDataTypeMap } from "./lib.js";
import { describe, expect, it } from "vitest";
import { dbSignalKeyStore, useDbAuthState } from "./authState.js";
import { memoryAuthStore } from "./fixtures/memoryAuthStore.js";

describe("useDbAuthState: credentials", () => {
  it("starts with fresh credentials, and a restart reads back the same ones, Buffers included", async () => {
    const { store, rows } = memoryAuthStore();
    const first = await useDbAuthState(store, { cache: false });
    first.state.creds.routingInfo = Buffer.from([9, 8, 7]);
    await first.saveCreds();

    expect([...rows.keys()]).toStrictEqual(["creds/creds"]);
    const stored = rows.get("creds/creds") as { noiseKey: { public: unknown } };
    expect(stored.noiseKey.public).toMatchObject({ type: "Buffer", data: expect.any(String) as string });

    const again = await useDbAuthState(store, { cache: false });
    const { creds } = again.state;
    expect(creds.registrationId).toBe(first.state.creds.registrationId);
    expect(creds.advSecretKey).toBe(first.state.creds.advSecretKey);
    expect(Buffer.isBuffer(creds.noiseKey.private)).toBe(true);
    expect(
      Buffer.compare(Buffer.from(creds.noiseKey.private), Buffer.from(first.state.creds.noiseKey.private)),
    ).toBe(0);
    expect(creds.signedPreKey.signature).toStrictEqual(Buffer.from(first.state.creds.signedPreKey.signature));
    expect(creds.routingInfo).toStrictEqual(Buffer.from([9, 8, 7]));
  });

  it("saves the credentials as Baileys changed them in place, the last save winning", async () => {
    const { store } = memoryAuthStore();
    const { state, saveCreds } = await useDbAuthState(store, { cache: false });
    state.creds.nextPreKeyId = 31;
    const older = saveCreds();
    state.creds.nextPreKeyId = 32;
    await Promise.all([older, saveCreds()]);
    expect((await useDbAuthState(store, { cache: false })).state.creds.nextPreKeyId).toBe(32);
  });
});

describe("dbSignalKeyStore: one row per key", () => {
  const preKey = Curve.generateKeyPair();

  it("writes each key as its own row under its type, and reads Buffers back", async () => {
    const { store, rows, writes } = memoryAuthStore();
    const keys = dbSignalKeyStore(store);
    await keys.set({
      "pre-key": { "1": preKey, "2": Curve.generateKeyPair() },
      session: { "5511987654321.0": Buffer.from([1, 2, 3]) },
      "lid-mapping": { "5511987654321": "123456789012345" },
      "device-list": { "5511987654321": ["0", "12"] },
      tctoken: { "5511987654321@s.whatsapp.net": { token: Buffer.from("tok"), timestamp: "1763700000" } },
    });

    expect(writes).toHaveLength(1);
    expect([...rows.keys()].sort()).toStrictEqual([
      "device-list/5511987654321",
      "lid-mapping/5511987654321",
      "pre-key/1",
      "pre-key/2",
      "session/5511987654321.0",
      "tctoken/5511987654321@s.whatsapp.net",
    ]);

    const got = await keys.get("pre-key", ["1", "404"]);
    expect(Object.keys(got)).toStrictEqual(["1"]);
    expect(Buffer.from(got["1"]!.public).equals(Buffer.from(preKey.public))).toBe(true);
    expect(Buffer.isBuffer(got["1"]!.private)).toBe(true);
    expect(await keys.get("session", ["5511987654321.0"])).toStrictEqual({
      "5511987654321.0": Buffer.from([1, 2, 3]),
    });
    expect(await keys.get("lid-mapping", ["5511987654321"])).toStrictEqual({
      "5511987654321": "123456789012345",
    });
    expect(await keys.get("device-list", ["5511987654321"])).toStrictEqual({ "5511987654321": ["0", "12"] });
    const token = await keys.get("tctoken", ["5511987654321@s.whatsapp.net"]);
    expect(token["5511987654321@s.whatsapp.net"]?.token).toStrictEqual(Buffer.from("tok"));
  });

  it("deletes a key when Baileys sets it to null, touching no other row", async () => {
    const { store, rows, writes } = memoryAuthStore();
    const keys = dbSignalKeyStore(store);
    await keys.set({ "pre-key": { "1": preKey, "2": preKey } });
    await keys.set({ "pre-key": { "1": null } });
    expect(writes.at(-1)).toStrictEqual([{ category: "pre-key", id: "1" }]);
    expect([...rows.keys()]).toStrictEqual(["pre-key/2"]);
    expect(await keys.get("pre-key", ["1"])).toStrictEqual({});
  });

  it("revives app-state-sync-keys as protobuf objects", async () => {
    const { store } = memoryAuthStore();
    const keys = dbSignalKeyStore(store);
    const keyData = proto.Message.AppStateSyncKeyData.fromObject({
      keyData: Buffer.alloc(32, 5),
      fingerprint: { rawId: 7, currentIndex: 1, deviceIndexes: [0, 1] },
      timestamp: 1763700000000,
    });
    await keys.set({ "app-state-sync-key": { AAAAAQ: keyData } });

    const revived = (await keys.get("app-state-sync-key", ["AAAAAQ"])).AAAAAQ;
    expect(revived).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(revived!.keyData!).equals(Buffer.alloc(32, 5))).toBe(true);
    expect(revived!.fingerprint?.deviceIndexes).toStrictEqual([0, 1]);
  });

  it("serves reads from its cache through the state Baileys is given", async () => {
    const { store, writes } = memoryAuthStore();
    const { state } = await useDbAuthState(store);
    const session: SignalDataTypeMap["session"] = Buffer.from([4, 5, 6]);
    await state.keys.set({ session: { "x.0": session } });
    expect(writes).toHaveLength(1);
    expect(await state.keys.get("session", ["x.0"])).toStrictEqual({ "x.0": session });
    const again = await useDbAuthState(store);
    expect(await again.state.keys.get("session", ["x.0"])).toStrictEqual({ "x.0": Buffer.from([4, 5, 6]) });
  });
});
