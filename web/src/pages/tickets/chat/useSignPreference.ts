import { useState } from "react";

const KEY = "signMessage";

/** The agent's name signature on outgoing messages: on by default, kept in this browser. */
export function useSignPreference(): [boolean, (sign: boolean) => void] {
  const [sign, setSign] = useState(() => {
    try {
      return localStorage.getItem(KEY) !== "false";
    } catch {
      return true;
    }
  });
  function change(next: boolean) {
    setSign(next);
    try {
      localStorage.setItem(KEY, String(next));
    } catch {
      // storage unavailable: the choice lasts for this page only
    }
  }
  return [sign, change];
}
