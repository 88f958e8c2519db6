import { Writable } from "node:stream";
import { TEST_PASSWORD } from "./factories.js";

/**
 * Passwords the tests log in with or send in paths (the factories' users, the guard suite's legacy
 * reset): no line the server logs may carry one, whatever route it took.
 */
const TEST_SECRETS = [TEST_PASSWORD, "Guard1234"];

/**
 * The app's logger for a test that reads no log of its own: info and above, into a sink that keeps
 * only the lines carrying a test password (`leaks`), for the harness to fail the file on at its end.
 */
export function leakCheckingLogger() {
  const leaks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      const line = chunk.toString();
      if (TEST_SECRETS.some((secret) => line.includes(secret))) leaks.push(line.slice(0, 500));
      done();
    },
  });
  return { logger: { level: "info", stream }, leaks };
}

/** The app's logger for a test that reads its own log: info and above, kept whole in `text`. */
export function logCapture() {
  const capture = {
    text: "",
    logger: {
      level: "info",
      stream: new Writable({
        write(chunk: Buffer, _enc, done) {
          capture.text += chunk.toString();
          done();
        },
      }),
    },
  };
  return capture;
}
