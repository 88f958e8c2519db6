/** Texts of the Logo tab (settings, super user) in every language: pt is the shape the others fill. */
const pt = {
  tab: "Logo",
  heading: "Logotipos / Ícones",
  hint: "PNG, ICO ou SVG, até 2 MB. A imagem aparece para todos os visitantes logo após o envio.",
  target: "Escolha uma opção:",
  targets: {
    signup: "Tela de Registro",
    login: "Tela de Login",
    interno: "Logotipo Interno",
    favicon: "Favicon.Ico",
    "favicon-256x256": "Ícone 256x256",
    "apple-touch-icon": "Apple Touch Icon",
  },
  chooseFile: "Escolher imagem",
  current: "Atual",
  none: "Padrão do sistema",
  preview: "Prévia",
  send: "Enviar arquivo",
  onlyTypes: "Use somente arquivos em formato PNG, ICO ou SVG!",
  fileRequired: "Escolha um arquivo!",
  targetRequired: "Escolha um destino!",
  sent: "Arquivo enviado com sucesso!",
  noPermission: "Sem permissao para acessar!",
};
export type LogosTexts = typeof pt;

const en: LogosTexts = {
  tab: "Logo",
  heading: "Logos / Icons",
  hint: "PNG, ICO or SVG, up to 2 MB. Every visitor sees the image right after the upload.",
  target: "Choose an option:",
  targets: {
    signup: "Sign-up page",
    login: "Login page",
    interno: "Inner logo",
    favicon: "Favicon.Ico",
    "favicon-256x256": "256x256 icon",
    "apple-touch-icon": "Apple Touch Icon",
  },
  chooseFile: "Choose image",
  current: "Current",
  none: "System default",
  preview: "Preview",
  send: "Send file",
  onlyTypes: "Use only PNG, ICO or SVG files!",
  fileRequired: "Choose a file!",
  targetRequired: "Choose a target!",
  sent: "File sent successfully!",
  noPermission: "No permission to access!",
};

const es: LogosTexts = {
  tab: "Logo",
  heading: "Logotipos / Íconos",
  hint: "PNG, ICO o SVG, hasta 2 MB. Todos los visitantes ven la imagen justo después del envío.",
  target: "Elija una opción:",
  targets: {
    signup: "Pantalla de registro",
    login: "Pantalla de inicio de sesión",
    interno: "Logotipo interno",
    favicon: "Favicon.Ico",
    "favicon-256x256": "Ícono 256x256",
    "apple-touch-icon": "Apple Touch Icon",
  },
  chooseFile: "Elegir imagen",
  current: "Actual",
  none: "Predeterminado del sistema",
  preview: "Vista previa",
  send: "Enviar archivo",
  onlyTypes: "¡Use solamente archivos en formato PNG, ICO o SVG!",
  fileRequired: "¡Elija un archivo!",
  targetRequired: "¡Elija un destino!",
  sent: "¡Archivo enviado con éxito!",
  noPermission: "¡Sin permiso para acceder!",
};

export const logosTexts = { pt, en, es };
