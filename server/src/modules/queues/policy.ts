import { type AuthContext, authorize } from "../../http/auth.js";

/**
 * Queues: every user of the company reads them (pickers, transfer, the chatbot's menu); only admins
 * create, edit and delete queues, their options and their media.
 */
export const queuePolicy = {
  manage(actor: AuthContext) {
    authorize(actor, "queues-page:manage");
  },
};
