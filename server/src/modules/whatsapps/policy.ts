import { type AuthContext, authorize } from "../../http/auth.js";

/** Connections: every user may list them (the new-ticket dialog picks one); admins run them. */
export const whatsappPolicy = {
  view(actor: AuthContext) {
    authorize(actor, "connections-page:editOrDeleteConnection");
  },
  create(actor: AuthContext) {
    authorize(actor, "connections-page:addConnection");
  },
  edit(actor: AuthContext) {
    authorize(actor, "connections-page:editOrDeleteConnection");
  },
  runSession(actor: AuthContext) {
    authorize(actor, "connections-page:actionButtons");
  },
};
