import type pg from "pg";

/** The words bench/tickets' data is made of: Brazilian names, and a support chat's sentences. */
export type Query = <R extends pg.QueryResultRow = Record<string, unknown>>(
  text: string,
  values?: unknown[],
) => Promise<pg.QueryResult<R>>;

export const FIRST_NAMES =
  `Ana Bruno Carla Daniel Eduarda Felipe Gabriela Henrique Isabela João Juliana Karina Lucas
  Mariana Mateus Natália Otávio Paula Rafael Sabrina Thiago Vanessa Vinícius Yasmin Aline Bernardo Camila
  Diego Elisa Fábio Giovana Heitor Ingrid Jorge Larissa Leonardo Letícia Marcelo Nicole Pedro Priscila
  Renata Rodrigo Sérgio Tatiane Alexandre Beatriz Caio Débora Gustavo`.split(/\s+/);
export const LAST_NAMES =
  `Silva Santos Oliveira Souza Rodrigues Ferreira Alves Pereira Lima Gomes Costa Ribeiro
  Martins Carvalho Almeida Lopes Soares Fernandes Vieira Barbosa Rocha Dias Nascimento Andrade Moreira Nunes
  Marques Machado Mendes Freitas Cardoso Ramos Gonçalves Santana Teixeira Moura Correia Campos Pinto Araújo
  Barros Cavalcanti Monteiro Batista Duarte Farias Reis Teles Xavier Queiroz`.split(/\s+/);
/** A customer-service chat's words, roughly most frequent first (sentences favour the first ones). */
export const WORDS = `de que o a não é para um com eu você por favor obrigado bom dia boa tarde pedido sim
  aqui isso ok certo meu minha seu sua entrega prazo valor pagamento hoje amanhã ainda já pode consegue
  ajuda problema produto cliente número atendimento informação recebi enviado chegou aguardo olá tudo bem
  fatura boleto pix cartão cadastro endereço código rastreio nota fiscal troca devolução cancelamento
  reembolso desconto promoção garantia suporte técnico senha acesso aplicativo site conta email telefone
  protocolo reclamação urgente atraso transportadora correios estoque tamanho cor modelo orçamento contrato
  plano mensalidade renovação assinatura instalação visita agendamento horário segunda sexta semana mês
  funcionando quebrado defeito manutenção peça substituição parcela juros vencimento segunda-via comprovante
  transferência depósito confirmação aprovado recusado análise documento foto anexo retorno ligação
  whatsapp atendente gerente supervisor`.split(/\s+/);
export const SENTENCES = 5000;

/** A deterministic pseudo-random pick in 0..n-1 from an integer SQL expression and a salt. */
export const pick = (expr: string, n: string | number, salt: number) =>
  `((hashint4((${expr})::int + ${salt}) & 2147483647) % (${n}))`;

/** bench_sentences (id 0..SENTENCES-1, body), a temporary table of the session. */
export async function createSentences(q: Query) {
  // Sentences of 3 to 14 words, the list's first words far more often than its last (Zipf-like).
  await q("select setseed(0.42)");
  await q(
    `create temp table bench_sentences as
     select s as id, (select string_agg(($1::text[])[1 + floor(power(random(), 2.5) * cardinality($1::text[]))::int], ' ')
                      from generate_series(1, 3 + s % 12)) as body
     from generate_series(0, ${SENTENCES - 1}) s`,
    [WORDS],
  );
  await q("alter table bench_sentences add primary key (id)");
}
