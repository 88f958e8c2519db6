/** An admin's read-only look into a waiting ticket. (Being built: the chat issue replaces this file.) */
export function TicketViewDialog(_props: { ticketId: number; open: boolean; onClose: () => void }) {
  return null;
}
