import type { Permission, SessionUserDTO } from "@atende/contracts";

/**
 * Whether the logged-in user holds `permission`, as the session says (the login and /auth/me
 * answers carry `permissions`, computed by the server from the table its policies read). The web
 * only shows or hides controls with it; deriving it from `profile` here would be a second home
 * for the rule, free to drift from the server's.
 */
export function can(
  user: Pick<SessionUserDTO, "permissions"> | null | undefined,
  permission: Permission,
): boolean {
  return user?.permissions?.includes(permission) ?? false;
}
