/** Texts of the plan gate (a page whose feature the company's plan lacks) in every language: pt is the shape. */
const pt = {
  missing: "Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.",
};
export type PlanGateTexts = typeof pt;

const en: PlanGateTexts = {
  missing: "This company is not allowed to access this page! Redirecting you.",
};

const es: PlanGateTexts = {
  missing: "¡Esta empresa no tiene permiso para acceder a esta página! Lo estamos redirigiendo.",
};

export const planGateTexts = { pt, en, es };
