/** Texts of a WhatsApp session's pairing and alerts in every language: pt is the shape the others fill. */
const pt = {
  pairing: {
    useCode: "Conectar com número de telefone",
    useQr: "Usar o QR code",
    intro: "Para conectar com o número:",
    step1: "Abra o WhatsApp no celular.",
    step2: "Toque em Mais opções ou Configurações e selecione Dispositivos conectados.",
    step3: "Toque em Conectar dispositivo e depois em Conectar com número de telefone.",
    step4: "Digite no celular o código mostrado aqui.",
    number: "Número do WhatsApp",
    numberHelp: "Com código do país e DDD, como está no celular: +55 11 98765-4321",
    request: "Gerar código",
    again: "Gerar outro código",
    code: "Código de pareamento",
  },
  alerts: {
    TIMEOUT: "A conexão {{name}} perdeu contato com o WhatsApp. Tentando de novo sozinha.",
    DISCONNECTED: "A conexão {{name}} foi desconectada do WhatsApp.",
    title: "Conexão com problema",
    open: "Ver conexões",
  },
};

const en: typeof pt = {
  pairing: {
    useCode: "Link with phone number instead",
    useQr: "Use the QR code",
    intro: "To link with the phone number:",
    step1: "Open WhatsApp on your phone.",
    step2: "Tap More options or Settings and select Linked devices.",
    step3: "Tap Link a device, then Link with phone number instead.",
    step4: "Type the code shown here on your phone.",
    number: "WhatsApp number",
    numberHelp: "With country and area code, as on the phone: +1 415 555 0123",
    request: "Get code",
    again: "Get another code",
    code: "Pairing code",
  },
  alerts: {
    TIMEOUT: "Connection {{name}} lost contact with WhatsApp. It keeps trying on its own.",
    DISCONNECTED: "Connection {{name}} was disconnected from WhatsApp.",
    title: "Connection needs attention",
    open: "See connections",
  },
};

const es: typeof pt = {
  pairing: {
    useCode: "Vincular con número de teléfono",
    useQr: "Usar el código QR",
    intro: "Para vincular con el número:",
    step1: "Abra WhatsApp en el teléfono.",
    step2: "Toque Más opciones o Ajustes y seleccione Dispositivos vinculados.",
    step3: "Toque Vincular un dispositivo y luego Vincular con el número de teléfono.",
    step4: "Escriba en el teléfono el código que se muestra aquí.",
    number: "Número de WhatsApp",
    numberHelp: "Con código de país y de área, como en el teléfono: +34 612 34 56 78",
    request: "Obtener código",
    again: "Obtener otro código",
    code: "Código de vinculación",
  },
  alerts: {
    TIMEOUT: "La conexión {{name}} perdió contacto con WhatsApp. Sigue intentando por sí sola.",
    DISCONNECTED: "La conexión {{name}} se desconectó de WhatsApp.",
    title: "Conexión con problemas",
    open: "Ver conexiones",
  },
};

export const whatsappSessionTexts = { pt, en, es };
