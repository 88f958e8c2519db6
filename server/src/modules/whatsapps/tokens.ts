import crypto from "node:crypto";
import { secretHint } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import type { SecretBox } from "../../lib/secretBox.js";
import { connectionsWithLegacyToken, replaceLegacyToken } from "./queries.js";

/**
 * A connection's API token (the messages API's bearer) is made here, only when an admin asks for one
 * (POST /whatsapp/{id}/token; a new connection has none), shown in that answer once, and kept only
 * as a keyed hash and a hint: whoever reads the database, or any later answer, learns nothing that
 * sends a message. No company ever chooses one, so no answer can tell that a token exists elsewhere.
 */

/** The SecretBox.fingerprint purpose of connection tokens. */
export const CONNECTION_TOKEN_PURPOSE = "whatsapp.token";

/** How long a generated token is; a token from before the hashes may be shorter (and weak). */
export const GENERATED_TOKEN_LENGTH = 43;

/** A new token: 32 random bytes (256 bits), base64url (GENERATED_TOKEN_LENGTH characters). */
export function newConnectionToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

/** The keyed hash a token is stored and looked up by. */
export function connectionTokenHash(box: SecretBox, token: string): string {
  return box.fingerprint(CONNECTION_TOKEN_PURPOSE, token);
}

/**
 * What a connection row keeps of a token: its keyed hash and its hint (the last characters), and no
 * clear token from before the hashes any more (the start-up step must not bring one back).
 */
export function storedToken(
  box: SecretBox,
  token: string,
): { tokenHash: string; tokenHint: string; legacyToken: null } {
  return {
    tokenHash: connectionTokenHash(box, token),
    tokenHint: secretHint(token) ?? "",
    legacyToken: null,
  };
}

/**
 * The start-up step's part: every token still in clear (made before the hashes) becomes its hash
 * and hint, so a client holding it keeps working. A row that already has a hash (a token generated
 * since) keeps it: its clear token was replaced, so it is only dropped. Answers how many it hashed.
 */
export async function hashLegacyTokens(db: Executor, box: SecretBox): Promise<number> {
  let hashed = 0;
  for (const row of await connectionsWithLegacyToken(db)) {
    const legacy = row.legacyToken!;
    if (await replaceLegacyToken(db, row.companyId, row.id, legacy, storedToken(box, legacy))) hashed++;
  }
  return hashed;
}
