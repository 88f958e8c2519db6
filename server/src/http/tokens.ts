import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { SignJWT, errors as joseErrors, jwtVerify } from "jose";

export interface AccessClaims {
  userId: number;
  companyId: number;
  sessionId: string;
}

/** Signs and verifies short-lived access tokens (HS256 JWT with `exp`). */
export class TokenService {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    private readonly ttl: string,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(claims: AccessClaims): Promise<string> {
    return new SignJWT({ companyId: claims.companyId, sid: claims.sessionId })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(claims.userId))
      .setIssuedAt()
      .setExpirationTime(this.ttl)
      .sign(this.key);
  }

  /**
   * The refresh token that follows `refreshToken` when it is rotated: derived from it with the
   * secret, so every replay of one token within the reuse grace (two tabs, a retried request) is
   * answered the one successor rather than a chain of its own. Unguessable without the secret.
   */
  successorOf(refreshToken: string): string {
    return crypto.createHmac("sha256", this.key).update(`refresh:${refreshToken}`).digest("base64url");
  }

  /**
   * A keyed hash of a short secret (an e-mailed 6-digit code): a database dump alone cannot try
   * the million codes against it without the secret. `label` keeps two uses apart.
   */
  keyedHash(label: string, value: string): string {
    return crypto.createHmac("sha256", this.key).update(`${label}:${value}`).digest("hex");
  }

  /** Returns the claims, or "expired" / "invalid". */
  async verify(token: string): Promise<AccessClaims | "expired" | "invalid"> {
    try {
      // A token without `exp` would never expire: refused, like one that did.
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ["HS256"],
        requiredClaims: ["exp", "sub"],
      });
      const userId = Number(payload.sub);
      const companyId = Number(payload.companyId);
      if (!Number.isInteger(userId) || !Number.isInteger(companyId) || typeof payload.sid !== "string") {
        return "invalid";
      }
      return { userId, companyId, sessionId: payload.sid };
    } catch (err) {
      return err instanceof joseErrors.JWTExpired ? "expired" : "invalid";
    }
  }
}

export function newRefreshToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/**
 * The JWT secret: JWT_SECRET when set (required with several instances), else one generated at
 * first start and kept in the data directory so restarts keep sessions.
 */
export function resolveJwtSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, "jwt-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = crypto.randomBytes(48).toString("base64url");
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
