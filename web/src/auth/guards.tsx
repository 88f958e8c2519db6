import { can, type Permission } from "@atende/contracts";
import { Navigate, Outlet } from "react-router-dom";
import { FullPageLoader } from "../components/FullPageLoader";
import { useAuth, useSessionUser } from "./AuthContext";

/** Private routes: an unauthenticated visitor goes to /login. */
export function PrivateRoute() {
  const { user, loading } = useAuth();
  if (loading) return <FullPageLoader />;
  return user ? <Outlet /> : <Navigate to="/login" replace />;
}

/** Public routes (/login, /signup, /forgetpsw): an authenticated visitor goes to /. */
export function PublicRoute() {
  const { user, loading } = useAuth();
  if (loading) return <FullPageLoader />;
  return user ? <Navigate to="/" replace /> : <Outlet />;
}

/** Pages for holders of `permission`; anyone else lands on the tickets screen. */
export function PermissionRoute({ permission }: { permission: Permission }) {
  const user = useSessionUser();
  return can(user, permission) ? <Outlet /> : <Navigate to="/tickets" replace />;
}
