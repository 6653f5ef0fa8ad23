import { createContext, useContext } from "react";

/** The CSP nonce of this document (set by entry.server; empty in the browser, where it is not needed). */
export const NonceContext = createContext<string>("");
export const useNonce = () => useContext(NonceContext);
