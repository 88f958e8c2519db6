import { INVITE_CODE_HOURS, type Lang, RESET_CODE_MINUTES } from "@atende/contracts";
import type { Mail } from "./mailer.js";

export type CodePurpose = "reset" | "invite";

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const TEXTS: Record<
  CodePurpose,
  Record<
    Lang,
    { subject: string; hello: string; intro: string; valid: string; action: string; ignore: string }
  >
> = {
  reset: {
    pt: {
      subject: "Seu código para redefinir a senha",
      hello: "Olá",
      intro:
        "Recebemos um pedido para redefinir a senha da sua conta no Atende. Seu código de verificação é:",
      valid: `O código vale por ${RESET_CODE_MINUTES} minutos e funciona uma única vez.`,
      action: "Redefinir a senha",
      ignore: "Se você não pediu, ignore este e-mail: sua senha continua a mesma.",
    },
    en: {
      subject: "Your code to reset your password",
      hello: "Hello",
      intro: "We received a request to reset the password of your Atende account. Your verification code is:",
      valid: `The code is valid for ${RESET_CODE_MINUTES} minutes and works only once.`,
      action: "Reset the password",
      ignore: "If you did not ask for it, ignore this e-mail: your password stays the same.",
    },
    es: {
      subject: "Su código para restablecer la contraseña",
      hello: "Hola",
      intro:
        "Recibimos un pedido para restablecer la contraseña de su cuenta en Atende. Su código de verificación es:",
      valid: `El código vale por ${RESET_CODE_MINUTES} minutos y funciona una sola vez.`,
      action: "Restablecer la contraseña",
      ignore: "Si usted no lo pidió, ignore este correo: su contraseña sigue igual.",
    },
  },
  invite: {
    pt: {
      subject: "Bem-vindo ao Atende: defina sua senha",
      hello: "Olá",
      intro:
        "Uma conta de administrador foi criada para você no Atende. Para definir sua senha, use o código:",
      valid: `O código vale por ${INVITE_CODE_HOURS} horas e funciona uma única vez.`,
      action: "Definir a senha",
      ignore: "Se você não esperava este convite, ignore este e-mail.",
    },
    en: {
      subject: "Welcome to Atende: set your password",
      hello: "Hello",
      intro: "An administrator account was created for you on Atende. To set your password, use the code:",
      valid: `The code is valid for ${INVITE_CODE_HOURS} hours and works only once.`,
      action: "Set the password",
      ignore: "If you did not expect this invitation, ignore this e-mail.",
    },
    es: {
      subject: "Bienvenido a Atende: defina su contraseña",
      hello: "Hola",
      intro:
        "Se creó una cuenta de administrador para usted en Atende. Para definir su contraseña, use el código:",
      valid: `El código vale por ${INVITE_CODE_HOURS} horas y funciona una sola vez.`,
      action: "Definir la contraseña",
      ignore: "Si no esperaba esta invitación, ignore este correo.",
    },
  },
};

/**
 * The mail that carries a code: plain text and simple HTML, in `lang`. The link opens /forgetpsw
 * with the e-mail and the code in its fragment (#...), which browsers never send to a server, so no
 * access log ever holds the code.
 */
export function codeMail(
  purpose: CodePurpose,
  lang: Lang,
  v: { to: string; name: string; code: string; webUrl: string },
): Mail {
  const t = TEXTS[purpose][lang];
  const link = `${v.webUrl.replace(/\/+$/, "")}/forgetpsw#${new URLSearchParams({ email: v.to, code: v.code })}`;
  const text = [
    `${t.hello}, ${v.name}!`,
    "",
    t.intro,
    "",
    `    ${v.code}`,
    "",
    t.valid,
    `${t.action}: ${link}`,
    "",
    t.ignore,
  ].join("\n");
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:Arial,sans-serif;color:#222">
<p>${escape(t.hello)}, ${escape(v.name)}!</p>
<p>${escape(t.intro)}</p>
<p style="font-size:28px;font-weight:bold;letter-spacing:6px">${escape(v.code)}</p>
<p>${escape(t.valid)}</p>
<p><a href="${escape(link)}">${escape(t.action)}</a></p>
<p style="color:#666">${escape(t.ignore)}</p>
</body></html>`;
  return { to: v.to, subject: t.subject, text, html };
}
