import crypto from "node:crypto";
import { secretHint } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import type { SecretBox } from "../../lib/secretBox.js";
import { connectionsWithLegacyToken, replaceLegacyToken } from "./queries.js";

/**
 * A connection's API token (the messages API's bearer) is made here, shown once (in the answer that
 * creates or rotates it) and kept only as a keyed hash and a hint: whoever reads the database, or
 * any later answer, learns nothing that sends a message. No company ever chooses one, so no answer
 * can tell that a token exists elsewhere.
 */

/** The SecretBox.fingerprint purpose of connection tokens. */
export const CONNECTION_TOKEN_PURPOSE = "whatsapp.token";

/** A new token: 32 random bytes (256 bits), base64url (43 characters). */
export function newConnectionToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

/** The keyed hash a token is stored and looked up by. */
export function connectionTokenHash(box: SecretBox, token: string): string {
  return box.fingerprint(CONNECTION_TOKEN_PURPOSE, token);
}

/** What a connection row keeps of a token: its keyed hash and its hint (the last characters). */
export function storedToken(box: SecretBox, token: string): { tokenHash: string; tokenHint: string } {
  return { tokenHash: connectionTokenHash(box, token), tokenHint: secretHint(token) ?? "" };
}

/**
 * The start-up step's part: every token still in clear (made before the hashes) becomes its hash
 * and hint, so a client holding it keeps working. Answers how many it hashed.
 */
export async function hashLegacyTokens(db: Executor, box: SecretBox): Promise<number> {
  const rows = await connectionsWithLegacyToken(db);
  for (const row of rows)
    await replaceLegacyToken(db, row.companyId, row.id, row.legacyToken!, storedToken(box, row.legacyToken!));
  return rows.length;
}
