// The texts a ticket command sends the customer on its own (isBot), besides the rating question (rating.ts).

/** Sent on accept when the setting sendGreetingAccepted is enabled. */
export const acceptGreeting = (contactName: string, agentName: string) =>
  `*Mensagem automática:*\nOlá ${contactName}, meu nome é ${agentName} e vou continuar o seu atendimento.`;

/** Sent on a transfer to another queue when the setting sendMsgTransfTicket is enabled. */
export const transferNotice = (queueName: string) =>
  `*Mensagem automática*:\nVocê foi transferido para o departamento *${queueName}*\naguarde, já vamos te atender!`;
