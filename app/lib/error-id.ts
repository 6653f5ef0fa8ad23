import { createContext, useContext } from "react";

/** The id under which the server logged an unexpected error of this document (see entry.server handleError). */
export const ErrorIdContext = createContext<string | null>(null);
export const useErrorId = () => useContext(ErrorIdContext);
