import { createContext, useContext } from "react";

/** The per-request CSP nonce; set by entry.server, empty in the browser (which hides nonces anyway). */
export const NonceContext = createContext<string>("");
export const useNonce = () => useContext(NonceContext);

export const NONCE_HEADER = "x-csp-nonce";
