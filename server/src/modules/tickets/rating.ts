// The customer's rating of a resolved ticket: the question sent, and how long its answer is awaited.

export const RATING_OPTIONS = "*[ 1 ]* - Insatisfeito\n*[ 2 ]* - Satisfeito\n*[ 3 ]* - Muito satisfeito";

/** Sent on resolve when the setting userRating is enabled and the connection has a rating message. */
export const ratingQuestion = (connection: { ratingMessage: string }) =>
  `${connection.ratingMessage}\n\n${RATING_OPTIONS}`;

/**
 * How long a resolved ticket keeps waiting for the customer's rating: within it, the customer's
 * reply still reaches the closed ticket (the inbound pipeline's rule on ticket_bot_states).
 */
export const RATING_WAIT_MS = 24 * 3600_000;

/** The closed ticket still awaits the customer's rating (asked on resolve, not yet answered). */
export const awaitingRating = (state: { ratingAsks: number; updatedAt: Date } | null, at: Date) =>
  state !== null && state.ratingAsks > 0 && at.getTime() - state.updatedAt.getTime() < RATING_WAIT_MS;
