/**
 * Texts of the route gates in every language (pt is the shape): a page whose feature the company's
 * plan lacks, and an admin page opened by someone who is not one (the spec's 'Acesso não permitido').
 */
const pt = {
  missing: "Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.",
  accessDenied: "Acesso não permitido",
};
export type PlanGateTexts = typeof pt;

const en: PlanGateTexts = {
  missing: "This company is not allowed to access this page! Redirecting you.",
  accessDenied: "Access not allowed",
};

const es: PlanGateTexts = {
  missing: "¡Esta empresa no tiene permiso para acceder a esta página! Lo estamos redirigiendo.",
  accessDenied: "Acceso no permitido",
};

export const planGateTexts = { pt, en, es };
