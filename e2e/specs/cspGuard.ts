import { type BrowserContext, expect } from "@playwright/test";

/**
 * Fails the running test on any Content-Security-Policy violation (issue 32, finding 7: the built
 * app runs under the server's CSP with none). Every page of a watched context reports the
 * `securitypolicyviolation` events of its documents on the console, where Chromium writes its own
 * "Refused to ..." lines too; each one is a soft failure of the test that was running.
 *
 * Wired in helpers.ts: loginAs watches its page's context, newPerson the context it makes.
 */
const MARK = "[csp violation]";
const watched = new WeakSet<BrowserContext>();

export async function watchCsp(context: BrowserContext): Promise<void> {
  if (watched.has(context)) return;
  watched.add(context);
  await context.addInitScript((mark) => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(
        `${mark} ${e.effectiveDirective} refused ${e.blockedURI || "inline"} on ${location.pathname}`,
      );
    });
  }, MARK);
  context.on("console", (message) => {
    const text = message.text();
    if (!text.startsWith(MARK) && !/^Refused to .*Content Security Policy/.test(text)) return;
    try {
      expect.soft(text, "a Content-Security-Policy violation").toBe("");
    } catch {
      // No test is running (the context outlived it): say it at least.
      console.error(text);
    }
  });
}
