import { type AuthContext, authorize } from "../../http/auth.js";

/**
 * Who may do what with contacts: every user of the company lists, opens, creates, edits, imports
 * and exports them; deleting (which takes the contact's tickets along) needs contacts-page:deleteContact.
 */
export const contactPolicy = {
  remove(actor: AuthContext) {
    authorize(actor, "contacts-page:deleteContact");
  },
};
