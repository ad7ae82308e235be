import { createContext, useContext } from "react";

/**
 * The id of the request being rendered (the X-Request-Id the server logs it under). Set only while
 * the server renders a document; in the browser it is null.
 */
export const RequestIdContext = createContext<string | null>(null);

export function useRequestId(): string | null {
  return useContext(RequestIdContext);
}
