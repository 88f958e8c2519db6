/**
 * Baileys, as the server imports it: protobufjs' oneof getters are made to leave V8's empty-object
 * shape alone before WhatsApp's protocol loads (see protobufShapes.ts), so that comes first.
 */
import "./protobufShapes.js";

export * from "@whiskeysockets/baileys";
